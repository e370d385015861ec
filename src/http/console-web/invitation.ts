import { Type } from 'typebox';
import { PASSWORD_MIN } from '../../contract/console-users.ts';
import { AppError } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { homeOf, renderPublic } from './layout.ts';
import { PENDING_COOKIE } from './sign-in.ts';
import {
  formOf,
  preSessionToken,
  preSessionTokenValid,
  SESSION_COOKIE,
  setCookie,
  type WebDeps,
} from './web.ts';

const Params = Type.Object({ token: Type.String() });
const GONE = html`<p>This invitation link was used already or has expired. Ask an admin of the account to invite you again.</p>`;

/** The page an invitation link opens: the person sets a password and is signed in. */
export function registerInvitation(app: App, deps: WebDeps): void {
  const { consoleUsers } = deps.services;

  function form(token: string, csrf: string, email: string, error: string | null): SafeHtml {
    return html`<p>You are joining as <strong>${email}</strong>. Choose a password of at least ${PASSWORD_MIN} characters.</p>${error && html`<p class="alert" role="alert">${error}</p>`}
<form method="post" action="/console/invite/${token}"><input type="hidden" name="csrf" value="${csrf}">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${PASSWORD_MIN} characters.</p>
<div class="actions"><button type="submit">Set password and sign in</button></div></form>`;
  }

  app.get('/console/invite/:token', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const state = await consoleUsers.openInvitation(token);
    if (state.kind !== 'open') {
      return renderPublic(reply, state.kind === 'gone' ? 410 : 404, 'Invitation not valid', GONE);
    }
    return renderPublic(
      reply,
      200,
      'Set your password',
      form(token, preSessionToken(request, reply, deps), state.email, null),
    );
  });

  app.post('/console/invite/:token', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const state = await consoleUsers.openInvitation(token);
    if (state.kind !== 'open') {
      return renderPublic(reply, state.kind === 'gone' ? 410 : 404, 'Invitation not valid', GONE);
    }
    const csrf = preSessionToken(request, reply, deps);
    if (!preSessionTokenValid(request)) {
      return renderPublic(
        reply,
        403,
        'Set your password',
        form(token, csrf, state.email, 'The form had expired. Please try again.'),
      );
    }
    try {
      const session = await consoleUsers.acceptInvitation(token, formOf(request).get('password'));
      if (session === null) return renderPublic(reply, 410, 'Invitation not valid', GONE);
      if (session.kind === 'pending') {
        // The account requires two-step sign-in: it is set up before anything else opens.
        setCookie(reply, deps, PENDING_COOKIE, session.id, { maxAge: 600, sameSite: 'Strict' });
        return reply.redirect('/console/login/setup', 303);
      }
      setCookie(reply, deps, SESSION_COOKIE, session.id);
      const signedIn = await consoleUsers.session(session.id);
      return reply.redirect(signedIn ? homeOf(signedIn) : '/console/login', 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      return renderPublic(reply, 400, 'Set your password', form(token, csrf, state.email, error.message));
    }
  });
}
