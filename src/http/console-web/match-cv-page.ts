import { escapeHtml as e } from '../../lib/html.ts';
import { renderVirtualCv } from '../pages/virtual-cv-view.ts';
import type { App } from '../types.ts';
import { CV_WORDS } from './applications-page.ts';
import { renderConsole } from './layout.ts';
import { getPage, type WebDeps } from './web.ts';

/**
 * The virtual CV of one of the role's candidates (recruiters and admins): a match (an import, an
 * earlier applicant, or a platform person by the account's own id while in the pool), an applicant
 * to the role, or an import. 404 for anyone else.
 */
export function registerMatchCvPage(app: App, deps: WebDeps): void {
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
      const cv = renderVirtualCv(found.cv, CV_WORDS).replaceAll('<h2>', '<h3>').replaceAll('</h2>', '</h3>');
      const body = `${back}<p>Candidate <code>${e(candidateId)}</code> · <a href="/console/screening?job=${e(jobId)}&amp;candidate=${e(candidateId)}">Invite to screening</a></p>${cv}`;
      return renderConsole(reply, session, {
        title: 'Virtual CV of a candidate',
        active: 'jobs',
        flash,
        body,
      });
    },
  );
}
