import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  takeFlash,
  type WebDeps,
} from './web.ts';

const WINDOW_MS = 15 * 60_000;
/**
 * Failed sign-ins (issue 25 C: successes are not counted, and no one address can keep a user out).
 * Over `perAddressAndEmail` failures for one email from one client address, or `perAddress` from
 * one address in all, that address is refused (429) until its 15-minute window ends. One email's
 * failures from every address never refuse: past `slowAfter` each attempt on it waits before it is
 * answered, from `firstDelayMs` doubling to at most `maxDelayMs`.
 */
export const SIGN_IN_LIMITS = {
  perAddressAndEmail: 10,
  perAddress: 30,
  slowAfter: 5,
  firstDelayMs: 250,
  maxDelayMs: 4_000,
};
const WRONG = 'The email or the password is not right.';

function form(token: string, email: string, error: string | null, notice: string | null = null): SafeHtml {
  return html`${notice && html`<p class="flash ok" role="status">${notice}</p>`}${error && html`<p class="alert" role="alert">${error}</p>`}<form method="post" action="/console/login">
<input type="hidden" name="csrf" value="${token}">
<label for="email">Email</label><input type="email" id="email" name="email" autocomplete="username" required value="${email}">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div></form>
<p><a href="/console/forgot">Forgot your password?</a></p>`;
}

/** The cookie of a half-signed sign-in (password right, second step due). */
export const PENDING_COOKIE = 'console_pending';

/** A full session begins: the half-signed sign-in's cookie, if any, goes. */
export function completeSignIn(request: FastifyRequest, reply: FastifyReply, deps: WebDeps): void {
  if (cookie(request, PENDING_COOKIE) !== undefined)
    setCookie(reply, deps, PENDING_COOKIE, '', { maxAge: 0 });
}

/** Sign-in and sign-out (/console itself is Home: home-page.ts). */
export function registerSignIn(app: App, deps: WebDeps): void {
  app.get('/console/login', { schema: { hide: true } }, async (request, reply) => {
    const session = await sessionOf(request, deps);
    if (session !== null) return reply.redirect(homeOf(session), 303);
    const flash = takeFlash(request, reply, deps);
    return showForm(deps, request, reply, 200, '', null, flash?.kind === 'ok' ? flash.text : null);
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

interface Counters {
  pair: string;
  address: string;
  email: string;
  now: number;
}

/**
 * The counters of this attempt. Attempts are counted when they arrive and successes apart
 * (`:ok`), failures being the difference: a burst of attempts sent at once is counted before any
 * is checked. The email is counted by its hash: the counters hold no address.
 */
function countersOf(deps: WebDeps, request: FastifyRequest, email: string): Counters {
  const emailKey = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const bucket = addressBucket(request.ip);
  return {
    pair: `console-sign-in:pair:${bucket}:${emailKey}`,
    address: `console-sign-in:address:${bucket}`,
    email: `console-sign-in:email:${emailKey}`,
    now: deps.clock.now().getTime(),
  };
}

/** Counts the attempt; the seconds to wait when its address is over a budget, or null. */
async function refusal(deps: WebDeps, c: Counters): Promise<number | null> {
  const { rateLimits } = deps;
  const [pair, address, addressOk] = await Promise.all([
    rateLimits.hit(c.pair, WINDOW_MS, c.now),
    rateLimits.hit(c.address, WINDOW_MS, c.now),
    rateLimits.peek(`${c.address}:ok`, WINDOW_MS, c.now),
  ]);
  const over = [
    pair.count > SIGN_IN_LIMITS.perAddressAndEmail ? pair.resetAtMs : 0,
    address.count - addressOk.count > SIGN_IN_LIMITS.perAddress ? address.resetAtMs : 0,
  ];
  const until = Math.max(...over);
  return until === 0 ? null : Math.max(1, Math.ceil((until - c.now) / 1000));
}

/** The wait before an attempt on an email that failed `failures` times (from any address). */
export function slowDownMs(failures: number): number {
  if (failures < SIGN_IN_LIMITS.slowAfter) return 0;
  const doublings = Math.min(failures - SIGN_IN_LIMITS.slowAfter, 16);
  return Math.min(SIGN_IN_LIMITS.maxDelayMs, SIGN_IN_LIMITS.firstDelayMs * 2 ** doublings);
}

/** Counts the attempt on the email and waits as its earlier failures say (a timer: nothing blocks). */
async function slowDown(deps: WebDeps, c: Counters): Promise<void> {
  const [attempts, ok] = await Promise.all([
    deps.rateLimits.hit(c.email, WINDOW_MS, c.now),
    deps.rateLimits.peek(`${c.email}:ok`, WINDOW_MS, c.now),
  ]);
  const wait = slowDownMs(attempts.count - 1 - ok.count);
  if (wait > 0) await sleep(wait);
}

/** A success: the (address, email) starts afresh; the address and the email count one success. */
async function succeeded(deps: WebDeps, c: Counters): Promise<void> {
  await Promise.all([
    deps.rateLimits.clear(c.pair, WINDOW_MS, c.now),
    deps.rateLimits.hit(`${c.address}:ok`, WINDOW_MS, c.now),
    deps.rateLimits.hit(`${c.email}:ok`, WINDOW_MS, c.now),
  ]);
}

function showForm(
  deps: WebDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  email: string,
  error: string | null,
  notice: string | null = null,
) {
  return renderPublic(
    reply,
    status,
    'Sign in to the careers console',
    form(preSessionToken(request, reply, deps), email, error, notice),
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
  const counters = countersOf(deps, request, email);
  const wait = await refusal(deps, counters);
  if (wait !== null) {
    reply.header('retry-after', String(wait));
    const error = `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60)} minutes.`;
    return showForm(deps, request, reply, 429, email, error);
  }
  await slowDown(deps, counters);
  const outcome = await consoleUsers.signIn(email, fields.get('password'));
  if (outcome === null) return showForm(deps, request, reply, 401, email, WRONG);
  await succeeded(deps, counters);
  // A new session id at every sign-in: an id planted before it (session fixation) is worthless.
  const planted = cookie(request, SESSION_COOKIE);
  if (planted !== undefined && !sameToken(planted, outcome.id)) await consoleUsers.signOut(planted);
  if (outcome.kind === 'pending') {
    // Half signed in: the second step reads the pending id (server-side, ten minutes) from its cookie.
    setCookie(reply, deps, SESSION_COOKIE, '', { maxAge: 0 });
    setCookie(reply, deps, PENDING_COOKIE, outcome.id, { maxAge: 600, sameSite: 'Strict' });
    return reply.redirect(outcome.step === 'code' ? '/console/login/code' : '/console/login/setup', 303);
  }
  completeSignIn(request, reply, deps);
  const session = outcome;
  setCookie(reply, deps, SESSION_COOKIE, session.id);
  const signedIn = await consoleUsers.session(session.id);
  return reply.redirect(signedIn ? homeOf(signedIn) : '/console/login', 303);
}
