import type { FastifyRequest } from 'fastify';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { AppError, rateLimited } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { buttonForm, csrfField, renderConsole, when } from './layout.ts';
import { CODE_LIMITS, codeCounterKeys, codeField, setupBlock, TWO_STEP_STYLE } from './two-step.ts';
import { getPage, postAction, type WebDeps } from './web.ts';

type Status = Awaited<ReturnType<WebDeps['services']['accountSafety']['totpStatus']>>;

function body(session: ConsoleSession, status: Status): SafeHtml {
  const required =
    status.required && html`<p>Your account's admins require two-step sign-in for everyone.</p>`;
  if (status.enabledAt !== null) {
    const off = status.required
      ? html`<p class="hint">It cannot be turned off while the account requires it.</p>`
      : html`<h3>Turn it off</h3><form method="post" action="/console/security/two-step/disable">${csrfField(session)}
${codeField('Current code from your app')}<div class="actions"><button type="submit" class="danger">Turn off two-step sign-in</button></div></form>`;
    return html`${TWO_STEP_STYLE}<section class="card" aria-labelledby="totp-h"><h2 id="totp-h">Two-step sign-in</h2>
<p><strong>On</strong> since ${when(status.enabledAt)}. Signing in asks for your password and a code from your authenticator app.</p>${required}${off}</section>`;
  }
  const setup = status.setup
    ? html`${setupBlock(status.setup)}<form method="post" action="/console/security/two-step/confirm">${csrfField(session)}
${codeField()}<div class="actions"><button type="submit">Turn on two-step sign-in</button></div></form>
<p class="hint">The key is shown only until you turn two-step sign-in on.</p>${buttonForm(session, '/console/security/two-step/start', 'Make a new key')}`
    : html`<form method="post" action="/console/security/two-step/start">${csrfField(session)}<div class="actions"><button type="submit">Set up two-step sign-in</button></div></form>`;
  return html`${TWO_STEP_STYLE}<section class="card" aria-labelledby="totp-h"><h2 id="totp-h">Two-step sign-in</h2>
<p><strong>Off.</strong> With it on, signing in asks for a 6-digit code from an authenticator app on your phone as well as your password: a stolen password alone no longer opens your account.</p>${required}${setup}</section>`;
}

/** Your security (every role): the signed-in user's own two-step sign-in. */
export function registerSecurityPage(app: App, deps: WebDeps): void {
  const { accountSafety } = deps.services;

  getPage(app, deps, '/console/security', 'self', async ({ reply, session, flash }) => {
    reply.header('cache-control', 'no-store');
    return renderConsole(reply, session, {
      title: 'Your security',
      active: 'security',
      flash,
      body: body(session, await accountSafety.totpStatus(session)),
    });
  });

  postAction(
    app,
    deps,
    '/console/security/two-step/start',
    'self',
    () => '/console/security',
    async ({ session }) => {
      await accountSafety.startSetup(session);
      return { to: '/console/security', flash: 'Scan the QR code or type the key, then enter a code.' };
    },
  );

  /** A wrong code counts against the user and the client address; past the budget, refused. */
  async function withCodeBudget(
    request: FastifyRequest,
    session: ConsoleSession,
    check: () => Promise<void>,
  ) {
    const keys = codeCounterKeys(request, session.userId);
    const now = deps.clock.now().getTime();
    const [user, address] = await Promise.all([
      deps.rateLimits.peek(keys.user, CODE_LIMITS.windowMs, now),
      deps.rateLimits.peek(keys.address, CODE_LIMITS.windowMs, now),
    ]);
    if (user.count >= CODE_LIMITS.perUser || address.count >= CODE_LIMITS.perAddress) {
      throw rateLimited('Too many wrong codes. Wait a few minutes and try again.', 60);
    }
    try {
      await check();
    } catch (error) {
      if (error instanceof AppError && error.status === 400) {
        await Promise.all([
          deps.rateLimits.hit(keys.user, CODE_LIMITS.windowMs, now),
          deps.rateLimits.hit(keys.address, CODE_LIMITS.windowMs, now),
        ]);
      }
      throw error;
    }
  }

  postAction(
    app,
    deps,
    '/console/security/two-step/confirm',
    'self',
    () => '/console/security',
    async ({ request, session, form }) => {
      await withCodeBudget(request, session, () => accountSafety.confirmSetup(session, form.get('code')));
      return { to: '/console/security', flash: 'Two-step sign-in is on: signing in now asks for a code.' };
    },
  );

  postAction(
    app,
    deps,
    '/console/security/two-step/disable',
    'self',
    () => '/console/security',
    async ({ request, session, form }) => {
      await withCodeBudget(request, session, () => accountSafety.disable(session, form.get('code')));
      return { to: '/console/security', flash: 'Two-step sign-in is off.' };
    },
  );
}
