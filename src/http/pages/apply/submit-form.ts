import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { INTAKE_MAX } from '../../../contract/intake.ts';
import { AppError } from '../../../domain/errors.ts';
import type { ApplicationSource } from '../../../domain/intake/application-service.ts';
import { escapeHtml as e } from '../../../lib/html.ts';
import { rejectionMessage } from '../../../pdf/cv-check.ts';
import type { App } from '../../types.ts';
import { PAGE_WORDS, type PageWords } from '../i18n.ts';
import { sendPage } from '../page-shell.ts';
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
  tooManyPage,
} from './form-view.ts';
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

/** POST /apply/{jobId}: the form, with its file or the uploadId the script sent it to. */
export function submitApplyForm(app: App, deps: ApplyDeps): void {
  const { publicJobs, formTokens, hostedApply, cvLimits } = deps.services;
  app.post('/apply/:jobId', { schema: { hide: true, params: ApplyParams } }, async (request, reply) => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'apply-'));
    try {
      const { fields, file } = request.isMultipart()
        ? await readForm(request, dir)
        : { fields: (request.body ?? {}) as Record<string, string>, file: null };
      const lang = langOf(request, fields.lang);
      const w = PAGE_WORDS[lang];
      const source: ApplicationSource = fields.via === 'job_page' ? 'job_page' : 'integrator_site';
      const target = await publicJobs.applyTarget(request.params.jobId);
      if (target.kind !== 'open')
        return closedPage(reply, lang, target.kind === 'closed' ? target.job : null);
      const retry = await addressLimited(deps, request);
      if (retry !== null) return tooManyPage(reply, lang, retry);
      const values: Values = Object.fromEntries(
        FIELDS.map((id) => [id, typeof fields[id] === 'string' ? fields[id] : '']),
      ) as Values;
      const job = target.job;
      const again = (state: FormState, status: number) =>
        formPage(deps, reply, { job, lang, state, status, source });
      if (!(await formTokens.verify(job.id, fields.csrf, cookieNonce(request)))) {
        return again({ values, errors: { form: w.expiredForm } }, 403);
      }
      // A filled honeypot is a bot: it is thanked and nothing is stored.
      if (fields.website) return sendPage(reply, 200, lang, w.thanksTitle, `<h1>${e(w.thanksTitle)}</h1>`);
      const errors = checkValues(values, w);
      const uploadId = typeof fields.uploadId === 'string' && fields.uploadId !== '' ? fields.uploadId : null;
      if (file?.truncated) {
        const words = rejectionMessage('too_large', lang, cvLimits);
        errors.cv = `${words.detail} ${words.fix}`;
      } else if (!file && !uploadId) errors.cv = w.required_;
      if (Object.keys(errors).length > 0) return again({ values, errors }, 400);

      try {
        const result = await hostedApply.submit(target.account.id, job.id, {
          name: values.name!.trim(),
          email: values.email!.trim(),
          ...(values.phone?.trim() ? { phone: values.phone.trim() } : {}),
          ...(values.location?.trim() ? { location: values.location.trim() } : {}),
          ...(values.coverNote?.trim() ? { coverNote: values.coverNote.trim() } : {}),
          locale: lang,
          clientAddress: request.ip,
          userAgent: String(request.headers['user-agent'] ?? 'unknown'),
          source: source === 'job_page' ? 'job_page' : 'integrator_site',
          cv: uploadId ? { uploadId } : { filePath: file!.path, bytes: file!.bytes, fileName: file!.name },
        });
        if (result.duplicate)
          return sendPage(
            reply,
            200,
            lang,
            w.duplicateTitle,
            `<h1>${e(w.duplicateTitle)}</h1><p>${e(w.duplicateBody)}</p>`,
          );
        return sendPage(
          reply,
          201,
          lang,
          w.thanksTitle,
          `<h1>${e(w.thanksTitle)}</h1><p>${e(w.thanksBody(values.email!.trim()))}</p>`,
        );
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'job_not_open') return closedPage(reply, lang, job);
        if (error.code === 'cv_rejected')
          return again({ values, errors: { cv: `${error.extra.detail} ${error.extra.fix}` } }, 422);
        if (error.code === 'upload_invalid') return again({ values, errors: { cv: w.required_ } }, 400);
        if (error.code === 'bad_request' && typeof error.extra.field === 'string') {
          const key = (FIELDS as readonly string[]).includes(error.extra.field)
            ? (error.extra.field as Field)
            : 'form';
          return again({ values, errors: { [key]: key === 'email' ? w.invalidEmail : w.tooLong } }, 400);
        }
        if (error.status === 429) return tooManyPage(reply, lang, error.retryAfterSeconds);
        throw error;
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
}
