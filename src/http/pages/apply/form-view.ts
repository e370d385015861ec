import type { FastifyReply, FastifyRequest } from 'fastify';
import { INTAKE_MAX } from '../../../contract/intake.ts';
import type { AuthoredJob } from '../../../contract/job.ts';
import { currentConsentText } from '../../../domain/consent/consent-texts.ts';
import { notFound, rateLimited } from '../../../domain/errors.ts';
import type { ApplicationSource } from '../../../domain/intake/application-service.ts';
import { html, type SafeHtml, safeUrl } from '../../../lib/html.ts';
import { type EmbedMode, embedHead, embedQuery } from '../embed-mode.ts';
import { hostedErrorPage } from '../error-page.ts';
import { PAGE_WORDS, type PageLang, type PageWords, pageLang, preferredLang } from '../i18n.ts';
import { siteHeader } from '../job-page.ts';
import { sendPage } from '../page-shell.ts';
import { APPLY_WORDS } from './apply-words.ts';
import { emptyQuestionState, type QuestionState, questionFields } from './question-fields.ts';
import { SENDING_STYLE, sendingControls } from './sending-view.ts';

export const CSRF_COOKIE = 'apply_csrf';
export const FIELDS = ['name', 'email', 'phone', 'location', 'coverNote'] as const;
export type TextField = (typeof FIELDS)[number];
export type Field = TextField | 'cv' | 'form';
export type Values = Partial<Record<TextField, string>>;

export interface FormState {
  values: Values;
  errors: Partial<Record<Field, string>>;
  /** The job's questions' values, kept files and errors, and the landing's utm (question-fields.ts). */
  questions?: QuestionState;
}

/** The nonce of the form's SameSite cookie, if the request carries a well-formed one. */
export function cookieNonce(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? '';
  return /(?:^|;\s*)apply_csrf=([A-Za-z0-9_-]{10,64})/.exec(header)?.[1];
}

export function langOf(request: FastifyRequest, fromForm?: unknown): PageLang {
  return (
    pageLang(fromForm) ??
    pageLang((request.query as { lang?: unknown }).lang) ??
    preferredLang(request.headers['accept-language'])
  );
}

function field(
  id: TextField,
  label: string,
  state: FormState,
  w: PageWords,
  options: { type?: string; required?: boolean; max: number; autocomplete?: string; area?: boolean },
): SafeHtml {
  const error = state.errors[id];
  const value = state.values[id] ?? '';
  const describedBy = error && html` aria-describedby="${id}-error" aria-invalid="true"`;
  const required = options.required && html` required`;
  const control = options.area
    ? html`<textarea id="${id}" name="${id}" rows="6" maxlength="${options.max}"${required}${describedBy}>${value}</textarea>`
    : html`<input id="${id}" name="${id}" type="${options.type ?? 'text'}" maxlength="${options.max}" value="${value}"${options.autocomplete && html` autocomplete="${options.autocomplete}"`}${required}${describedBy}>`;
  return html`<label for="${id}">${label}${!options.required && html` <span class="hint">(${w.optional})</span>`}</label>${error && html`<p class="error" id="${id}-error">${error}</p>`}${control}`;
}

export interface FormView {
  job: AuthoredJob;
  lang: PageLang;
  token: string;
  state: FormState;
  maxBytes: number;
  source: ApplicationSource;
  /** A file received on an earlier attempt, kept for this one. */
  kept?: { uploadId: string; name: string };
  /** The proof of work's difficulty the page's script solves, 0 while calm (see challenge.ts). */
  powBits: number;
  /** Inside the careers embed: the form keeps the mode and its channel is `embed`. */
  embed?: EmbedMode | null;
}

/** The apply page's own styles (the file input, the kept file, the links after sending). */
export const APPLY_STYLE = html`<style>input[type=file]{display:block;width:100%;box-sizing:border-box;font:inherit;margin:.25rem 0;padding:.6rem;border:2px dashed #767676;border-radius:6px;background:#fff;cursor:pointer}
input[type=file]::file-selector-button{font:inherit;font-weight:600;margin-right:.75rem;padding:.45rem .9rem;border-radius:6px;border:1px solid #1b1b1f;background:#fff;color:#1b1b1f;cursor:pointer}
input[type=file]:hover{border-color:#1b1b1f}input[type=file]:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
.kept{background:#eef6ee;border:1px solid #2e7d32;padding:.5rem .75rem;border-radius:6px;margin:.25rem 0}
nav.next{display:flex;gap:.75rem 1.25rem;flex-wrap:wrap;margin:1.5rem 0}</style>${SENDING_STYLE}`;

/** The form posts its CSRF token in the query too, so a post is refused before its body is read. */
export function formAction(
  jobId: string,
  lang: PageLang,
  token: string,
  embed: EmbedMode | null = null,
): string {
  const mode = embedQuery(embed);
  return `/apply/${encodeURIComponent(jobId)}?lang=${lang}&csrf=${encodeURIComponent(token)}${mode ? `&${mode}` : ''}`;
}

export function renderForm(view: FormView): SafeHtml {
  const { job, lang, token, state, maxBytes, source, kept, powBits } = view;
  const embed = view.embed ?? null;
  const via = embed ? 'embed' : source === 'job_page' ? 'job_page' : '';
  const w = PAGE_WORDS[lang];
  const aw = APPLY_WORDS[lang];
  const consent = currentConsentText(lang);
  const cvError = state.errors.cv;
  const mb = Math.floor(maxBytes / 1_048_576);
  const keptNote = kept && html`<p class="kept" id="cv-kept">${aw.fileKept(kept.name)} ${aw.replaceFile}</p>`;
  const describedBy = ['cv-hint', kept ? 'cv-kept' : '', cvError ? 'cv-error' : ''].filter(Boolean).join(' ');
  const alert = state.errors.form
    ? state.errors.form
    : Object.keys(state.errors).length > 0
      ? w.fixErrors
      : null;
  const top = !embed && siteHeader(lang, w, (l) => `/apply/${job.id}?lang=${l}`);
  return html`${top}<h1>${w.applyFor(job.title, job.company.name)}</h1>${alert && html`<p class="alert" role="alert">${alert}</p>`}<form method="post" action="${formAction(job.id, lang, token, embed)}" enctype="multipart/form-data" id="apply-form" data-job-id="${job.id}" data-max-bytes="${maxBytes}" ${powBits > 0 && html` data-pow-bits="${powBits}"`} novalidate><input type="hidden" name="csrf" value="${token}"><input type="hidden" name="lang" value="${lang}"><input type="hidden" name="via" value="${via}"><input type="hidden" name="uploadId" value="${kept?.uploadId}"><input type="hidden" name="cvName" value="${kept?.name}">${field('name', w.name, state, w, { required: true, max: INTAKE_MAX.name, autocomplete: 'name' })}${field('email', w.email, state, w, { type: 'email', required: true, max: 254, autocomplete: 'email' })}${field('phone', w.phone, state, w, { type: 'tel', max: INTAKE_MAX.phone, autocomplete: 'tel' })}${field('location', w.cityRegion, state, w, { max: INTAKE_MAX.location, autocomplete: 'address-level2' })}<label for="cv">${w.cv}</label><p class="hint" id="cv-hint">${w.cvHint(mb)}</p>${keptNote}${cvError && html`<p class="error" id="cv-error">${cvError}</p>`}<input id="cv" name="cv" type="file" accept="application/pdf,.pdf"${!kept && html` required`} aria-describedby="${describedBy}"${cvError && html` aria-invalid="true"`}>${field('coverNote', w.coverNote, state, w, { max: INTAKE_MAX.coverNote, area: true })}${questionFields(job.questions ?? [], state.questions ?? emptyQuestionState(), lang, maxBytes)}<div class="hp" aria-hidden="true"><label for="website">${w.honeypot}</label><input id="website" name="website" type="text" tabindex="-1" autocomplete="off"></div><section class="consent" aria-labelledby="consent-heading"><h2 id="consent-heading">${w.consentHeading}</h2><p lang="${lang}">${consent.text}</p></section>${sendingControls(lang, powBits)}</form>`;
}

/** The role does not exist (404) or no longer takes applications (410). */
export function closedPage(reply: FastifyReply, lang: PageLang, job: AuthoredJob | null) {
  const w = PAGE_WORDS[lang];
  if (!job) return hostedErrorPage(reply, lang, notFound('Job'));
  return sendPage(
    reply,
    410,
    lang,
    w.closedTitle,
    html`<h1>${job.title}</h1><div class="alert" role="status"><h2>${w.closedTitle}</h2><p>${w.closedBody}</p></div>`,
  );
}

export function tooManyPage(reply: FastifyReply, lang: PageLang, retryAfterSeconds: number | undefined) {
  return hostedErrorPage(
    reply,
    lang,
    rateLimited('Too many forms from this address.', retryAfterSeconds ?? 0),
  );
}

/** After sending: the same page for a new and a repeated application, with the way back. */
export function sentPage(
  reply: FastifyReply,
  lang: PageLang,
  job: AuthoredJob,
  email: string,
  framed: { embed: EmbedMode | null; frameOrigins: readonly string[] } = { embed: null, frameOrigins: [] },
) {
  const w = PAGE_WORDS[lang];
  const aw = APPLY_WORDS[lang];
  const mode = embedQuery(framed.embed);
  const role = job.url ? new URL(job.url).pathname.replace(/^\/en\//, `/${lang}/`) : null;
  // Inside the embed the way on is the company's own list, in the same mode.
  const all = mode && role ? `${role.replace(/\/[^/]+$/, '')}?${mode}` : `/${lang}/jobs`;
  const links = html`${role && html`<a href="${safeUrl(mode ? `${role}?${mode}` : role)}">${aw.backToRole(job.title)}</a>`}<a href="${safeUrl(all)}">${aw.allJobs}</a>`;
  return sendPage(
    reply,
    201,
    lang,
    w.thanksTitle,
    html`<h1>${w.thanksTitle}</h1><p>${w.thanksBody(email)}</p><nav class="next">${links}</nav>`,
    { head: html`${APPLY_STYLE}${embedHead(framed.embed)}`, frameOrigins: framed.frameOrigins },
  );
}
