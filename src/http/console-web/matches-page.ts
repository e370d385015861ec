import type { FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { csrfField, dataTable, renderConsole } from './layout.ts';
import { percent, reasonLists } from './match-cv-page.ts';
import { SETTINGS_MATCHING_WORDS, MATCH_WORDS as W } from './match-words.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

/**
 * The Matches page of a managed role: its current matches, best first, each with a form to dismiss
 * it (a reason required), and the "Dismissed" view (`?view=dismissed`) with a form to restore.
 */
export function registerMatchListPages(app: App, deps: WebDeps): void {
  const { jobs, matches, matchDecisions } = deps.services;
  getPage(app, deps, '/console/jobs/:jobId/matches', 'jobs', async ({ request, reply, session, flash }) => {
    const { jobId } = request.params as { jobId: string };
    const job = (await jobs.listForConsole(session.accountId)).find((j) => j.id === jobId);
    if (!job)
      return renderConsole(reply, session, {
        title: 'Not found',
        body: html`<p>Job was not found.</p>`,
        status: 404,
      });
    const back = html`<p><a href="/console/jobs/${jobId}">Back to the job</a></p>`;
    const title = `Matches: ${job.title}`;
    const { cursor, view } = request.query as { cursor?: string; view?: string };
    if (view === 'dismissed') {
      const dismissed = await matchDecisions.dismissed(session.accountId, jobId);
      const rows = dismissed.map((m) => [
        { td: percent(m.score), class: 'score' },
        candidateCell(jobId, m.candidateId),
        m.dismissal?.reason ?? '',
        html`<time datetime="${m.dismissal?.at ?? ''}">${(m.dismissal?.at ?? '').slice(0, 10)}</time>`,
        decisionForm(session, jobId, m.matchId, 'restore'),
      ]);
      const table = dataTable({
        caption: html`<caption>${W.dismissedCaption}</caption>`,
        columns: W.dismissedColumns,
        rows,
        scroll: false,
      });
      const body = html`${back}<p><a href="/console/jobs/${jobId}/matches">${W.showCurrent}</a></p>${
        dismissed.length === 0 ? html`<p>${W.noneDismissed}</p>` : table
      }`;
      return renderConsole(reply, session, { title: `${title} (dismissed)`, active: 'jobs', flash, body });
    }
    const toggle = html`<p><a href="/console/jobs/${jobId}/matches?view=dismissed">${W.showDismissed}</a> · <a href="/console/matches/log.csv" download>${W.downloadLog}</a></p>`;
    if (!job.managed) {
      const body = html`${back}<p>No matches: matches are made for managed ads; manage the ad on its page first.</p>${toggle}`;
      return renderConsole(reply, session, { title, active: 'jobs', flash, body });
    }
    const found = await matches
      .list(session.accountId, jobId, {
        limit: 50,
        ...(typeof cursor === 'string' && cursor.length <= 200 ? { cursor } : {}),
      })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === 'matching_disabled') return null;
        throw error;
      });
    if (found === null) {
      const body = html`${back}<p>${SETTINGS_MATCHING_WORDS.pageOff}</p>${toggle}`;
      return renderConsole(reply, session, { title, active: 'jobs', flash, body });
    }
    const rows = found.matches.map((m) => [
      { td: percent(m.score), class: 'score' },
      candidateCell(jobId, m.candidateId),
      reasonLists(m.reasons, null),
      html`<time datetime="${m.createdAt}">${m.createdAt.slice(0, 10)}</time>`,
      decisionForm(session, jobId, m.matchId, 'dismiss'),
    ]);
    const more =
      found.nextCursor &&
      html`<p><a href="/console/jobs/${jobId}/matches?cursor=${encodeURIComponent(found.nextCursor)}">More matches</a></p>`;
    const table = dataTable({
      caption: html`<caption>${W.listCaption}</caption>`,
      columns: W.columns,
      rows,
      scroll: false,
    });
    const body =
      found.matches.length === 0
        ? html`${back}<p>${W.none}</p>${toggle}`
        : html`${back}<p>${W.intro}</p>${toggle}${table}${more}`;
    return renderConsole(reply, session, { title, active: 'jobs', flash, body });
  });

  // The account's decision log of matching, every entry, as a CSV download (issue 31).
  getPage(app, deps, '/console/matches/log.csv', 'jobs', async ({ reply, session }) => {
    const csv = await matchDecisions.logCsv(session.accountId, {});
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="matching-decisions.csv"')
      .header('cache-control', 'no-store')
      .send(csv);
  });

  const backTo = (request: FastifyRequest) => {
    const { jobId } = request.params as { jobId: string };
    return `/console/jobs/${encodeURIComponent(jobId)}/matches`;
  };
  postAction(
    app,
    deps,
    '/console/jobs/:jobId/matches/:matchId/dismiss',
    'jobs',
    backTo,
    async ({ request, session, form }) => {
      const { jobId, matchId } = request.params as { jobId: string; matchId: string };
      await matchDecisions.dismiss(session.accountId, jobId, matchId, form.get('reason'), actorOf(session));
      return { to: backTo(request), flash: W.dismissed };
    },
  );
  postAction(
    app,
    deps,
    '/console/jobs/:jobId/matches/:matchId/restore',
    'jobs',
    (request) => `${backTo(request)}?view=dismissed`,
    async ({ request, session, form }) => {
      const { jobId, matchId } = request.params as { jobId: string; matchId: string };
      await matchDecisions.restore(session.accountId, jobId, matchId, form.get('reason'), actorOf(session));
      return { to: `${backTo(request)}?view=dismissed`, flash: W.restored };
    },
  );
}

function candidateCell(jobId: string, candidateId: string): SafeHtml {
  return html`<a href="/console/jobs/${jobId}/candidates/${candidateId}">Virtual CV<span class="hp"> of ${candidateId}</span></a><br><code>${candidateId}</code>`;
}

/** A labelled reason and the button: the reason is required to dismiss, optional to restore. */
function decisionForm(
  session: Parameters<typeof csrfField>[0],
  jobId: string,
  matchId: string,
  kind: 'dismiss' | 'restore',
): SafeHtml {
  const id = `${kind}-${matchId}`;
  const label = kind === 'dismiss' ? W.dismissReason : W.restoreReason;
  const button = kind === 'dismiss' ? W.dismiss : W.restore;
  return html`<form method="post" action="/console/jobs/${jobId}/matches/${matchId}/${kind}">${csrfField(session)}<label for="${id}">${label}</label><textarea id="${id}" name="reason" rows="2" maxlength="500"${kind === 'dismiss' && html` required`}></textarea> <button type="submit">${button}<span class="hp"> ${matchId}</span></button></form>`;
}
