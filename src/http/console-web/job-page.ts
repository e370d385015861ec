import { WORD_FIELDS } from '../../contract/job.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { notFound } from '../../domain/errors.ts';
import type { ConsoleJob } from '../../domain/jobs/job-service.ts';
import { html, type SafeHtml, safeUrl } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { editBody, jobForm } from './job-form.ts';
import { buttonForm, csrfField, dataTable, renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

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
      { th: field },
      html`<del>${show(live[field])}</del>`,
      html`<ins>${show(job.stagedRevision![field])}</ins>`,
    ],
  );
  return html`<section class="card diff" aria-labelledby="staged-h"><h2 id="staged-h">Staged edits, not live yet</h2>
<p>Candidates still see the live words. Promote the staged words to make them live.</p>
${dataTable({ columns: ['Field', 'Live', 'Staged'], rows })}</section>`;
}

function actions(session: ConsoleSession, job: ConsoleJob): SafeHtml {
  const base = `/console/jobs/${job.id}`;
  const out: SafeHtml[] = [];
  if (job.status !== 'published') {
    out.push(
      html`<form method="post" action="${base}/publish">${csrfField(session)}<label for="expiry">Expiry</label><select id="expiry" name="expiryDays"><option value="">Keep the current expiry</option><option value="30">30 days</option><option value="60">60 days</option><option value="90">90 days</option><option value="none">No expiry</option></select> <button type="submit">Publish</button></form>`,
    );
  }
  if (job.pendingRevision) out.push(buttonForm(session, `${base}/promote`, 'Promote staged words'));
  if (job.status === 'published') {
    out.push(
      buttonForm(
        session,
        `${base}/${job.managed ? 'unmanage' : 'manage'}`,
        job.managed ? 'Stop managing' : 'Manage ad',
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
  jobStep(app, deps, 'promote', 'job.promoted', 'Staged words promoted: they are live now.');
  jobStep(app, deps, 'close', 'job.closed', 'Job closed: it takes no more applications.');
  jobStep(app, deps, 'manage', 'job.managed', 'The ad is managed now.');
  jobStep(app, deps, 'unmanage', 'job.unmanaged', 'The ad is no longer managed.');
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

/** GET /console/jobs/{id} */
function jobPage(app: App, deps: WebDeps): void {
  getPage(app, deps, '/console/jobs/:jobId', 'jobs', async ({ request, reply, session, flash }) => {
    const job = await find(deps, session.accountId, idOf(request));
    const page = job.url ? html`<a href="${safeUrl(job.url)}">${job.url}</a>` : 'Not published';
    const facts = html`<dl class="facts"><dt>Status</dt><dd id="job-status">${job.status}</dd><dt>Managed</dt><dd>${job.managed ? 'Yes' : 'No'}</dd><dt>Expires</dt><dd>${when(job.expiresAt)}</dd><dt>Job page</dt><dd>${page}</dd><dt>Most matches</dt><dd>${job.maxMatches ?? 'No cap'}</dd></dl>
<p><a href="/console/jobs/${job.id}/applications">Applications</a> · <a href="/console/jobs/${job.id}/matches">Matches</a></p>`;
    const editing = job.status === 'draft' ? 'Edit draft' : 'Edit (staged until promoted)';
    const form = jobForm(
      session,
      `/console/jobs/${job.id}`,
      job.stagedRevision ?? liveWords(job),
      job.maxMatches,
      'Save changes',
    );
    const body = html`${facts}${actions(session, job)}${difference(job)}<h2>${editing}</h2>${form}`;
    return renderConsole(reply, session, { title: job.title || 'Job', active: 'jobs', flash, body });
  });
}

/** POST /console/jobs/{id}: the edit form (staged on a live ad until promoted). */
function editJob(app: App, deps: WebDeps): void {
  const { jobs, audit } = deps.services;
  postAction(app, deps, '/console/jobs/:jobId', 'jobs', back, async ({ request, session, form }) => {
    const job = await find(deps, session.accountId, idOf(request));
    const edit = editBody(form, job.stagedRevision ?? liveWords(job), job.maxMatches);
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
      flash: result.pendingRevision ? 'Changes staged: promote them to make them live.' : 'Changes saved.',
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
