import { Type } from 'typebox';
import type { LinkState } from '../../domain/cv/cv-service.ts';
import { html, type SafeHtml, safeUrl } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { CLAIM_WORDS } from './claim-words.ts';
import { acceptForms, FORM_LIMITS } from './form-body.ts';
import { LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';
import { renderVirtualCv } from './virtual-cv-view.ts';

/** Where a candidate goes next from a claim page: the role (while live) and the job list. */
function wayBack(state: Extract<LinkState, { kind: 'open' }>): SafeHtml {
  const x = LISTING_WORDS[state.locale];
  const role =
    state.jobPath &&
    state.role &&
    html`<li><a href="${safeUrl(state.jobPath.replace(/^\/en\//, `/${state.locale}/`))}">${x.backToRole(state.role)}</a></li>`;
  return html`<nav class="next" aria-label="${x.allJobs}"><ul>${role}<li><a href="/${state.locale}/jobs">${x.allJobs}</a></li></ul></nav>`;
}

function answer(
  reply: Parameters<typeof sendPage>[0],
  state: LinkState,
  done?: 'claimed' | 'deleted' | 'optedOut',
) {
  if (state.kind === 'unknown') {
    const w = CLAIM_WORDS.en;
    return sendPage(reply, 404, 'en', w.unknown, html`<h1>${w.unknown}</h1><p>${w.unknownBody}</p>`);
  }
  const lang = state.locale;
  const w = CLAIM_WORDS[lang];
  if (state.kind === 'gone') {
    const why = state.why === 'used' ? w.goneUsed : w.goneExpired;
    return sendPage(reply, 410, lang, w.gone, html`<h1>${w.gone}</h1><p>${why}</p>`);
  }
  const here = reply.request.url.split('?')[0]!;
  if (done === 'deleted')
    return sendPage(
      reply,
      200,
      lang,
      w.deleted,
      html`<h1>${w.deleted}</h1><p>${w.deletedBody}</p>${wayBack(state)}`,
    );
  const notice = state.subject.outcome === 'existing_account';
  const title = done === 'claimed' ? w.claimed : done === 'optedOut' ? w.optedOut : w.title;
  const intro = state.claimed
    ? notice
      ? w.sharedIntro(state.company)
      : w.claimedIntro(state.company)
    : notice
      ? w.noticeIntro(state.company)
      : w.intro(state.company, state.role);
  const claim =
    !state.claimed &&
    html`<form method="post" action="${here}/claim"><button type="submit">${notice ? w.share : w.claim}</button></form>`;
  // The notice of automated matching, and "Don't match me" until it is said (extensions.md §7).
  const matching = !state.optedOut
    ? html`<p>${w.matchingNotice(state.company)}</p>`
    : done === 'optedOut'
      ? html`<p role="status">${w.optedOutBody(state.company)}</p>`
      : html`<p>${w.optedOutBody(state.company)}</p>`;
  const optOut =
    !state.optedOut &&
    html`<form method="post" action="${here}/no-matching"><button type="submit" class="secondary">${w.optOut}</button></form>`;
  const body = html`<h1>${title}</h1>${done === 'claimed' && html`<p role="status">${w.claimedBody}</p>`}<p>${intro}</p>${matching}${!notice && renderVirtualCv(state.cv, w, lang)}<div class="actions">${claim}${optOut}<form method="post" action="${here}/delete"><button type="submit" class="secondary">${notice ? w.forget : w.delete}</button></form></div>${wayBack(state)}`;
  return sendPage(reply, 200, lang, title, body);
}

// No length bound here: a token that is not ours, whatever its length, answers the 404 page rather
// than a JSON 400 (openLink checks the shape; the router already caps a parameter at 200 chars).
const TokenParams = Type.Object({ token: Type.String() });

/** The candidate's link: the page, and its buttons (console.md "Candidate links"; "Don't match me", extensions.md §7). */
export const claimPages: Route = (app, { services: { cv } }) => {
  app.register(async (pages) => {
    // The buttons post an empty HTML form; only the route's own path carries meaning.
    acceptForms(pages, FORM_LIMITS.buttons);
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
      '/cv/:token/no-matching',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const state = await cv.optOut((request.params as { token: string }).token);
        return answer(reply, state, 'optedOut');
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
