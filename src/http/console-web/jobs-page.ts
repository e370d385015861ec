import { escapeHtml as e } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { createBody, jobForm } from './job-form.ts';
import { renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

/** Jobs (recruiters and admins): every job, drafts included; create one. */
export function registerJobsPage(app: App, deps: WebDeps): void {
  const { jobs, audit } = deps.services;

  getPage(app, deps, '/console/jobs', 'jobs', async ({ reply, session, flash }) => {
    const list = await jobs.listForConsole(session.accountId);
    const rows = list
      .reverse()
      .map(
        (job) =>
          `<tr><td><a href="/console/jobs/${e(job.id)}">${e(job.title)}</a></td><td>${e(job.status)}</td><td>${job.managed ? 'Managed' : '—'}</td><td>${job.pendingRevision ? 'Staged edits waiting' : '—'}</td><td>${when(job.expiresAt)}</td><td><a href="/console/jobs/${e(job.id)}/applications">Applications<span class="hp"> of ${e(job.title)}</span></a></td></tr>`,
      )
      .join('');
    const body = list.length
      ? `<p><a class="button" href="/console/jobs/new">Create a job</a></p><div class="scroll"><table><thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Managed</th><th scope="col">Pending revision</th><th scope="col">Expires</th><th scope="col">Applications</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : '<p>No jobs yet — <a href="/console/jobs/new">Create a job</a>.</p>';
    return renderConsole(reply, session, { title: 'Jobs', active: 'jobs', flash, body });
  });

  getPage(app, deps, '/console/jobs/new', 'jobs', async ({ reply, session, flash }) =>
    renderConsole(reply, session, {
      title: 'Create a job',
      active: 'jobs',
      flash,
      body: `<p>A new job is a draft until you publish it.</p>${jobForm(session, '/console/jobs', {}, null, 'Create job')}`,
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
