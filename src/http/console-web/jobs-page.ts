import { html } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { createBody, jobForm } from './job-form.ts';
import { dataTable, renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

/** Jobs (recruiters and admins): every job, drafts included; create one. */
export function registerJobsPage(app: App, deps: WebDeps): void {
  const { jobs, audit } = deps.services;

  getPage(app, deps, '/console/jobs', 'jobs', async ({ reply, session, flash }) => {
    const list = await jobs.listForConsole(session.accountId);
    const rows = list
      .reverse()
      .map((job) => [
        html`<a href="/console/jobs/${job.id}">${job.title}</a>`,
        job.status,
        job.managed ? 'Managed' : '—',
        job.pendingRevision ? 'Staged edits waiting' : '—',
        when(job.expiresAt),
        html`<a href="/console/jobs/${job.id}/applications">Applications<span class="hp"> of ${job.title}</span></a>`,
      ]);
    const columns = ['Title', 'Status', 'Managed', 'Pending revision', 'Expires', 'Applications'];
    const body = list.length
      ? html`<p><a class="button" href="/console/jobs/new">Create a job</a></p>${dataTable({ columns, rows })}`
      : html`<p>No jobs yet — <a href="/console/jobs/new">Create a job</a>.</p>`;
    return renderConsole(reply, session, { title: 'Jobs', active: 'jobs', flash, body });
  });

  getPage(app, deps, '/console/jobs/new', 'jobs', async ({ reply, session, flash }) =>
    renderConsole(reply, session, {
      title: 'Create a job',
      active: 'jobs',
      flash,
      body: html`<p>A new job is a draft until you publish it.</p>${jobForm(session, '/console/jobs', {}, null, 'Create job')}`,
    }),
  );

  postAction(
    app,
    deps,
    '/console/jobs',
    'jobs',
    () => '/console/jobs/new',
    async ({ session, form }) => {
      const job = await jobs.create(
        session.accountId,
        createBody(form),
        audit.sealed(session.accountId, actorOf(session), (created) => ({
          action: 'job.created',
          target: created.id,
          detail: { title: created.title },
        })),
      );
      return {
        to: `/console/jobs/${job.id}`,
        flash: `Draft "${job.title}" created. Publish it when it is ready.`,
      };
    },
  );
}
