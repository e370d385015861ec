import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { INTAKE_MAX } from '../../../contract/intake.ts';
import { AppError } from '../../../domain/errors.ts';
import { addressBucket } from '../../../lib/client-address.ts';
import { rejectionMessage } from '../../../pdf/cv-check.ts';
import type { App } from '../../types.ts';
import { PAGE_WORDS, type PageWords } from '../i18n.ts';
import { type ApplyDeps, addressLimited, formPage } from './apply-context.ts';
import {
  FIELDS,
  type Field,
  type FormState,
  type TextField,
  type Values,
  closedPage,
  cookieNonce,
  langOf,
  sentPage,
  tooManyPage,
} from './form-view.ts';
import { APPLY_WORDS } from './apply-words.ts';
import { passChallenge } from './challenge.ts';
import { readForm } from './read-form.ts';
import { ApplyParams } from './show-form.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LIMITS: Record<TextField, number> = {
  name: INTAKE_MAX.name,
  email: 254,
  phone: INTAKE_MAX.phone,
  location: INTAKE_MAX.location,
  coverNote: INTAKE_MAX.coverNote,
};

/** The form's own checks; lengths first, so no pattern ever runs on an unbounded value. */
export function checkValues(values: Values, w: PageWords): FormState['errors'] {
  const errors: FormState['errors'] = {};
  for (const id of FIELDS) if ((values[id]?.length ?? 0) > LIMITS[id]) errors[id] = w.tooLong;
  if (!values.name?.trim()) errors.name = w.required_;
  if (!values.email?.trim()) errors.email = w.required_;
  else if (!errors.email && !EMAIL.test(values.email.trim())) errors.email = w.invalidEmail;
  return errors;
}

function hostedSource(via: unknown): 'integrator_site' | 'job_page' {
  return via === 'job_page' ? 'job_page' : 'integrator_site';
}

/**
 * POST /apply/{jobId}: the form, with its file or the uploadId the script sent it to. Everything
 * that can refuse without the body does so before a byte of it is read: the role, the address's
 * rate, the CSRF token (query or header, with the cookie), the challenge after a burst and the
 * room for one more file from this address.
 */
export function submitApplyForm(app: App, deps: ApplyDeps): void {
  const { publicJobs, formTokens, hostedApply, cvLimits } = deps.services;
  app.post('/apply/:jobId', { schema: { hide: true, params: ApplyParams } }, async (request, reply) => {
    const query = request.query as { csrf?: unknown; pow?: unknown; via?: unknown };
    const token = query.csrf ?? request.headers['x-apply-csrf'];
    let lang = langOf(request);
    const refuse = () => {
      // The body is never read: the connection closes instead of draining it.
      if (request.isMultipart()) reply.header('connection', 'close');
      return reply;
    };
    const target = await publicJobs.applyTarget(request.params.jobId);
    if (target.kind !== 'open')
      return closedPage(refuse(), lang, target.kind === 'closed' ? target.job : null);
    const job = target.job;
    const accountId = target.account.id;
    const retry = await addressLimited(deps, request);
    if (retry !== null) return tooManyPage(refuse(), lang, retry);
    let source = hostedSource(query.via);
    const again = (state: FormState, status: number, kept?: { uploadId: string; name: string }) =>
      formPage(deps, reply, { job, lang, state, status, source, ...(kept ? { kept } : {}) });
    const expired = () => {
      refuse();
      return again({ values: {}, errors: { form: PAGE_WORDS[lang].expiredForm } }, 403);
    };
    if (typeof token !== 'string' || !(await formTokens.verify(job.id, token, cookieNonce(request))))
      return expired();
    if (!(await passChallenge(deps, request, job.id, token, query.pow))) return expired();
    const bucket = addressBucket(request.ip);
    if (request.isMultipart()) {
      // Room for the largest file the body can carry: its declared length, else the CV limit.
      const declared = Number(request.headers['content-length']);
      const largest = Number.isSafeInteger(declared) && declared > 0 ? declared : cvLimits.maxBytes;
      try {
        await hostedApply.ensureRoom(accountId, bucket, Math.min(largest, cvLimits.maxBytes));
      } catch (error) {
        if (error instanceof AppError && error.status === 429)
          return tooManyPage(refuse(), lang, error.retryAfterSeconds);
        throw error;
      }
    }

    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'apply-'));
    try {
      const { fields, file } = request.isMultipart()
        ? await readForm(request, dir)
        : { fields: (request.body ?? {}) as Record<string, string>, file: null };
      lang = langOf(request, fields.lang);
      source = hostedSource(fields.via ?? query.via);
      const w = PAGE_WORDS[lang];
      const values: Values = Object.fromEntries(
        FIELDS.map((id) => [id, typeof fields[id] === 'string' ? fields[id] : '']),
      ) as Values;
      // A filled honeypot is a bot: it is thanked and nothing is stored.
      if (fields.website) return sentPage(reply, lang, job, values.email?.trim().slice(0, 254) ?? '');
      const errors = checkValues(values, w);
      let kept: { uploadId: string; name: string } | undefined;
      let uploadId = typeof fields.uploadId === 'string' && fields.uploadId !== '' ? fields.uploadId : null;
      if (file?.truncated) {
        const words = rejectionMessage('too_large', lang, cvLimits);
        errors.cv = `${words.detail} ${words.fix}`;
      } else if (file) {
        // Kept before anything else is checked: answered again, the form names it.
        uploadId = await hostedApply.keepFile(accountId, bucket, file);
        kept = { uploadId, name: file.name };
      } else if (!uploadId) errors.cv = w.required_;
      if (uploadId && !kept) {
        // The script sent the file to its slot and the name with the form (shown back, escaped).
        const name = typeof fields.cvName === 'string' ? fields.cvName.slice(0, INTAKE_MAX.fileName) : '';
        kept = { uploadId, name: name || APPLY_WORDS[lang].earlierFile };
      }
      if (Object.keys(errors).length > 0) return again({ values, errors }, 400, kept);

      try {
        await hostedApply.submit(accountId, job.id, {
          name: values.name!.trim(),
          email: values.email!.trim(),
          ...(values.phone?.trim() ? { phone: values.phone.trim() } : {}),
          ...(values.location?.trim() ? { location: values.location.trim() } : {}),
          ...(values.coverNote?.trim() ? { coverNote: values.coverNote.trim() } : {}),
          locale: lang,
          clientAddress: request.ip,
          socketAddress: request.socket.remoteAddress ?? 'unknown',
          userAgent: String(request.headers['user-agent'] ?? 'unknown'),
          source,
          uploadId: uploadId!,
        });
        // A repeated application gets the very same page: nobody learns whether a person applied.
        return sentPage(reply, lang, job, values.email!.trim());
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'job_not_open') return closedPage(reply, lang, job);
        // The file was refused and erased: it is not kept.
        if (error.code === 'cv_rejected')
          return again({ values, errors: { cv: `${error.extra.detail} ${error.extra.fix}` } }, 422);
        if (error.code === 'upload_invalid') return again({ values, errors: { cv: w.required_ } }, 400);
        if (error.code === 'bad_request' && typeof error.extra.field === 'string') {
          const key = (FIELDS as readonly string[]).includes(error.extra.field)
            ? (error.extra.field as Field)
            : 'form';
          return again(
            { values, errors: { [key]: key === 'email' ? w.invalidEmail : w.tooLong } },
            400,
            kept,
          );
        }
        if (error.status === 429) return tooManyPage(reply, lang, error.retryAfterSeconds);
        // The service's own trouble (the CV checker unavailable): the form again, the file kept.
        if (error.status === 503) {
          if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
          return again({ values, errors: { form: APPLY_WORDS[lang].tryAgain } }, 503, kept);
        }
        throw error;
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
}
