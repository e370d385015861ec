import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressBucket } from '../../lib/client-address.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { homeOf, renderPublic } from './layout.ts';
import {
  cookie,
  formOf,
  preSessionToken,
  preSessionTokenValid,
  SESSION_COOKIE,
  sameToken,
  sessionOf,
  setCookie,
  type WebDeps,
} from './web.ts';

const WINDOW_MS = 15 * 60_000;
/** Sign-in attempts one email, and one client address, may make in 15 minutes. */
export const SIGN_IN_LIMITS = { perEmail: 10, perAddress: 30 };
const WRONG = 'The email or the password is not right.';

function form(token: string, email: string, error: string | null): SafeHtml {
  return html`${error && html`<p class="alert" role="alert">${error}</p>`}<form method="post" action="/console/login">
<input type="hidden" name="csrf" value="${token}">
<label for="email">Email</label><input type="email" id="email" name="email" autocomplete="username" required value="${email}">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div></form>`;
}

/** Sign-in, sign-out and /console itself. */
export function registerSignIn(app: App, deps: WebDeps): void {
  app.get('/console', { schema: { hide: true } }, async (request, reply) => {
    const session = await sessionOf(request, deps);
    return reply.redirect(session === null ? '/console/login' : homeOf(session), 303);
  });

  app.get('/console/login', { schema: { hide: true } }, async (request, reply) => {
    const session = await sessionOf(request, deps);
    if (session !== null) return reply.redirect(homeOf(session), 303);
    return showForm(deps, request, reply, 200, '', null);
  });

  app.post('/console/login', { schema: { hide: true } }, (request, reply) => signIn(deps, request, reply));

  app.post('/console/logout', { schema: { hide: true } }, async (request, reply) => {
    const id = cookie(request, SESSION_COOKIE);
    const session = await sessionOf(request, deps);
    // Only a form of the console signs out (a cross-site post cannot).
    if (id !== undefined && session !== null && sameToken(formOf(request).get('csrf'), session.csrf)) {
      await deps.services.consoleUsers.signOut(id);
      setCookie(reply, deps, SESSION_COOKIE, '', { maxAge: 0 });
    }
    return reply.redirect('/console/login', 303);
  });
}

/** Counts the attempt; the seconds to wait when the email or the address is over its budget. */
async function throttled(deps: WebDeps, request: FastifyRequest, email: string): Promise<number | null> {
  const now = deps.clock.now().getTime();
  // The email is counted by its hash: the counters hold no address.
  const emailKey = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const [byEmail, byAddress] = await Promise.all([
    deps.rateLimits.hit(`console-sign-in:email:${emailKey}`, WINDOW_MS, now),
    deps.rateLimits.hit(`console-sign-in:address:${addressBucket(request.ip)}`, WINDOW_MS, now),
  ]);
  const over = [
    byEmail.count > SIGN_IN_LIMITS.perEmail ? byEmail.resetAtMs : 0,
    byAddress.count > SIGN_IN_LIMITS.perAddress ? byAddress.resetAtMs : 0,
  ];
  const until = Math.max(...over);
  return until === 0 ? null : Math.max(1, Math.ceil((until - now) / 1000));
}

function showForm(
  deps: WebDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  email: string,
  error: string | null,
) {
  return renderPublic(
    reply,
    status,
    'Sign in to the careers console',
    form(preSessionToken(request, reply, deps), email, error),
  );
}

/** POST /console/login: the form's token, the attempt budgets, the password, then a new session. */
async function signIn(deps: WebDeps, request: FastifyRequest, reply: FastifyReply) {
  const { consoleUsers } = deps.services;
  const fields = formOf(request);
  const email = fields.get('email').slice(0, 254);
  if (!preSessionTokenValid(request)) {
    return showForm(deps, request, reply, 403, email, 'The form had expired. Please sign in again.');
  }
  const wait = await throttled(deps, request, email);
  if (wait !== null) {
    reply.header('retry-after', String(wait));
    const error = `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60)} minutes.`;
    return showForm(deps, request, reply, 429, email, error);
  }
  const session = await consoleUsers.signIn(email, fields.get('password'));
  if (session === null) return showForm(deps, request, reply, 401, email, WRONG);
  // A new session id at every sign-in: an id planted before it (session fixation) is worthless.
  const planted = cookie(request, SESSION_COOKIE);
  if (planted !== undefined && !sameToken(planted, session.id)) await consoleUsers.signOut(planted);
  setCookie(reply, deps, SESSION_COOKIE, session.id);
  const signedIn = await consoleUsers.session(session.id);
  return reply.redirect(signedIn ? homeOf(signedIn) : '/console/login', 303);
}
