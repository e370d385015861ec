import { CONSOLE_ROLES, type ConsoleRole, type ConsoleUser } from '../../contract/console-users.ts';
import { ROLE_LABELS } from '../../domain/console-users/rights.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { badRequest } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { buttonForm, csrfField, dataTable, renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/;

function roleOf(value: string): ConsoleRole {
  if (!(CONSOLE_ROLES as readonly string[]).includes(value)) {
    throw badRequest(`"${value.slice(0, 40)}" is not a role; roles are admin, recruiter and billing_admin.`, {
      field: 'role',
    });
  }
  return value as ConsoleRole;
}

function roleSelect(id: string, current: ConsoleRole | null): SafeHtml {
  return html`<select id="${id}" name="role">${CONSOLE_ROLES.map(
    (role) =>
      html`<option value="${role}"${role === current && html` selected`}>${ROLE_LABELS[role]}</option>`,
  )}</select>`;
}

function body(
  session: ConsoleSession,
  users: ConsoleUser[],
  inviteUrl: string | null,
  twoStep: ReadonlySet<string>,
): SafeHtml {
  const rows = users.map((user) => {
    const self = user.id === session.userId;
    const on = twoStep.has(user.id);
    const reset =
      on &&
      !self &&
      html`
${buttonForm(session, `/console/users/${user.id}/two-step/reset`, 'Reset two-step sign-in', true, `of ${user.email}`)}`;
    return [
      html`${user.email}${self && html` <span class="muted">(you)</span>`}`,
      ROLE_LABELS[user.role],
      user.active ? 'Active' : 'Invited',
      on ? 'On' : 'Off',
      when(user.createdAt),
      html`
<form class="inline" method="post" action="/console/users/${user.id}/role">${csrfField(session)}<label class="hp" for="role-${user.id}">Role of ${user.email}</label>${roleSelect(`role-${user.id}`, user.role)} <button type="submit">Change role<span class="hp"> of ${user.email}</span></button></form>
${buttonForm(session, `/console/users/${user.id}/remove`, 'Remove', true, user.email)}${reset}`,
    ];
  });
  const link =
    inviteUrl &&
    html`<section class="card"><h2>Invitation link</h2><p>The invitation went out by mail. You can also pass this single-use link on (valid 7 days):</p><p class="secret">${inviteUrl}</p></section>`;
  const columns = ['Email', 'Role', 'State', 'Two-step sign-in', 'Since', 'Actions'];
  return html`${link}${dataTable({ columns, rows })}
<h2>Invite a user</h2><form method="post" action="/console/users">${csrfField(session)}
<label for="invite-email">Email</label><input type="email" id="invite-email" name="email" required maxlength="254">
<label for="invite-role">Role</label>${roleSelect('invite-role', 'recruiter')}
<p class="hint">Admins manage keys, settings and users; recruiters handle jobs, applications and screening; billing admins see billing and set the cap.</p>
<div class="actions"><button type="submit">Invite user</button></div></form>`;
}

/** Users (admins): invite, change role, remove. */
export function registerUsersPage(app: App, deps: WebDeps): void {
  usersPage(app, deps);
  postUsers(app, deps);
  postUsersRole(app, deps);
  postUsersRemove(app, deps);
  postUsersResetTwoStep(app, deps);
}

/** Recovery: an admin takes another user's second factor away (audited); they set it up again. */
function postUsersResetTwoStep(app: App, deps: WebDeps): void {
  const { accountSafety } = deps.services;
  postAction(
    app,
    deps,
    '/console/users/:userId/two-step/reset',
    'users',
    () => '/console/users',
    async ({ request, session }) => {
      const { userId } = request.params as { userId: string };
      const { email } = await accountSafety.resetSecondFactor(session.accountId, userId, actorOf(session));
      return {
        to: '/console/users',
        flash: `Two-step sign-in of ${email} is reset; they are signed out and sign in with their password alone (or set it up again if the account requires it).`,
      };
    },
  );
}

function usersPage(app: App, deps: WebDeps): void {
  const { consoleUsers } = deps.services;
  getPage(app, deps, '/console/users', 'users', async ({ reply, session, flash }) =>
    renderConsole(reply, session, {
      title: 'Users',
      active: 'users',
      flash,
      body: body(
        session,
        await consoleUsers.list(session.accountId),
        null,
        await deps.services.accountSafety.totpUsers(session.accountId),
      ),
    }),
  );
}

function postUsers(app: App, deps: WebDeps): void {
  const { consoleUsers } = deps.services;
  postAction(
    app,
    deps,
    '/console/users',
    'users',
    () => '/console/users',
    async ({ reply, session, form }) => {
      const email = form.get('email').trim();
      if (!EMAIL.test(email))
        throw badRequest('Enter the email address of the person to invite.', { field: 'email' });
      const invited = await consoleUsers.invite(
        session.accountId,
        { email, role: roleOf(form.get('role')) },
        actorOf(session),
      );
      reply.header('cache-control', 'no-store');
      renderConsole(reply, session, {
        title: 'Users',
        active: 'users',
        flash: { kind: 'ok', text: `Invitation sent to ${invited.user.email}.` },
        body: body(
          session,
          await consoleUsers.list(session.accountId),
          invited.inviteUrl,
          await deps.services.accountSafety.totpUsers(session.accountId),
        ),
      });
      return undefined;
    },
  );
}

function postUsersRole(app: App, deps: WebDeps): void {
  const { consoleUsers } = deps.services;
  postAction(
    app,
    deps,
    '/console/users/:userId/role',
    'users',
    () => '/console/users',
    async ({ request, session, form }) => {
      const { userId } = request.params as { userId: string };
      const user = await consoleUsers.changeRole(
        session.accountId,
        userId,
        roleOf(form.get('role')),
        actorOf(session),
      );
      return {
        to: '/console/users',
        flash: `${user.email} is now ${ROLE_LABELS[user.role].toLowerCase()}.`,
      };
    },
  );
}

function postUsersRemove(app: App, deps: WebDeps): void {
  const { consoleUsers } = deps.services;
  postAction(
    app,
    deps,
    '/console/users/:userId/remove',
    'users',
    () => '/console/users',
    async ({ request, session }) => {
      const { userId } = request.params as { userId: string };
      await consoleUsers.remove(session.accountId, userId, actorOf(session));
      return { to: '/console/users', flash: 'User removed; their sessions have ended.' };
    },
  );
}
