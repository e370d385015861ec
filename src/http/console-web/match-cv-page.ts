import type { Match } from '../../contract/match.ts';
import type { MatchExplanation } from '../../domain/matches/explanation.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import { cvName, renderVirtualCv } from '../pages/virtual-cv-view.ts';
import type { App } from '../types.ts';
import { CV_WORDS } from './applications-page.ts';
import { renderConsole, when } from './layout.ts';
import { EXPLANATION_WORDS } from './match-words.ts';
import { getPage, type WebDeps } from './web.ts';

/** The virtual CV of one of a managed role's candidates (the Matches page is matches-page.ts). */
export function registerMatchesPages(app: App, deps: WebDeps): void {
  matchCvPage(app, deps);
}

export const percent = (score: number) => `${Math.round(score * 100)}%`;

/**
 * A match's reasons, what fits first and what is missing after (`missing required skill: Go`),
 * the missing ones marked in words and not by colour alone.
 */
export function reasonLists(reasons: readonly string[], headingLevel: 3 | null): SafeHtml {
  const missing = reasons.filter((r) => r.startsWith('missing '));
  const fits = reasons.filter((r) => !r.startsWith('missing '));
  const list = (items: string[], kind: string) =>
    html`<ul class="reasons ${kind}">${items.map((r) => html`<li>${r}</li>`)}</ul>`;
  if (headingLevel === null)
    return html`${fits.length > 0 && list(fits, 'fits')}${missing.length > 0 && list(missing, 'missing')}`;
  return html`<h3>What fits the role</h3>${fits.length ? list(fits, 'fits') : html`<p>Nothing in particular.</p>`}${
    missing.length > 0 && html`<h3>What is missing</h3>${list(missing, 'missing')}`
  }`;
}

/** The explanation a candidate could be given: who decided, the parts of the score, the reasons. */
function explanationCard(explanation: MatchExplanation): SafeHtml {
  const E = EXPLANATION_WORDS;
  const parts = explanation.components.map(
    (c) => html`<li>${E.part(E.components[c.name] ?? c.name, percent(c.weight), percent(c.value))}</li>`,
  );
  return html`<section class="card explanation" aria-labelledby="why-heading"><h2 id="why-heading">${E.heading}</h2>
<p>${E.made(explanation.rankerVersion, explanation.createdAt.slice(0, 10))}</p>
${parts.length > 0 ? html`<p>${E.sum(percent(explanation.score))}</p><ul>${parts}</ul>` : html`<p>${E.noParts}</p>`}
<h3>${E.reasons}</h3><ul>${explanation.reasons.map((r) => html`<li>${r}</li>`)}</ul><p>${E.never}</p></section>`;
}

/** Why the candidate was matched: the score, what fits, what is missing. */
function matchSummary(match: Match): SafeHtml {
  return html`<section class="card match" aria-labelledby="match-heading"><h2 id="match-heading">Match</h2>
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
      const back = html`<p><a href="/console/jobs/${jobId}/matches">Back to the matches</a></p>`;
      const found = await deps.services.matches
        .candidateCv(session.accountId, jobId, candidateId)
        .catch((error: unknown) => {
          if ((error as { code?: string }).code === 'not_found') return null;
          throw error;
        });
      if (!found)
        return renderConsole(reply, session, {
          title: 'Not found',
          body: html`${back}<p>This is not a candidate of the role (any more).</p>`,
          status: 404,
        });
      const job = (await deps.services.jobs.listForConsole(session.accountId)).find((j) => j.id === jobId);
      const name = cvName(found.cv);
      const role = job ? html`<strong>${job.title}</strong>` : 'the role';
      const intro = html`<p>${found.match ? 'Matched for' : 'Candidate for'} ${role} · id <code>${candidateId}</code></p>`;
      const explanation =
        found.match &&
        (await deps.services.matchDecisions.explanation(session.accountId, jobId, found.match.matchId));
      const invite = html`<p class="actions"><a class="button" href="/console/screening?job=${jobId}&amp;candidate=${candidateId}">Invite to screening</a></p>`;
      const cv = html`<section aria-labelledby="cv-heading"><h2 id="cv-heading">Virtual CV</h2>${renderVirtualCv(found.cv, CV_WORDS, 'en', { level: 3, name: false, contact: false })}</section>`;
      return renderConsole(reply, session, {
        title: name || 'Virtual CV of a candidate',
        active: 'jobs',
        flash,
        body: html`${back}${intro}${found.match && matchSummary(found.match)}${explanation && explanationCard(explanation)}${invite}${cv}`,
      });
    },
  );
}
