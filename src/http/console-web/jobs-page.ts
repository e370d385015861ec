import type { FastifyReply } from 'fastify';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { html } from '../../lib/html.ts';
import { sendJobPreview } from '../pages/job-page.ts';
import type { App } from '../types.ts';
import {
  createBody,
  type FormView,
  intentOf,
  JOB_FORM_STYLE,
  type JobFormState,
  jobForm,
  previewWords,
  stateOfForm,
  stateOfWords,
  viewOf,
} from './job-form.ts';
import { dataTable, renderConsole, when } from './layout.ts';
import { actorOf, type Flash, getPage, postAction, type WebDeps } from './web.ts';
import { jobStatusWords, MANAGED_WORDS, STAGED_WORDS } from './words.ts';

/** Jobs (recruiters and admins): every job, drafts included; create one. */
export function registerJobsPage(app: App, deps: WebDeps): void {
  const { jobs, audit } = deps.services;

  getPage(app, deps, '/console/jobs', 'jobs', async ({ reply, session, flash }) => {
    const [list, counts] = await Promise.all([
      jobs.listForConsole(session.accountId),
      deps.services.insights.jobCounts(session.accountId),
    ]);
    const rows = list.reverse().map((job) => {
      const count = counts.get(job.id) ?? { total: 0, new: 0 };
      const applications = `/console/jobs/${job.id}/applications`;
      return [
        { th: html`<a href="/console/jobs/${job.id}">${job.title}</a>` },
        jobStatusWords(job.status),
        {
          td: html`<a href="${applications}" data-count="total">${count.total.toLocaleString('en-GB')}<span class="hp"> applications to ${job.title}</span></a>`,
          class: 'n',
        },
        {
          td: html`<a href="${applications}?stage=new" data-count="new">${count.new.toLocaleString('en-GB')}<span class="hp"> new applications to ${job.title}</span></a>`,
          class: 'n',
        },
        job.managed ? MANAGED_WORDS.short : '—',
        job.pendingRevision ? STAGED_WORDS.waiting : '—',
        when(job.expiresAt),
      ];
    });
    const columns = ['Title', 'Status', 'Applications', 'New', 'Managed', 'Changes', 'Closes'];
    const body = list.length
      ? html`<p><a class="button" href="/console/jobs/new">Create a job</a></p>${dataTable({ columns, rows, caption: html`<caption class="hp">Your jobs, newest first, with their applications</caption>` })}`
      : html`<p>No jobs yet — <a href="/console/jobs/new">Create a job</a>.</p>`;
    return renderConsole(reply, session, {
      title: 'Jobs',
      active: 'jobs',
      flash,
      body,
      head: html`<style>td.n,table.stack thead th:nth-child(3),table.stack thead th:nth-child(4){text-align:right;font-variant-numeric:tabular-nums}td.n a{display:inline-block;min-width:2.5rem;padding:0 .35rem}@media (max-width:40rem){td.n{text-align:left}}</style>`,
    });
  });

  getPage(app, deps, '/console/jobs/new', 'jobs', async ({ reply, session, flash }) =>
    createPage(reply, session, stateOfWords({}), undefined, 200, flash),
  );

  postAction(
    app,
    deps,
    '/console/jobs',
    'jobs',
    () => '/console/jobs/new',
    async ({ reply, session, form }) => {
      const state = stateOfForm(form);
      if (intentOf(form) !== 'save') {
        createPage(reply, session, state, viewOf(form), 200, null);
        return undefined;
      }
      const outcome = createBody(state);
      if (!outcome.ok) {
        createPage(reply, session, outcome.state, viewOf(form), 400, null);
        return undefined;
      }
      const job = await jobs.create(
        session.accountId,
        outcome.body,
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

  postAction(
    app,
    deps,
    '/console/jobs/preview',
    'jobs',
    () => '/console/jobs/new',
    async ({ reply, session, form }) => {
      const account = await deps.services.accounts.get(session.accountId);
      sendJobPreview(
        reply,
        previewWords(stateOfForm(form)),
        account.companyName ?? account.name,
        account.logoUrl,
      );
      return undefined;
    },
  );
}

function createPage(
  reply: FastifyReply,
  session: ConsoleSession,
  state: JobFormState,
  view: FormView | undefined,
  status: number,
  flash: Flash | null,
) {
  return renderConsole(reply, session, {
    title: 'Create a job',
    active: 'jobs',
    flash,
    status,
    head: JOB_FORM_STYLE,
    body: html`<p>A new job is a draft: candidates see nothing until you publish it.</p>${jobForm(session, '/console/jobs', state, 'Create job', view)}`,
  });
}
