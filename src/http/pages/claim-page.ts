import { Type } from 'typebox';
import type { LinkState } from '../../domain/cv/cv-service.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { CLAIM_WORDS } from './claim-words.ts';
import { LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';
import { renderVirtualCv } from './virtual-cv-view.ts';

const e = escapeHtml;

/** Where a candidate goes next from a claim page: the role (while live) and the job list. */
function wayBack(state: Extract<LinkState, { kind: 'open' }>): string {
  const x = LISTING_WORDS[state.locale];
  const links = [
    state.jobPath && state.role
      ? `<a href="${e(state.jobPath.replace(/^\/en\//, `/${state.locale}/`))}">${e(x.backToRole(state.role))}</a>`
      : '',
    `<a href="/${state.locale}/jobs">${e(x.allJobs)}</a>`,
  ].filter(Boolean);
  return `<nav class="next" aria-label="${e(x.allJobs)}"><ul>${links.map((l) => `<li>${l}</li>`).join('')}</ul></nav>`;
}

function answer(reply: Parameters<typeof sendPage>[0], state: LinkState, done?: 'claimed' | 'deleted') {
  if (state.kind === 'unknown') {
    const w = CLAIM_WORDS.en;
    return sendPage(reply, 404, 'en', w.unknown, `<h1>${e(w.unknown)}</h1><p>${e(w.unknownBody)}</p>`);
  }
  const lang = state.locale;
  const w = CLAIM_WORDS[lang];
  if (state.kind === 'gone') {
    return sendPage(
      reply,
      410,
      lang,
      w.gone,
      `<h1>${e(w.gone)}</h1><p>${e(state.why === 'used' ? w.goneUsed : w.goneExpired)}</p>`,
    );
  }
  const here = e(reply.request.url.split('?')[0]!);
  if (done === 'deleted')
    return sendPage(
      reply,
      200,
      lang,
      w.deleted,
      `<h1>${e(w.deleted)}</h1><p>${e(w.deletedBody)}</p>${wayBack(state)}`,
    );
  const notice = state.subject.outcome === 'existing_account';
  const title = done === 'claimed' ? w.claimed : w.title;
  const intro = state.claimed
    ? notice
      ? w.sharedIntro(state.company)
      : w.claimedIntro(state.company)
    : notice
      ? w.noticeIntro(state.company)
      : w.intro(state.company, state.role);
  const body = [
    `<h1>${e(title)}</h1>`,
    done === 'claimed' ? `<p role="status">${e(w.claimedBody)}</p>` : '',
    `<p>${e(intro)}</p>`,
    notice ? '' : renderVirtualCv(state.cv, w, lang),
    '<div class="actions">',
    state.claimed
      ? ''
      : `<form method="post" action="${here}/claim"><button type="submit">${e(notice ? w.share : w.claim)}</button></form>`,
    `<form method="post" action="${here}/delete"><button type="submit" class="secondary">${e(notice ? w.forget : w.delete)}</button></form>`,
    '</div>',
    wayBack(state),
  ].join('');
  return sendPage(reply, 200, lang, title, body);
}

// No length bound here: a token that is not ours, whatever its length, answers the 404 page rather
// than a JSON 400 (openLink checks the shape; the router already caps a parameter at 200 chars).
const TokenParams = Type.Object({ token: Type.String() });

/** The candidate's link: the page, and the two buttons (console.md "Candidate links"). */
export const claimPages: Route = (app, { services: { cv } }) => {
  app.register(async (pages) => {
    // The buttons post an empty HTML form; only the route's own path carries meaning.
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, _body, done) => done(null, {}),
    );
    pages.get('/cv/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) =>
      answer(reply, await cv.openLink((request.params as { token: string }).token)),
    );
    pages.post(
      '/cv/:token/claim',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const state = await cv.claim((request.params as { token: string }).token);
        return answer(reply, state, 'claimed');
      },
    );
    pages.post(
      '/cv/:token/delete',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const state = await cv.delete((request.params as { token: string }).token);
        return answer(reply, state, 'deleted');
      },
    );
  });
};
