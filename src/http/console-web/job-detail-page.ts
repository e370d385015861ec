import type { FastifyReply } from 'fastify';
import { WORD_FIELDS } from '../../contract/job.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { notFound } from '../../domain/errors.ts';
import type { ConsoleJob } from '../../domain/jobs/job-service.ts';
import { html, type SafeHtml, safeUrl } from '../../lib/html.ts';
import type { App } from '../types.ts';
import {
  editBody,
  type FormView,
  intentOf,
  JOB_FORM_STYLE,
  type JobFormState,
  jobForm,
  stateOfForm,
  stateOfWords,
  viewOf,
} from './job-form.ts';
import { buttonForm, csrfField, dataTable, renderConsole, when } from './layout.ts';
import { actorOf, type Flash, getPage, postAction, type WebDeps } from './web.ts';
import { ADVISORY_WORDS, jobFieldWords, jobStatusWords, MANAGED_WORDS, STAGED_WORDS } from './words.ts';

type Words = Record<string, unknown>;

export function liveWords(job: ConsoleJob): Words {
  const words: Words = {};
  const source = job as unknown as Words;
  for (const field of WORD_FIELDS) if (source[field] !== undefined) words[field] = source[field];
  return words;
}

const show = (value: unknown): string =>
  value === undefined || value === null || (Array.isArray(value) && value.length === 0)
    ? '—'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

function difference(job: ConsoleJob): SafeHtml | null {
  if (job.stagedRevision === null) return null;
  const live = liveWords(job);
  const rows = WORD_FIELDS.filter((field) => show(job.stagedRevision![field]) !== show(live[field])).map(
    (field) => [
      { th: jobFieldWords(field) },
      html`<del>${show(live[field])}</del>`,
      html`<ins>${show(job.stagedRevision![field])}</ins>`,
    ],
  );
  return html`<section class="card diff" aria-labelledby="staged-h"><h2 id="staged-h">${STAGED_WORDS.waiting}</h2>
<p>Candidates still see the job as it is live. “${STAGED_WORDS.promote}” to show them your changes.</p>
${dataTable({ columns: ['Field', 'Live now', 'Your changes'], rows })}</section>`;
}

/** Pay-transparency advisories (issue 33), shown before Publish; they never stop it. */
function advisories(job: ConsoleJob): SafeHtml | null {
  const list = job.advisories ?? [];
  if (list.length === 0) return null;
  return html`<section class="card advisories" aria-labelledby="advisories-h"><h2 id="advisories-h">${ADVISORY_WORDS.heading}</h2><p>${ADVISORY_WORDS.intro}</p><ul>${list.map((a) => html`<li><strong>${a.message}</strong> <span class="muted">(${a.rule})</span></li>`)}</ul></section>`;
}

function actions(session: ConsoleSession, job: ConsoleJob): SafeHtml {
  const base = `/console/jobs/${job.id}`;
  const out: SafeHtml[] = [];
  if (job.status !== 'published') {
    out.push(
      html`<form method="post" action="${base}/publish">${csrfField(session)}<label for="expiry">Expiry</label><select id="expiry" name="expiryDays"><option value="">Keep the current expiry</option><option value="30">30 days</option><option value="60">60 days</option><option value="90">90 days</option><option value="none">No expiry</option></select> <button type="submit">Publish</button></form>`,
    );
  }
  if (job.pendingRevision) out.push(buttonForm(session, `${base}/promote`, STAGED_WORDS.promote));
  if (job.status === 'published') {
    out.push(
      buttonForm(
        session,
        `${base}/${job.managed ? 'unmanage' : 'manage'}`,
        job.managed ? 'Stop managing' : 'Ask us to manage it',
      ),
    );
    out.push(buttonForm(session, `${base}/close`, 'Close job', true));
  }
  return html`<div class="actions">${out}</div>`;
}

/** One job (recruiters and admins): its state, staged/live difference, edit, publish, promote, close, manage. */
export function registerJobPage(app: App, deps: WebDeps): void {
  jobPage(app, deps);
  editJob(app, deps);
  publishJob(app, deps);
  jobStep(app, deps, 'promote', 'job.promoted', STAGED_WORDS.promoted);
  jobStep(app, deps, 'close', 'job.closed', 'Job closed: it takes no more applications.');
  jobStep(app, deps, 'manage', 'job.managed', `${MANAGED_WORDS.yes}.`);
  jobStep(app, deps, 'unmanage', 'job.unmanaged', 'We no longer manage this job.');
}

async function find(deps: WebDeps, accountId: string, jobId: string): Promise<ConsoleJob> {
  const job = (await deps.services.jobs.listForConsole(accountId)).find(
    (candidate) => candidate.id === jobId,
  );
  if (!job) throw notFound('Job');
  return job;
}

const idOf = (request: { params: unknown }) => (request.params as { jobId: string }).jobId;
/** Where a job's actions go back to: the job's page. */
const back = (request: { params: unknown }) => `/console/jobs/${idOf(request)}`;

/** The job's page: its state, its actions, what is waiting to go live, and the form. */
function showJob(
  reply: FastifyReply,
  session: ConsoleSession,
  job: ConsoleJob,
  state: JobFormState,
  view: FormView | undefined,
  status: number,
  flash: Flash | null,
) {
  const page = job.url ? html`<a href="${safeUrl(job.url)}">${job.url}</a>` : 'Not published yet';
  const facts = html`<dl class="facts"><dt>Status</dt><dd id="job-status">${jobStatusWords(job.status)}</dd><dt>Managed</dt><dd>${job.managed ? MANAGED_WORDS.yes : MANAGED_WORDS.no}</dd><dt>Closes</dt><dd>${job.expiresAt ? when(job.expiresAt) : 'When you close it'}</dd><dt>Job page</dt><dd>${page}</dd></dl>
<p><a href="/console/jobs/${job.id}/applications">Applications</a> · <a href="/console/jobs/${job.id}/matches">Suggested candidates</a></p>`;
  const editing =
    job.status === 'draft'
      ? 'Edit the draft'
      : html`Edit the job <span class="muted">(your changes wait until you make them live)</span>`;
  const form = jobForm(session, `/console/jobs/${job.id}`, state, 'Save changes', view);
  // Before Publish (and while live, for the next edit): what the ad may need by law.
  const body = html`${facts}${advisories(job)}${actions(session, job)}${difference(job)}<h2>${editing}</h2>${form}`;
  return renderConsole(reply, session, {
    title: job.title || 'Job',
    active: 'jobs',
    flash,
    status,
    head: JOB_FORM_STYLE,
    body,
  });
}

const formStateOf = (job: ConsoleJob) =>
  stateOfWords(job.stagedRevision ?? liveWords(job), {
    maxMatches: job.maxMatches,
    expiresAt: job.expiresAt ?? null,
  });

/** GET /console/jobs/{id} */
function jobPage(app: App, deps: WebDeps): void {
  getPage(app, deps, '/console/jobs/:jobId', 'jobs', async ({ request, reply, session, flash }) => {
    const job = await find(deps, session.accountId, idOf(request));
    return showJob(reply, session, job, formStateOf(job), undefined, 200, flash);
  });
}

/** POST /console/jobs/{id}: the edit form (waiting on a live ad until made live). */
function editJob(app: App, deps: WebDeps): void {
  const { jobs, audit } = deps.services;
  postAction(app, deps, '/console/jobs/:jobId', 'jobs', back, async ({ request, reply, session, form }) => {
    const job = await find(deps, session.accountId, idOf(request));
    const state = stateOfForm(form);
    if (intentOf(form) !== 'save') {
      showJob(reply, session, job, state, viewOf(form), 200, null);
      return undefined;
    }
    const outcome = editBody(state, job.stagedRevision ?? liveWords(job), {
      maxMatches: job.maxMatches,
      expiresAt: job.expiresAt ?? null,
    });
    if (!outcome.ok) {
      showJob(reply, session, job, outcome.state, viewOf(form), 400, null);
      return undefined;
    }
    const edit = outcome.body;
    if (Object.keys(edit).length === 0) return { to: back(request), flash: 'Nothing changed.' };
    const result = await jobs.edit(
      session.accountId,
      job.id,
      edit,
      audit.sealed(session.accountId, actorOf(session), (edited) => ({
        action: 'job.edited',
        target: job.id,
        detail: { fields: Object.keys(edit), staged: edited.pendingRevision },
      })),
    );
    return {
      to: back(request),
      flash: result.pendingRevision
        ? `Changes saved. They wait until you choose “${STAGED_WORDS.promote}”.`
        : 'Changes saved.',
    };
  });
}

/** POST /console/jobs/{id}/publish with the expiry chosen. */
function publishJob(app: App, deps: WebDeps): void {
  const { jobs, audit } = deps.services;
  postAction(app, deps, '/console/jobs/:jobId/publish', 'jobs', back, async ({ request, session, form }) => {
    const choice = form.get('expiryDays');
    const expiry =
      choice === 'none'
        ? null
        : ['30', '60', '90'].includes(choice)
          ? (Number(choice) as 30 | 60 | 90)
          : undefined;
    const { job } = await jobs.publish(
      session.accountId,
      idOf(request),
      expiry === undefined ? {} : { expiryDays: expiry },
      audit.sealed(session.accountId, actorOf(session), (result) => ({
        action: 'job.published',
        target: result.job.id,
        detail: { title: result.job.title, expiresAt: result.job.expiresAt ?? null },
      })),
    );
    return { to: back(request), flash: `Published: ${job.url ?? job.title}` };
  });
}

/** POST /console/jobs/{id}/promote, close, manage, unmanage: one service call, audited. */
function jobStep(
  app: App,
  deps: WebDeps,
  verb: 'promote' | 'close' | 'manage' | 'unmanage',
  auditAction: string,
  done: string,
): void {
  const { jobs, audit } = deps.services;
  postAction(app, deps, `/console/jobs/:jobId/${verb}`, 'jobs', back, async ({ request, session }) => {
    const jobId = idOf(request);
    const seal = audit.sealed(session.accountId, actorOf(session), () => ({
      action: auditAction,
      target: jobId,
    }));
    if (verb === 'promote') await jobs.promote(session.accountId, jobId, seal);
    else if (verb === 'close') await jobs.close(session.accountId, jobId, seal);
    else if (verb === 'manage') await jobs.manage(session.accountId, jobId, seal);
    else await jobs.unmanage(session.accountId, jobId, seal);
    return { to: back(request), flash: done };
  });
}
