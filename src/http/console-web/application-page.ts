import type { FastifyRequest } from 'fastify';
import { APPLICATION_STAGES, NOTE_MAX_CHARS } from '../../contract/pipeline.ts';
import { can } from '../../domain/console-users/rights.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import type { NoteView } from '../../domain/intake/pipeline-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import { sendPdf } from '../console/intake/pipeline-routes.ts';
import { renderVirtualCv } from '../pages/virtual-cv-view.ts';
import type { App } from '../types.ts';
import { csrfField, renderConsole, when } from './layout.ts';
import { CV_LABELS, isStage, STAGE_LABELS, sourceWithCampaign } from './pipeline-words.ts';
import { actorOf, getPage, page, postAction, type WebDeps } from './web.ts';

type Json = Record<string, unknown>;
type Detail = Awaited<ReturnType<WebDeps['services']['pipeline']['get']>>;

/** The virtual CV's headings in the console (English), also the Matches' CV page's. */
export const CV_WORDS = {
  experience: 'Experience',
  education: 'Education',
  skills: 'Skills',
  languages: 'Languages',
  present: 'present',
  contact: 'Contact details',
  email: 'Email',
  phone: 'Phone',
  location: 'Location',
  links: 'Links',
  empty: 'No virtual CV yet: it is built from the PDF shortly after the application arrives.',
} as unknown as Parameters<typeof renderVirtualCv>[1];

const text = (value: unknown): string => (value === null || value === undefined ? '—' : String(value));

function place(location: unknown): string {
  if (location && typeof location === 'object')
    return (
      Object.values(location as Json)
        .filter(Boolean)
        .join(', ') || '—'
    );
  return text(location);
}

function stageForm(session: ConsoleSession, a: Detail): SafeHtml {
  const options = APPLICATION_STAGES.map(
    (s) => html`<option value="${s}"${s === a.stage && html` selected`}>${STAGE_LABELS[s]}</option>`,
  );
  return html`<form method="post" action="/console/applications/${a.applicationId}/stage" class="stage-move">${csrfField(session)}<label for="stage">Move to stage</label> <select id="stage" name="stage">${options}</select> <button type="submit">Move</button></form>`;
}

function facts(a: Detail, jobTitle: string): SafeHtml {
  const cv = a.cvFile
    ? html`<a href="/console/applications/${a.applicationId}/cv.pdf" download>Download the CV (PDF)</a>`
    : html`<span class="muted">The CV file is no longer held.</span>`;
  return html`<dl class="facts"><dt>Job</dt><dd><a href="/console/jobs/${a.jobId}/applications">${jobTitle}</a></dd>
<dt>Email</dt><dd>${text(a.email)}</dd><dt>Phone</dt><dd>${text(a.phone)}</dd><dt>Location</dt><dd>${place(a.location)}</dd>
<dt>Applied</dt><dd>${when(a.createdAt)}</dd><dt>Came from</dt><dd>${sourceWithCampaign(a.source, a.sourceDetail)}</dd>
<dt>Stage</dt><dd>${STAGE_LABELS[a.stage]}${a.stageChangedAt && html` <span class="muted">(since ${when(a.stageChangedAt)})</span>`}</dd>
<dt>CV</dt><dd>${CV_LABELS[a.cvStatus] ?? a.cvStatus} · ${cv}</dd>${a.status === 'withdrawn' && html`<dt>Status</dt><dd>Withdrawn</dd>`}</dl>`;
}

function answersOf(a: Detail): SafeHtml {
  const list = (Array.isArray(a.answers) ? a.answers : []) as { question?: unknown; answer?: unknown }[];
  if (list.length === 0) return html`<p class="muted">No questions answered.</p>`;
  const shown = (value: unknown) => (Array.isArray(value) ? value.join(', ') : text(value));
  return html`<dl class="qa">${list.map((qa) => html`<dt>${text(qa.question)}</dt><dd>${shown(qa.answer)}</dd>`)}</dl>`;
}

function notesOf(session: ConsoleSession, a: Detail): SafeHtml {
  const item = (n: NoteView) =>
    html`<li><p class="note">${n.text}</p><p class="muted small">${n.author.email ?? 'The operator'} · ${when(n.createdAt)}</p></li>`;
  const list =
    a.notes.length > 0
      ? html`<ol class="notes">${a.notes.map(item)}</ol>`
      : html`<p class="muted">No notes yet.</p>`;
  return html`${list}<form method="post" action="/console/applications/${a.applicationId}/notes">${csrfField(session)}<label for="note">Add a note</label>
<p class="hint" id="note-hint">Seen by everyone on the account who can open applications; up to ${NOTE_MAX_CHARS.toLocaleString('en')} characters.</p>
<textarea id="note" name="text" rows="4" maxlength="${NOTE_MAX_CHARS}" required aria-describedby="note-hint"></textarea><p><button type="submit">Add note</button></p></form>`;
}

function receiptOf(a: Detail): SafeHtml {
  const consent = (a.consent ?? {}) as Json;
  return html`<dl class="facts"><dt>Consent text</dt><dd>${text(consent.consentTextId ?? a.consentText.consentTextId)}, version ${text(consent.version ?? a.consentText.version)} (${text(consent.locale ?? a.consentText.locale)})</dd>
<dt>Accepted at</dt><dd>${typeof consent.acceptedAt === 'string' ? when(consent.acceptedAt) : '—'}</dd><dt>IP address</dt><dd>${text(consent.ip)}</dd><dt>Browser</dt><dd>${text(consent.userAgent)}</dd></dl>
<p>The words the candidate agreed to:</p><blockquote class="consent">${text(a.consentText.text)}</blockquote>`;
}

const STYLE = html`<style>.grid2{display:grid;gap:0 1.5rem}@media (min-width:60rem){.grid2{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}}
ol.notes{list-style:none;padding:0;margin:0 0 1rem}ol.notes li{border-left:3px solid #99a;padding:.25rem .75rem;margin:.5rem 0;background:#fafafa}p.note{white-space:pre-wrap;margin:0 0 .25rem;overflow-wrap:anywhere}
textarea{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #767676;border-radius:4px}.small{font-size:.9rem}dl.qa dt{font-weight:600;margin-top:.5rem}dl.qa dd{margin:0 0 .25rem}
form.stage-move{margin:1rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}form.stage-move label{font-weight:600}</style>`;

async function detailPage(deps: WebDeps, request: FastifyRequest, session: ConsoleSession) {
  const { applicationId } = request.params as { applicationId: string };
  const a = await deps.services.pipeline.get(session.accountId, applicationId);
  const job = (await deps.services.jobs.listForConsole(session.accountId)).find((j) => j.id === a.jobId);
  const document = await deps.services.cv.virtualCvFor(session.accountId, 'application', a.applicationId);
  const invite =
    job?.managed &&
    can(session.role, 'screening') &&
    html`<p><a href="/console/screening?job=${a.jobId}&amp;candidate=${a.applicationId}">Invite to screening</a></p>`;
  const cv =
    a.cvStatus === 'deleted'
      ? html`<p class="muted">The candidate deleted the CV.</p>`
      : renderVirtualCv(document as Json | null, CV_WORDS, 'en', { level: 3, name: false });
  const section = (id: string, title: string, content: SafeHtml) =>
    html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}</section>`;
  const details = html`${facts(a, job?.title ?? 'Job')}${stageForm(session, a)}${invite}`;
  const cover = a.coverNote ? html`<p class="note">${a.coverNote}</p>` : html`<p class="muted">None.</p>`;
  // On a phone the first column comes first: what a recruiter acts on (stage, notes) before the CV.
  const body = html`${STYLE}<p><a href="/console/jobs/${a.jobId}/applications">Back to the applications</a></p>
<div class="grid2"><div>${section('h-details', 'Details', details)}${section('h-notes', 'Notes', notesOf(session, a))}${section('h-cover', 'Cover note', cover)}${section('h-answers', 'Answers', answersOf(a))}</div>
<div>${section('h-cv', 'Virtual CV', cv)}${section('h-receipt', 'Consent receipt', receiptOf(a))}</div></div>`;
  return { title: a.name ?? 'Erased candidate', body };
}

const applicationOf = (request: FastifyRequest) =>
  `/console/applications/${(request.params as { applicationId: string }).applicationId}`;

/** One application on its own page: details, answers, receipt, virtual CV, notes, stage, the PDF. */
export function registerApplicationPage(app: App, deps: WebDeps): void {
  const { pipeline } = deps.services;
  getPage(
    app,
    deps,
    '/console/applications/:applicationId',
    'jobs',
    async ({ request, reply, session, flash }) => {
      const { title, body } = await detailPage(deps, request, session);
      return renderConsole(reply, session, { title, active: 'jobs', flash, body });
    },
  );
  app.get(
    '/console/applications/:applicationId/cv.pdf',
    { schema: { hide: true }, config: { right: 'jobs' } },
    page(deps, async ({ request, reply, session }) => {
      const { applicationId } = request.params as { applicationId: string };
      return sendPdf(reply, await pipeline.cvFile(session.accountId, applicationId, actorOf(session)));
    }),
  );
  postAction(
    app,
    deps,
    '/console/applications/:applicationId/stage',
    'jobs',
    applicationOf,
    async ({ request, session, form }) => {
      const { applicationId } = request.params as { applicationId: string };
      const stage = form.get('stage');
      await pipeline.moveStage(session.accountId, applicationId, stage, actorOf(session));
      return {
        to: applicationOf(request),
        flash: `Moved to ${isStage(stage) ? STAGE_LABELS[stage] : stage}.`,
      };
    },
  );
  postAction(
    app,
    deps,
    '/console/applications/:applicationId/notes',
    'jobs',
    applicationOf,
    async ({ request, session, form }) => {
      const { applicationId } = request.params as { applicationId: string };
      await pipeline.addNote(session.accountId, applicationId, form.get('text'), actorOf(session));
      return { to: `${applicationOf(request)}#h-notes`, flash: 'Note added.' };
    },
  );
}
