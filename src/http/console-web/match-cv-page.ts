import type { Match } from '../../contract/match.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import { cvName, renderVirtualCv } from '../pages/virtual-cv-view.ts';
import type { App } from '../types.ts';
import { CV_WORDS } from './applications-page.ts';
import { renderConsole, when } from './layout.ts';
import { getPage, type WebDeps } from './web.ts';

/** The Matches page of a managed role and the virtual CV of one of its candidates. */
export function registerMatchesPages(app: App, deps: WebDeps): void {
  matchesPage(app, deps);
  matchCvPage(app, deps);
}

const percent = (score: number) => `${Math.round(score * 100)}%`;

/**
 * A match's reasons, what fits first and what is missing after (`missing required skill: Go`),
 * the missing ones marked in words and not by colour alone.
 */
function reasonLists(reasons: readonly string[], headingLevel: 3 | null): string {
  const missing = reasons.filter((r) => r.startsWith('missing '));
  const fits = reasons.filter((r) => !r.startsWith('missing '));
  const list = (items: string[], kind: string) =>
    `<ul class="reasons ${kind}">${items.map((r) => `<li>${e(r)}</li>`).join('')}</ul>`;
  if (headingLevel === null)
    return `${fits.length ? list(fits, 'fits') : ''}${missing.length ? list(missing, 'missing') : ''}`;
  const h = `h${headingLevel}`;
  return `<${h}>What fits the role</${h}>${fits.length ? list(fits, 'fits') : '<p>Nothing in particular.</p>'}${
    missing.length ? `<${h}>What is missing</${h}>${list(missing, 'missing')}` : ''
  }`;
}

function matchesPage(app: App, deps: WebDeps): void {
  const { jobs } = deps.services;
  getPage(app, deps, '/console/jobs/:jobId/matches', 'jobs', async ({ request, reply, session, flash }) => {
    const { jobId } = request.params as { jobId: string };
    const job = (await jobs.listForConsole(session.accountId)).find((j) => j.id === jobId);
    if (!job)
      return renderConsole(reply, session, {
        title: 'Not found',
        body: '<p>Job was not found.</p>',
        status: 404,
      });
    const back = `<p><a href="/console/jobs/${e(jobId)}">Back to the job</a></p>`;
    if (!job.managed) {
      const body = `${back}<p>No matches: matches are made for managed ads; manage the ad on its page first.</p>`;
      return renderConsole(reply, session, { title: `Matches: ${job.title}`, active: 'jobs', flash, body });
    }
    const { cursor } = request.query as { cursor?: string };
    const found = await deps.services.matches.list(session.accountId, jobId, {
      limit: 50,
      ...(typeof cursor === 'string' && cursor.length <= 200 ? { cursor } : {}),
    });
    const rows = found.matches
      .map(
        (m) =>
          `<tr><td class="score">${percent(m.score)}</td><td><a href="/console/jobs/${e(jobId)}/candidates/${e(m.candidateId)}">Virtual CV<span class="hp"> of ${e(m.candidateId)}</span></a><br><code>${e(m.candidateId)}</code></td>
<td>${reasonLists(m.reasons, null)}</td><td><time datetime="${e(m.createdAt)}">${e(m.createdAt.slice(0, 10))}</time></td></tr>`,
      )
      .join('');
    const body =
      found.matches.length === 0
        ? `${back}<p>No matches yet — suggested candidates appear here once matching has run for this managed ad.</p>`
        : `${back}<p>Best first. Open a match’s virtual CV to read it and invite the candidate to screening; contacting someone who did not apply counts against the weekly limit.</p>
<table><caption>Candidate matches, best first</caption><thead><tr><th scope="col">Score</th><th scope="col">Candidate</th><th scope="col">Reasons</th><th scope="col">Matched on</th></tr></thead>
<tbody>${rows}</tbody></table>${
            found.nextCursor
              ? `<p><a href="/console/jobs/${e(jobId)}/matches?cursor=${encodeURIComponent(found.nextCursor)}">More matches</a></p>`
              : ''
          }`;
    return renderConsole(reply, session, { title: `Matches: ${job.title}`, active: 'jobs', flash, body });
  });
}

/** Why the candidate was matched: the score, what fits, what is missing. */
function matchSummary(match: Match): string {
  return `<section class="card match" aria-labelledby="match-heading"><h2 id="match-heading">Match</h2>
<p><span class="score">${percent(match.score)}</span> <span class="muted">match score · matched ${when(match.createdAt)}</span></p>${reasonLists(match.reasons, 3)}</section>`;
}

/**
 * The virtual CV of one of the role's candidates (recruiters and admins): a match (an import, an
 * earlier applicant, or a platform person by the account's own id while in the pool), an applicant
 * to the role, or an import. 404 for anyone else. The person's name, when the CV gives one, is the
 * page's heading; a match shows its score and reasons above the CV.
 */
function matchCvPage(app: App, deps: WebDeps): void {
  getPage(
    app,
    deps,
    '/console/jobs/:jobId/candidates/:candidateId',
    'jobs',
    async ({ request, reply, session, flash }) => {
      const { jobId, candidateId } = request.params as { jobId: string; candidateId: string };
      const back = `<p><a href="/console/jobs/${e(jobId)}/matches">Back to the matches</a></p>`;
      const found = await deps.services.matches
        .candidateCv(session.accountId, jobId, candidateId)
        .catch((error: unknown) => {
          if ((error as { code?: string }).code === 'not_found') return null;
          throw error;
        });
      if (!found)
        return renderConsole(reply, session, {
          title: 'Not found',
          body: `${back}<p>This is not a candidate of the role (any more).</p>`,
          status: 404,
        });
      const job = (await deps.services.jobs.listForConsole(session.accountId)).find((j) => j.id === jobId);
      const name = cvName(found.cv);
      const role = job ? `<strong>${e(job.title)}</strong>` : 'the role';
      const intro = `<p>${found.match ? 'Matched for' : 'Candidate for'} ${role} · id <code>${e(candidateId)}</code></p>`;
      const invite = `<p class="actions"><a class="button" href="/console/screening?job=${e(jobId)}&amp;candidate=${e(candidateId)}">Invite to screening</a></p>`;
      const cv = `<section aria-labelledby="cv-heading"><h2 id="cv-heading">Virtual CV</h2>${renderVirtualCv(found.cv, CV_WORDS, 'en', { level: 3, name: false })}</section>`;
      return renderConsole(reply, session, {
        title: name || 'Virtual CV of a candidate',
        active: 'jobs',
        flash,
        body: `${back}${intro}${found.match ? matchSummary(found.match) : ''}${invite}${cv}`,
      });
    },
  );
}
