import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PASSWORD_MIN } from '../../contract/console-users.ts';
import { AppError } from '../../domain/errors.ts';
import { addressBucket } from '../../lib/client-address.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { renderPublic } from './layout.ts';
import { formOf, preSessionToken, preSessionTokenValid, setFlash, type WebDeps } from './web.ts';

/**
 * "Forgot password" requests: per client address and per address asked about, in 15 minutes.
 * Past either, 429 whatever the address (an unknown one is counted the same).
 */
export const RESET_LIMITS = { perAddress: 20, perEmail: 5, windowMs: 15 * 60_000 };
/**
 * The answer to a request is never sent sooner than this after it arrived: a known address (a link
 * made and mailed) and an unknown one (nothing done) take the same time.
 */
export const RESET_ANSWER_FLOOR_MS = 400;

const Params = Type.Object({ resetToken: Type.String() });
const GONE = html`<p>This link was used already or has expired (a link works once, for one hour). <a href="/console/forgot">Ask for a new link</a>.</p>`;
const SENT =
  'If a console user has this address, a link to choose a new password is on its way. It works once, for one hour. Check your inbox (and the spam folder).';

function forgotForm(
  csrf: string,
  email: string,
  message: { kind: 'ok' | 'error'; text: string } | null,
): SafeHtml {
  const note =
    message &&
    (message.kind === 'ok'
      ? html`<p class="flash ok" role="status">${message.text}</p>`
      : html`<p class="alert" role="alert">${message.text}</p>`);
  return html`${note}<p>Enter the email you sign in with. We will send you a link to choose a new password.</p>
<form method="post" action="/console/forgot"><input type="hidden" name="csrf" value="${csrf}">
<label for="email">Email</label><input type="email" id="email" name="email" autocomplete="username" required maxlength="254" value="${email}">
<div class="actions"><button type="submit">Send reset link</button></div></form>
<p><a href="/console/login">Back to sign in</a></p>`;
}

function resetForm(token: string, csrf: string, email: string, error: string | null): SafeHtml {
  return html`<p>Choose a new password for <strong>${email}</strong>. Every place you are signed in will be signed out.</p>${error && html`<p class="alert" role="alert">${error}</p>`}
<form method="post" action="/console/reset/${token}"><input type="hidden" name="csrf" value="${csrf}">
<label for="password">New password</label><input type="password" id="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${PASSWORD_MIN} characters.</p>
<div class="actions"><button type="submit">Set new password</button></div></form>`;
}

/** Forgot password (extensions.md §4): a single-use link, one hour, the same answer for any address. */
export function registerPasswordReset(app: App, deps: WebDeps): void {
  const { accountSafety } = deps.services;

  app.get('/console/forgot', { schema: { hide: true } }, async (request, reply) =>
    renderPublic(
      reply,
      200,
      'Reset your password',
      forgotForm(preSessionToken(request, reply, deps), '', null),
    ),
  );

  app.post('/console/forgot', { schema: { hide: true } }, async (request, reply) => {
    const started = performance.now();
    const email = formOf(request).get('email').trim().slice(0, 254);
    const csrf = preSessionToken(request, reply, deps);
    const show = (status: number, message: { kind: 'ok' | 'error'; text: string }, value = email) =>
      renderPublic(reply, status, 'Reset your password', forgotForm(csrf, value, message));
    if (!preSessionTokenValid(request)) {
      return show(403, { kind: 'error', text: 'The form had expired. Please try again.' });
    }
    const wait = await refusal(deps, request, email);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      return show(429, {
        kind: 'error',
        text: `Too many requests. Try again in ${Math.ceil(wait / 60)} minutes.`,
      });
    }
    if (email !== '') {
      try {
        await accountSafety.requestReset(email);
      } catch (error) {
        request.log.error({ err: error }, 'a password reset could not be made');
      }
    }
    const left = RESET_ANSWER_FLOOR_MS - (performance.now() - started);
    if (left > 0) await sleep(left);
    return show(200, { kind: 'ok', text: SENT }, '');
  });

  app.get(
    '/console/reset/:resetToken',
    { schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { resetToken: token } = request.params as { resetToken: string };
      const state = await accountSafety.openReset(token);
      if (state.kind !== 'open') return invalid(reply, state.kind);
      const csrf = preSessionToken(request, reply, deps);
      return renderPublic(reply, 200, 'Choose a new password', resetForm(token, csrf, state.email, null));
    },
  );

  app.post(
    '/console/reset/:resetToken',
    { schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { resetToken: token } = request.params as { resetToken: string };
      const state = await accountSafety.openReset(token);
      if (state.kind !== 'open') return invalid(reply, state.kind);
      const csrf = preSessionToken(request, reply, deps);
      const again = (status: number, error: string) =>
        renderPublic(reply, status, 'Choose a new password', resetForm(token, csrf, state.email, error));
      if (!preSessionTokenValid(request)) return again(403, 'The form had expired. Please try again.');
      try {
        if (!(await accountSafety.completeReset(token, formOf(request).get('password'))))
          return invalid(reply, 'gone');
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        return again(400, error.message);
      }
      setFlash(reply, deps, { kind: 'ok', text: 'Your password is changed. Sign in with it now.' });
      return reply.redirect('/console/login', 303);
    },
  );
}

function invalid(reply: FastifyReply, kind: 'gone' | 'unknown') {
  return renderPublic(reply, kind === 'gone' ? 410 : 404, 'Link not valid', GONE);
}

/** Counts the request; the seconds to wait when its client address or the address asked about is over budget. */
async function refusal(deps: WebDeps, request: FastifyRequest, email: string): Promise<number | null> {
  const now = deps.clock.now().getTime();
  const emailKey = createHash('sha256').update(email.toLowerCase()).digest('hex');
  const [address, asked] = await Promise.all([
    deps.rateLimits.hit(`console-reset:address:${addressBucket(request.ip)}`, RESET_LIMITS.windowMs, now),
    deps.rateLimits.hit(`console-reset:email:${emailKey}`, RESET_LIMITS.windowMs, now),
  ]);
  const over = [
    address.count > RESET_LIMITS.perAddress ? address.resetAtMs : 0,
    asked.count > RESET_LIMITS.perEmail ? asked.resetAtMs : 0,
  ];
  const until = Math.max(...over);
  return until === 0 ? null : Math.max(1, Math.ceil((until - now) / 1000));
}
