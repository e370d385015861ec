import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INTAKE_MAX } from '../../../contract/intake.ts';
import type { AuthoredJob } from '../../../contract/job.ts';
import type { Question } from '../../../contract/questions.ts';
import { AppError } from '../../../domain/errors.ts';
import type { HostedSubmission } from '../../../domain/intake/hosted-apply.ts';
import { addressBucket } from '../../../lib/client-address.ts';
import { EMAIL_MAX_LENGTH, isEmailAddress } from '../../../lib/email.ts';
import { rejectionMessage } from '../../../pdf/cv-check.ts';
import type { App } from '../../types.ts';
import { type EmbedMode, readEmbed } from '../embed-mode.ts';
import { PAGE_WORDS, type PageLang, type PageWords } from '../i18n.ts';
import { type ApplyDeps, addressLimited, formPage, formTokenValid } from './apply-context.ts';
import { APPLY_WORDS } from './apply-words.ts';
import { passChallenge } from './challenge.ts';
import {
  closedPage,
  FIELDS,
  type Field,
  type FormState,
  langOf,
  sentPage,
  type TextField,
  tooManyPage,
  type Values,
} from './form-view.ts';
import {
  problemText,
  type QuestionState,
  readKeptFiles,
  readQuestionValues,
  readUtm,
  typedAnswers,
  UTM_PARAMS,
} from './question-fields.ts';
import { type FormFile, readForm } from './read-form.ts';
import { ApplyParams } from './show-form.ts';

const LIMITS: Record<TextField, number> = {
  name: INTAKE_MAX.name,
  email: EMAIL_MAX_LENGTH,
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
  else if (!errors.email && !isEmailAddress(values.email.trim())) errors.email = w.invalidEmail;
  return errors;
}

function hostedSource(via: unknown): 'integrator_site' | 'job_page' {
  return via === 'job_page' ? 'job_page' : 'integrator_site';
}

type Source = ReturnType<typeof hostedSource>;
type Kept = { uploadId: string; name: string };
type Request = FastifyRequest;

/** A form let through to its body: the open role, its account, the client's address bucket. */
interface Admitted {
  job: AuthoredJob;
  accountId: string;
  bucket: string;
  /** Inside the careers embed (the form's action says so), and who may frame its answers. */
  embed: EmbedMode | null;
  frameOrigins: readonly string[];
}

/**
 * POST /apply/{jobId}: the form, with its file or the uploadId the script sent it to. Everything
 * that can refuse without the body does so before a byte of it is read (`admit`); then the form
 * is read and checked (`readSubmission`), and sent to the intake service (`send`), whose refusals
 * come back as the form with the field named (`answerRefusal`).
 */
export function submitApplyForm(app: App, deps: ApplyDeps): void {
  app.post('/apply/:jobId', { schema: { hide: true, params: ApplyParams } }, async (request, reply) => {
    const admitted = await admit(deps, request, reply);
    if (!('job' in admitted)) return admitted;
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'apply-'));
    try {
      const form = await readSubmission(deps, request, admitted, dir);
      const again = (state: FormState, status: number, kept?: Kept) =>
        formPage(deps, reply, {
          job: admitted.job,
          lang: form.lang,
          // The questions' values and kept files come back with every answer of the form.
          state: { questions: form.questions, ...state },
          status,
          source: form.source,
          embed: admitted.embed,
          frameOrigins: admitted.frameOrigins,
          ...(kept ? { kept } : {}),
        });
      const framed = { embed: admitted.embed, frameOrigins: admitted.frameOrigins };
      // A filled honeypot is a bot: it is thanked and nothing is stored.
      if (form.honeypot)
        return sentPage(
          reply,
          form.lang,
          admitted.job,
          form.values.email?.trim().slice(0, 254) ?? '',
          framed,
        );
      if (Object.keys(form.errors).length > 0 || !form.uploadId)
        return again({ values: form.values, errors: form.errors }, 400, form.kept);
      try {
        await deps.services.hostedApply.submit(admitted.accountId, admitted.job.id, {
          ...form.values,
          name: form.values.name ?? '',
          email: form.values.email ?? '',
          locale: form.lang,
          clientAddress: request.ip,
          socketAddress: request.socket.remoteAddress ?? 'unknown',
          userAgent: String(request.headers['user-agent'] ?? 'unknown'),
          source: form.source,
          uploadId: form.uploadId,
          answers: form.answers,
          ...(form.sourceDetail ? { sourceDetail: form.sourceDetail } : {}),
        });
        // A repeated application gets the very same page: nobody learns whether a person applied.
        return sentPage(reply, form.lang, admitted.job, form.values.email!.trim(), framed);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return answerRefusal(error, reply, form, admitted.job, again);
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
}

/**
 * The checks that need no body, in order: the role is open, the address's rate, the CSRF token
 * (query or header, with the cookie), the challenge after a burst, and room for one more file
 * from this address. A refusal answers at once and closes the connection unread.
 */
async function admit(
  deps: ApplyDeps,
  request: Request,
  reply: FastifyReply,
): Promise<Admitted | FastifyReply> {
  const { publicJobs, hostedApply, cvLimits } = deps.services;
  const query = request.query as { csrf?: unknown; pow?: unknown; via?: unknown };
  const token = query.csrf ?? request.headers['x-apply-csrf'];
  const lang = langOf(request);
  const refuse = () => {
    // The body is never read: the connection closes instead of draining it.
    if (request.isMultipart()) reply.header('connection', 'close');
    return reply;
  };
  const target = await publicJobs.applyTarget((request.params as { jobId: string }).jobId);
  if (target.kind !== 'open') return closedPage(refuse(), lang, target.kind === 'closed' ? target.job : null);
  const job = target.job;
  const retry = await addressLimited(deps, request);
  if (retry !== null) return tooManyPage(refuse(), lang, retry);
  const embed = readEmbed(request);
  const frameOrigins = target.account.embed_origins;
  const tokenOk =
    typeof token === 'string' &&
    (await formTokenValid(deps, request, job.id, token)) &&
    (await passChallenge(deps, request, job.id, token, query.pow));
  if (!tokenOk) {
    refuse();
    const state = { values: {}, errors: { form: PAGE_WORDS[lang].expiredForm } };
    return formPage(deps, reply, {
      job,
      lang,
      state,
      status: 403,
      source: hostedSource(query.via),
      embed,
      frameOrigins,
    });
  }
  const bucket = addressBucket(request.ip);
  if (request.isMultipart()) {
    // Room for the largest file the body can carry: its declared length, else the CV limit.
    const declared = Number(request.headers['content-length']);
    const largest = Number.isSafeInteger(declared) && declared > 0 ? declared : cvLimits.maxBytes;
    try {
      await hostedApply.ensureRoom(target.account.id, bucket, Math.min(largest, cvLimits.maxBytes));
    } catch (error) {
      if (error instanceof AppError && error.status === 429)
        return tooManyPage(refuse(), lang, error.retryAfterSeconds);
      throw error;
    }
  }
  return { job, accountId: target.account.id, bucket, embed, frameOrigins };
}

interface Submission {
  lang: PageLang;
  source: Source;
  values: Values;
  honeypot: boolean;
  errors: FormState['errors'];
  /** The upload to apply with: the form's file, kept first, or the one the script sent. */
  uploadId: string | null;
  kept?: Kept;
  /** The job's questions as the form answered them, and those answers typed (question-fields.ts). */
  questions: QuestionState;
  answers: ReturnType<typeof typedAnswers>;
  sourceDetail?: HostedSubmission['sourceDetail'];
}

/** Reads the form (multipart with its file, or urlencoded), keeps its file, and checks its fields. */
async function readSubmission(
  deps: ApplyDeps,
  request: Request,
  admitted: Admitted,
  dir: string,
): Promise<Submission> {
  const { hostedApply, cvLimits } = deps.services;
  const query = request.query as { via?: unknown };
  const { fields, file, answerFiles } = await readForm(request, dir);
  const lang = langOf(request, fields.has('lang') ? fields.get('lang') : undefined);
  // The embed's form is the hosted page's own, reached from the hosted careers and job pages.
  const source = admitted.embed
    ? 'job_page'
    : hostedSource(fields.has('via') ? fields.get('via') : query.via);
  const w = PAGE_WORDS[lang];
  const values: Values = Object.fromEntries(FIELDS.map((id) => [id, fields.get(id)])) as Values;
  const asked = admitted.job.questions ?? [];
  const questions: QuestionState = {
    values: readQuestionValues(asked, fields),
    kept: readKeptFiles(asked, fields),
    errors: {},
    utm: readUtm((name) => fields.get(name)),
  };
  if (fields.get('website'))
    return { lang, source, values, honeypot: true, errors: {}, uploadId: null, questions, answers: [] };
  const errors = checkValues(values, w);
  await keepAnswerFiles(deps, admitted, asked, answerFiles, questions, lang);
  let kept: Kept | undefined;
  let uploadId = fields.get('uploadId') || null;
  if (file?.truncated) {
    const words = rejectionMessage('too_large', lang, cvLimits);
    errors.cv = `${words.detail} ${words.fix}`;
  } else if (file) {
    // Kept before anything else is checked: answered again, the form names it.
    uploadId = await hostedApply.keepFile(admitted.accountId, admitted.bucket, file);
    kept = { uploadId, name: file.name };
  } else if (!uploadId) errors.cv = w.required_;
  if (uploadId && !kept) {
    // The script sent the file to its slot and the name with the form (shown back, escaped).
    const name = fields.get('cvName').slice(0, INTAKE_MAX.fileName);
    kept = { uploadId, name: name || APPLY_WORDS[lang].earlierFile };
  }
  if (Object.keys(questions.errors).length > 0) errors.form = w.fixErrors;
  const answers = typedAnswers(asked, questions.values, questions.kept);
  const utm = Object.entries(questions.utm).map(([name, value]) => [
    UTM_PARAMS[name as keyof typeof UTM_PARAMS],
    value,
  ]);
  // The route is the channel; the landing's utm_* beside it (stored as sent, §5 Source).
  // Inside the careers embed the channel is `embed` (extensions.md §9); the form is the hosted page's.
  const channel = admitted.embed ? 'embed' : source;
  const sourceDetail =
    utm.length > 0 || channel !== 'integrator_site' ? { channel, ...Object.fromEntries(utm) } : undefined;
  return {
    lang,
    source,
    values,
    honeypot: false,
    errors,
    uploadId,
    ...(kept ? { kept } : {}),
    questions,
    answers,
    ...(sourceDetail ? { sourceDetail } : {}),
  };
}

/** The file questions' files, kept as hosted uploads like the CV (a too large one is named). */
async function keepAnswerFiles(
  deps: ApplyDeps,
  admitted: Admitted,
  asked: readonly Question[],
  files: Map<string, FormFile>,
  questions: QuestionState,
  lang: PageLang,
): Promise<void> {
  for (const q of asked) {
    const file = files.get(q.id);
    if (q.type !== 'file' || !file) continue;
    if (file.truncated) {
      questions.errors[q.id] = problemText(lang, 'upload_invalid');
      continue;
    }
    const uploadId = await deps.services.hostedApply.keepFile(admitted.accountId, admitted.bucket, file);
    questions.kept[q.id] = { uploadId, name: file.name };
  }
}

/** The intake service's refusal as a page: the form again with the field named, or a page of its own. */
function answerRefusal(
  error: AppError,
  reply: FastifyReply,
  form: Submission,
  job: AuthoredJob,
  again: (state: FormState, status: number, kept?: Kept) => unknown,
) {
  const { lang, values, kept } = form;
  const w = PAGE_WORDS[lang];
  const extra = error.extra as { detail?: string; fix?: string; field?: unknown };
  if (error.code === 'job_not_open') return closedPage(reply, lang, job);
  if (error.code === 'answers_invalid') {
    // Every refused answer named at its question; a refused file is not kept.
    const questions: QuestionState = { ...form.questions, errors: {}, kept: { ...form.questions.kept } };
    for (const { questionId, problem } of (error as AppError<'answers_invalid'>).extra.fields) {
      questions.errors[questionId] ??= problemText(lang, problem);
      if (problem === 'upload_invalid') delete questions.kept[questionId];
    }
    return again({ values, errors: { form: w.fixErrors }, questions }, 422, kept);
  }
  // The file was refused and erased: it is not kept.
  if (error.code === 'cv_rejected')
    return again({ values, errors: { cv: `${extra.detail} ${extra.fix}` } }, 422);
  if (error.code === 'upload_invalid') return again({ values, errors: { cv: w.required_ } }, 400);
  if (error.code === 'bad_request' && typeof extra.field === 'string') {
    const key = (FIELDS as readonly string[]).includes(extra.field) ? (extra.field as Field) : 'form';
    return again({ values, errors: { [key]: key === 'email' ? w.invalidEmail : w.tooLong } }, 400, kept);
  }
  if (error.status === 429) return tooManyPage(reply, lang, error.retryAfterSeconds);
  // The service's own trouble (the CV checker unavailable): the form again, the file kept.
  if (error.status === 503) {
    if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
    return again({ values, errors: { form: APPLY_WORDS[lang].tryAgain } }, 503, kept);
  }
  throw error;
}
