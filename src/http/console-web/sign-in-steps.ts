import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecondStep } from '../../domain/console-users/security-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { homeOf, renderPublic } from './layout.ts';
import { completeSignIn, PENDING_COOKIE } from './sign-in.ts';
import { CODE_LIMITS, codeCounterKeys, codeField, setupBlock, TWO_STEP_STYLE } from './two-step.ts';
import {
  cookie,
  formOf,
  preSessionToken,
  preSessionTokenValid,
  SESSION_COOKIE,
  setCookie,
  type WebDeps,
} from './web.ts';

const AGAIN = html`<p>This sign-in has expired or had too many wrong codes. <a href="/console/login">Sign in again</a>.</p>`;

function codeForm(csrf: string, error: string | null): SafeHtml {
  return html`${TWO_STEP_STYLE}<p>Your account uses two-step sign-in. Enter the code your authenticator app shows.</p>${error && html`<p class="alert" role="alert">${error}</p>`}
<form method="post" action="/console/login/code"><input type="hidden" name="csrf" value="${csrf}">
${codeField()}<div class="actions"><button type="submit">Verify code</button></div></form>
<p class="hint">Lost your phone? Ask an admin of the account to reset your two-step sign-in.</p>
<p><a href="/console/login">Sign in as someone else</a></p>`;
}

function setupForm(csrf: string, setup: SafeHtml, error: string | null): SafeHtml {
  return html`${TWO_STEP_STYLE}<p>Your account requires two-step sign-in: set it up once to continue. From now on, signing in asks for your password and a code from your phone.</p>${error && html`<p class="alert" role="alert">${error}</p>`}
${setup}<form method="post" action="/console/login/setup"><input type="hidden" name="csrf" value="${csrf}">
${codeField()}<div class="actions"><button type="submit">Turn on and sign in</button></div></form>`;
}

/**
 * The second step of sign-in (extensions.md §4): the password was right and the half-signed state
 * lives server-side, named by a ten-minute cookie. Either a code of the user's app is due, or (the
 * account requires TOTP and the user has none) setting the app up, before anything else opens.
 */
export function registerSignInSteps(app: App, deps: WebDeps): void {
  const { accountSafety, consoleUsers } = deps.services;
  const pendingId = (request: FastifyRequest) => cookie(request, PENDING_COOKIE) ?? '';

  function gone(reply: FastifyReply) {
    setCookie(reply, deps, PENDING_COOKIE, '', { maxAge: 0 });
    return renderPublic(reply, 410, 'Sign in again', AGAIN);
  }

  /** Wrong codes from one client address are refused past their budget (429). */
  async function overBudget(request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
    const keys = codeCounterKeys(request, 'pending');
    const now = deps.clock.now().getTime();
    const seen = await deps.rateLimits.peek(keys.address, CODE_LIMITS.windowMs, now);
    if (seen.count < CODE_LIMITS.perAddress) return null;
    const wait = Math.max(1, Math.ceil((seen.resetAtMs - now) / 1000));
    reply.header('retry-after', String(wait));
    return `Too many wrong codes. Try again in ${Math.ceil(wait / 60)} minutes.`;
  }

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: SecondStep,
    retry: (error: string) => unknown,
  ) {
    if (outcome.kind === 'gone') return gone(reply);
    if (outcome.kind === 'wrong') {
      const keys = codeCounterKeys(request, 'pending');
      await deps.rateLimits.hit(keys.address, CODE_LIMITS.windowMs, deps.clock.now().getTime());
      return retry(`That code is not right (or was used already). ${outcome.left} tries left.`);
    }
    completeSignIn(request, reply, deps);
    setCookie(reply, deps, SESSION_COOKIE, outcome.id);
    const signedIn = await consoleUsers.session(outcome.id);
    return reply.redirect(signedIn ? homeOf(signedIn) : '/console/login', 303);
  }

  app.get('/console/login/code', { schema: { hide: true } }, async (request, reply) => {
    const pending = await accountSafety.pending(pendingId(request));
    if (pending?.step !== 'code') return reply.redirect('/console/login', 303);
    return renderPublic(reply, 200, 'Enter your code', codeForm(preSessionToken(request, reply, deps), null));
  });

  app.post('/console/login/code', { schema: { hide: true } }, async (request, reply) => {
    const id = pendingId(request);
    const pending = await accountSafety.pending(id);
    if (pending?.step !== 'code') return gone(reply);
    const csrf = preSessionToken(request, reply, deps);
    const retry = (status: number) => (error: string) =>
      renderPublic(reply, status, 'Enter your code', codeForm(csrf, error));
    if (!preSessionTokenValid(request)) return retry(403)('The form had expired. Please try again.');
    const refused = await overBudget(request, reply);
    if (refused !== null) return retry(429)(refused);
    return answer(
      request,
      reply,
      await accountSafety.pendingCode(id, formOf(request).get('code')),
      retry(401),
    );
  });

  app.get('/console/login/setup', { schema: { hide: true } }, async (request, reply) => {
    const setup = await accountSafety.pendingSetup(pendingId(request));
    if (setup === null) return reply.redirect('/console/login', 303);
    const csrf = preSessionToken(request, reply, deps);
    return renderPublic(reply, 200, 'Set up two-step sign-in', setupForm(csrf, setupBlock(setup), null));
  });

  app.post('/console/login/setup', { schema: { hide: true } }, async (request, reply) => {
    const id = pendingId(request);
    const setup = await accountSafety.pendingSetup(id);
    if (setup === null) return gone(reply);
    const csrf = preSessionToken(request, reply, deps);
    const retry = (status: number) => (error: string) =>
      renderPublic(reply, status, 'Set up two-step sign-in', setupForm(csrf, setupBlock(setup), error));
    if (!preSessionTokenValid(request)) return retry(403)('The form had expired. Please try again.');
    const refused = await overBudget(request, reply);
    if (refused !== null) return retry(429)(refused);
    return answer(
      request,
      reply,
      await accountSafety.pendingConfirm(id, formOf(request).get('code')),
      retry(401),
    );
  });
}
