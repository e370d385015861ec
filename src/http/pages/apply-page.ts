import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type ApplicationWrite, INTAKE_MAX } from '../../contract/intake.ts';
import type { AuthoredJob } from '../../contract/job.ts';
import { currentConsentText } from '../../domain/consent/consent-texts.ts';
import { AppError } from '../../domain/errors.ts';
import type { ApplicationSource } from '../../domain/intake/application-service.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import { rejectionMessage } from '../../pdf/cv-check.ts';
import type { RateLimitStore } from '../../rate-limit/store.ts';
import type { App } from '../types.ts';
import type { Services } from '../../deps.ts';
import { PAGE_WORDS, type PageLang, type PageWords, pageLang, preferredLang } from './i18n.ts';
import { siteHeader } from './job-page.ts';
import { sendPage } from './page-shell.ts';

/** Submissions per client address per minute; the form is a public endpoint. */
export const APPLY_POSTS_PER_MINUTE = 10;
const COOKIE = 'apply_csrf';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const FIELDS = ['name', 'email', 'phone', 'location', 'coverNote'] as const;
type Field = (typeof FIELDS)[number] | 'cv' | 'form';
type Values = Partial<Record<(typeof FIELDS)[number], string>>;

interface FormState {
  values: Values;
  errors: Partial<Record<Field, string>>;
}

const Params = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 64 }) });

function cookieNonce(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? '';
  return /(?:^|;\s*)apply_csrf=([A-Za-z0-9_-]{10,64})/.exec(header)?.[1];
}

function langOf(request: FastifyRequest, fromForm?: unknown): PageLang {
  return (
    pageLang(fromForm) ??
    pageLang((request.query as { lang?: unknown }).lang) ??
    preferredLang(request.headers['accept-language'])
  );
}

function field(
  id: (typeof FIELDS)[number],
  label: string,
  state: FormState,
  w: PageWords,
  options: { type?: string; required?: boolean; max: number; autocomplete?: string; area?: boolean },
) {
  const error = state.errors[id];
  const value = state.values[id] ?? '';
  const describedBy = error ? ` aria-describedby="${id}-error" aria-invalid="true"` : '';
  const required = options.required ? ' required' : '';
  const control = options.area
    ? `<textarea id="${id}" name="${id}" rows="6" maxlength="${options.max}"${required}${describedBy}>${e(value)}</textarea>`
    : `<input id="${id}" name="${id}" type="${options.type ?? 'text'}" maxlength="${options.max}" value="${e(value)}"${options.autocomplete ? ` autocomplete="${options.autocomplete}"` : ''}${required}${describedBy}>`;
  return `<label for="${id}">${e(label)}${options.required ? '' : ` <span class="hint">(${e(w.optional)})</span>`}</label>${error ? `<p class="error" id="${id}-error">${e(error)}</p>` : ''}${control}`;
}

function renderForm(
  job: AuthoredJob,
  lang: PageLang,
  token: string,
  state: FormState,
  maxBytes: number,
  source: ApplicationSource,
): string {
  const w = PAGE_WORDS[lang];
  const consent = currentConsentText(lang);
  const cvError = state.errors.cv;
  const mb = Math.floor(maxBytes / 1_048_576);
  return [
    siteHeader(lang, w, (l) => `/apply/${job.id}?lang=${l}`),
    `<h1>${e(w.applyFor(job.title, job.company.name))}</h1>`,
    state.errors.form ? `<p class="alert" role="alert">${e(state.errors.form)}</p>` : '',
    Object.keys(state.errors).length > 0 && !state.errors.form
      ? `<p class="alert" role="alert">${e(w.fixErrors)}</p>`
      : '',
    `<form method="post" action="/apply/${e(job.id)}" enctype="multipart/form-data" id="apply-form" data-max-bytes="${maxBytes}" novalidate>`,
    `<input type="hidden" name="csrf" value="${e(token)}"><input type="hidden" name="lang" value="${lang}"><input type="hidden" name="via" value="${source === 'job_page' ? 'job_page' : ''}"><input type="hidden" name="uploadId" value="">`,
    field('name', w.name, state, w, { required: true, max: INTAKE_MAX.name, autocomplete: 'name' }),
    field('email', w.email, state, w, { type: 'email', required: true, max: 254, autocomplete: 'email' }),
    field('phone', w.phone, state, w, { type: 'tel', max: INTAKE_MAX.phone, autocomplete: 'tel' }),
    field('location', w.cityRegion, state, w, { max: INTAKE_MAX.location, autocomplete: 'address-level2' }),
    `<label for="cv">${e(w.cv)}</label><p class="hint" id="cv-hint">${e(w.cvHint(mb))}</p>${cvError ? `<p class="error" id="cv-error">${e(cvError)}</p>` : ''}`,
    `<input id="cv" name="cv" type="file" accept="application/pdf,.pdf" required aria-describedby="cv-hint${cvError ? ' cv-error' : ''}"${cvError ? ' aria-invalid="true"' : ''}>`,
    field('coverNote', w.coverNote, state, w, { max: INTAKE_MAX.coverNote, area: true }),
    `<div class="hp" aria-hidden="true"><label for="website">${e(w.honeypot)}</label><input id="website" name="website" type="text" tabindex="-1" autocomplete="off"></div>`,
    `<section class="consent" aria-labelledby="consent-heading"><h2 id="consent-heading">${e(w.consentHeading)}</h2><p lang="${lang}">${e(consent.text)}</p></section>`,
    `<p><button type="submit">${e(w.submit)}</button></p><p class="hint" id="apply-status" role="status" aria-live="polite"></p>`,
    '</form>',
  ].join('');
}

function closedPage(reply: FastifyReply, lang: PageLang, job: AuthoredJob | null) {
  const w = PAGE_WORDS[lang];
  if (!job)
    return sendPage(reply, 404, lang, w.notFound, `<h1>${e(w.notFound)}</h1><p>${e(w.notFoundBody)}</p>`);
  return sendPage(
    reply,
    410,
    lang,
    w.closedTitle,
    `<h1>${e(job.title)}</h1><div class="alert" role="status"><h2>${e(w.closedTitle)}</h2><p>${e(w.closedBody)}</p></div>`,
  );
}

/** Reads the multipart form, streaming the CV to a temporary file under the size limit. */
async function readForm(
  request: FastifyRequest,
  dir: string,
): Promise<{
  fields: Record<string, string>;
  file: { path: string; bytes: number; name: string; truncated: boolean } | null;
}> {
  const fields: Record<string, string> = {};
  let file: { path: string; bytes: number; name: string; truncated: boolean } | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'cv' || file !== null || part.filename === '') {
        part.file.resume();
        continue;
      }
      const target = path.join(dir, 'cv.pdf');
      await pipeline(part.file, fs.createWriteStream(target, { mode: 0o600 }));
      const { size } = await fsp.stat(target);
      file = {
        path: target,
        bytes: size,
        name: part.filename.slice(0, INTAKE_MAX.fileName),
        truncated: part.file.truncated,
      };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file };
}

function check(values: Values, w: PageWords): FormState['errors'] {
  const errors: FormState['errors'] = {};
  if (!values.name?.trim()) errors.name = w.required_;
  if (!values.email?.trim()) errors.email = w.required_;
  else if (!EMAIL.test(values.email.trim()) || values.email.length > 254) errors.email = w.invalidEmail;
  const limits: Record<(typeof FIELDS)[number], number> = {
    name: INTAKE_MAX.name,
    email: 254,
    phone: INTAKE_MAX.phone,
    location: INTAKE_MAX.location,
    coverNote: INTAKE_MAX.coverNote,
  };
  for (const id of FIELDS) if ((values[id]?.length ?? 0) > limits[id] && !errors[id]) errors[id] = w.tooLong;
  return errors;
}

/**
 * The hosted apply page at `applyLink`: a form that works without JavaScript (multipart POST with
 * the PDF) and, with it, sends the CV through the same presigned upload as the API. Submitting
 * runs the API's application path, with a consent receipt the service records itself.
 */
export function registerApplyPages(
  app: App,
  services: Services,
  deps: { rateLimits: RateLimitStore; clock: Clock; secureCookies: boolean },
) {
  const { publicJobs, formTokens, applications, uploads } = services;
  const maxBytes = services.cvLimits.maxBytes;

  async function limited(request: FastifyRequest): Promise<number | null> {
    const nowMs = deps.clock.now().getTime();
    const { count, resetAtMs } = await deps.rateLimits.hit(`apply-ip:${request.ip}`, 60_000, nowMs);
    return count > APPLY_POSTS_PER_MINUTE ? Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) : null;
  }

  async function formPage(
    reply: FastifyReply,
    job: AuthoredJob,
    lang: PageLang,
    state: FormState,
    status: number,
    source: ApplicationSource,
  ) {
    const { token, nonce } = await formTokens.mint(job.id);
    reply.header(
      'set-cookie',
      `${COOKIE}=${nonce}; Path=/apply; HttpOnly; SameSite=Strict; Max-Age=7200${deps.secureCookies ? '; Secure' : ''}`,
    );
    return sendPage(
      reply,
      status,
      lang,
      PAGE_WORDS[lang].applyFor(job.title, job.company.name),
      renderForm(job, lang, token, state, maxBytes, source),
      {
        head: '<script src="/assets/apply.js" defer></script>',
      },
    );
  }

  app.register(async (plugin) => {
    const pages = plugin.withTypeProvider<TypeBoxTypeProvider>();
    await pages.register(multipart, {
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 20_000, parts: 30 },
    });
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64_000 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    pages.get('/apply/:jobId', { schema: { hide: true, params: Params } }, async (request, reply) => {
      const lang = langOf(request);
      const target = await publicJobs.applyTarget(request.params.jobId);
      if (target.kind !== 'open')
        return closedPage(reply, lang, target.kind === 'closed' ? target.job : null);
      const via = (request.query as { via?: unknown }).via === 'job_page' ? 'job_page' : 'integrator_site';
      return formPage(reply, target.job, lang, { values: {}, errors: {} }, 200, via);
    });

    // The enhanced form asks for a presigned upload slot, like an integrator would.
    pages.post(
      '/apply/:jobId/upload',
      {
        schema: {
          hide: true,
          params: Params,
          body: Type.Object(
            { bytes: Type.Integer({ minimum: 1, maximum: maxBytes }), csrf: Type.String({ maxLength: 200 }) },
            { additionalProperties: false },
          ),
        },
      },
      async (request, reply) => {
        const retry = await limited(request);
        if (retry !== null)
          throw new AppError(
            'rate_limited',
            'Too many attempts from this address; retry in a minute.',
            {},
            retry,
          );
        if (!(await formTokens.verify(request.params.jobId, request.body.csrf, cookieNonce(request)))) {
          throw new AppError('forbidden', 'The form expired; reload the page.');
        }
        const target = await publicJobs.applyTarget(request.params.jobId);
        if (target.kind !== 'open') throw new AppError('not_found', 'This role does not take applications.');
        const slot = await uploads.create(target.account.id, { bytes: request.body.bytes });
        return reply.code(201).send({ uploadId: slot.uploadId, uploadUrl: slot.uploadUrl });
      },
    );

    pages.post('/apply/:jobId', { schema: { hide: true, params: Params } }, async (request, reply) => {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'apply-'));
      try {
        const multipartForm = request.isMultipart();
        const { fields, file } = multipartForm
          ? await readForm(request, dir)
          : { fields: (request.body ?? {}) as Record<string, string>, file: null };
        const lang = langOf(request, fields.lang);
        const w = PAGE_WORDS[lang];
        const source: ApplicationSource = fields.via === 'job_page' ? 'job_page' : 'integrator_site';
        const target = await publicJobs.applyTarget(request.params.jobId);
        if (target.kind !== 'open')
          return closedPage(reply, lang, target.kind === 'closed' ? target.job : null);
        const retry = await limited(request);
        if (retry !== null) {
          reply.header('retry-after', String(retry));
          return sendPage(reply, 429, lang, w.tooMany, `<h1>${e(w.tooMany)}</h1>`);
        }
        const values: Values = Object.fromEntries(
          FIELDS.map((id) => [id, typeof fields[id] === 'string' ? fields[id] : '']),
        ) as Values;
        if (!(await formTokens.verify(target.job.id, fields.csrf, cookieNonce(request)))) {
          return formPage(reply, target.job, lang, { values, errors: { form: w.expiredForm } }, 403, source);
        }
        // A filled honeypot is a bot: it is thanked and nothing is stored.
        if (fields.website) return sendPage(reply, 200, lang, w.thanksTitle, `<h1>${e(w.thanksTitle)}</h1>`);
        const errors = check(values, w);
        const uploadId =
          typeof fields.uploadId === 'string' && fields.uploadId !== '' ? fields.uploadId : null;
        if (file?.truncated) {
          errors.cv = `${rejectionMessage('too_large', lang, services.cvLimits).detail} ${rejectionMessage('too_large', lang, services.cvLimits).fix}`;
        } else if (!file && !uploadId) errors.cv = w.required_;
        if (Object.keys(errors).length > 0)
          return formPage(reply, target.job, lang, { values, errors }, 400, source);

        const accountId = target.account.id;
        const cvUpload =
          uploadId ?? (await uploads.createFromFile(accountId, file!.path, file!.bytes, file!.name));
        try {
          const result = await applications.apply(
            accountId,
            target.job.id,
            {
              name: values.name!.trim(),
              email: values.email!.trim(),
              ...(values.phone?.trim() ? { phone: values.phone.trim() } : {}),
              ...(values.location?.trim() ? { location: values.location.trim() } : {}),
              ...(values.coverNote?.trim() ? { coverNote: values.coverNote.trim() } : {}),
              cv: { uploadId: cvUpload },
              consent: {
                consentTextId: currentConsentText(lang).consentTextId,
                version: currentConsentText(lang).version,
                locale: lang,
                acceptedAt: deps.clock.now().toISOString(),
                ip: request.ip,
                userAgent:
                  String(request.headers['user-agent'] ?? 'unknown').slice(0, INTAKE_MAX.userAgent) ||
                  'unknown',
              },
              lawfulBasis: {
                attested: true,
                basis: 'candidate_consent_on_hosted_apply_page',
              } as ApplicationWrite['lawfulBasis'],
            },
            source,
          );
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
          if (error.code === 'job_not_open') return closedPage(reply, lang, target.job);
          if (error.code === 'cv_rejected') {
            return formPage(
              reply,
              target.job,
              lang,
              { values, errors: { cv: `${error.extra.detail} ${error.extra.fix}` } },
              422,
              source,
            );
          }
          if (error.code === 'upload_invalid')
            return formPage(reply, target.job, lang, { values, errors: { cv: w.required_ } }, 400, source);
          if (error.code === 'bad_request' && typeof error.extra.field === 'string') {
            const key = (FIELDS as readonly string[]).includes(error.extra.field)
              ? (error.extra.field as Field)
              : 'form';
            return formPage(
              reply,
              target.job,
              lang,
              { values, errors: { [key]: key === 'email' ? w.invalidEmail : w.tooLong } },
              400,
              source,
            );
          }
          if (error.status === 429) {
            if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
            return sendPage(reply, 429, lang, w.tooMany, `<h1>${e(w.tooMany)}</h1>`);
          }
          throw error;
        }
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    });
  });

  app.get('/assets/apply.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(APPLY_SCRIPT),
  );
}

/**
 * The enhancement: checks the file before sending, and sends it to a presigned upload slot (as an
 * integrator's page would), then submits the form without the file. Any failure falls back to the
 * plain form post.
 */
const APPLY_SCRIPT = `(() => {
  const form = document.getElementById('apply-form');
  if (!form || !window.fetch) return;
  const status = document.getElementById('apply-status');
  const input = document.getElementById('cv');
  const max = Number(form.dataset.maxBytes);
  let sending = false;
  form.addEventListener('submit', async (event) => {
    if (sending) return;
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > max) { event.preventDefault(); input.setCustomValidity(document.getElementById('cv-hint').textContent); input.reportValidity(); input.setCustomValidity(''); return; }
    event.preventDefault();
    sending = true;
    status.textContent = '…';
    try {
      const jobId = form.action.split('/').pop();
      const slot = await fetch('/apply/' + jobId + '/upload', { method: 'POST', headers: { 'content-type': 'application/json' }, credentials: 'same-origin', body: JSON.stringify({ bytes: file.size, csrf: form.elements.csrf.value }) });
      if (!slot.ok) throw new Error('slot');
      const { uploadId, uploadUrl } = await slot.json();
      const put = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: file });
      if (!put.ok) throw new Error('put');
      form.elements.uploadId.value = uploadId;
      input.disabled = true;
    } catch (error) {
      form.elements.uploadId.value = '';
      input.disabled = false;
    }
    form.submit();
  });
})();
`;
