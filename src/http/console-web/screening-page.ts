import { SCREENING_MESSAGE_MAX } from '../../contract/screening.ts';
import { badRequest } from '../../domain/errors.ts';
import { decisionActorOf } from '../../domain/matches/decision-log.ts';
import { html } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { csrfField, dataTable, money, renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

/** Screening (recruiters and admins): invite one of a managed role's candidates; this month's screenings. */
export function registerScreeningPage(app: App, deps: WebDeps): void {
  screeningPage(app, deps);
  postScreening(app, deps);
}

function screeningPage(app: App, deps: WebDeps): void {
  const { screening, jobs } = deps.services;
  getPage(app, deps, '/console/screening', 'screening', async ({ request, reply, session, flash }) => {
    const asked = request.query as { job?: unknown; candidate?: unknown };
    const wantJob = typeof asked.job === 'string' ? asked.job : '';
    const wantCandidate = typeof asked.candidate === 'string' ? asked.candidate.slice(0, 64) : '';
    const month = deps.clock.now().toISOString().slice(0, 7);
    const [report, templates, list] = await Promise.all([
      screening.billing(session.accountId, month),
      screening.listTemplates(session.accountId),
      jobs.listForConsole(session.accountId),
    ]);
    const managed = list.filter((job) => job.managed);
    const active = templates.filter((t) => t.active);
    const jobOptions = managed.map(
      (j) => html`<option value="${j.id}"${j.id === wantJob && html` selected`}>${j.title}</option>`,
    );
    const templateOptions = active.map(
      (t) => html`<option value="${t.id}">${t.name} — ${money(t.priceCents, t.currency)}</option>`,
    );
    const form =
      managed.length === 0 || active.length === 0
        ? html`<p>${managed.length === 0 ? 'No managed ads yet — manage a published job on its page first.' : 'No active screening templates yet — a billing admin creates them on the Billing page.'}</p>`
        : html`<form method="post" action="/console/screening">${csrfField(session)}
<label for="job">Job</label><select id="job" name="jobId">${jobOptions}</select>
<label for="candidate">Application or candidate id</label><input type="text" id="candidate" name="candidateId" required maxlength="64" value="${wantCandidate}" aria-describedby="candidate-hint">
<p class="hint" id="candidate-hint">The id shown with the application (app_…) or the imported candidate (cand_…).</p>
<label for="template">Template</label><select id="template" name="templateId">${templateOptions}</select>
<label for="message">Message to the candidate</label><textarea id="message" name="message" rows="3" maxlength="${SCREENING_MESSAGE_MAX}"></textarea>
<div class="actions"><button type="submit">Invite to screening</button></div></form>`;
    const rows = report.screenings.map((s) => [
      s.candidateId,
      s.jobId,
      s.status,
      s.billing,
      money(s.priceCents, s.currency),
      when(s.completeBy),
    ]);
    const columns = ['Candidate', 'Job', 'Status', 'Billing', 'Price', 'Complete by'];
    const table = rows.length > 0 ? dataTable({ columns, rows }) : html`<p>No screenings this month yet.</p>`;
    return renderConsole(reply, session, {
      title: 'Screening',
      active: 'screening',
      flash,
      body: html`<h2>Invite a candidate</h2>${form}<h2>Screenings this month</h2>${table}`,
    });
  });
}

function postScreening(app: App, deps: WebDeps): void {
  const { screening, audit } = deps.services;
  postAction(
    app,
    deps,
    '/console/screening',
    'screening',
    () => '/console/screening',
    async ({ session, form }) => {
      const jobId = form.get('jobId');
      const candidateId = form.get('candidateId').trim();
      const templateId = form.get('templateId');
      const message = form.get('message').trim();
      if (candidateId === '' || candidateId.length > 64)
        throw badRequest('Enter the application or candidate id.', { field: 'candidateId' });
      if (message.length > SCREENING_MESSAGE_MAX)
        throw badRequest('The message is too long.', { field: 'message' });
      const result = await screening.trigger(
        session.accountId,
        jobId.slice(0, 64),
        candidateId,
        { templateId: templateId.slice(0, 64), ...(message ? { message } : {}) },
        audit.sealed(session.accountId, actorOf(session), (triggered) => ({
          action: 'screening.invited',
          target: triggered.screening.screeningId,
          detail: {
            jobId,
            billing: triggered.billing,
            priceCents: triggered.priceCents,
            currency: triggered.currency,
          },
        })),
        decisionActorOf(actorOf(session)),
      );
      return { to: '/console/screening', flash: `Invitation sent (${result.billing}).` };
    },
  );
}
