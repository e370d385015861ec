import type { Account } from '../../contract/console.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { csrfField, renderConsole, when } from './layout.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

function body(session: ConsoleSession, account: Account): SafeHtml {
  const addendum = account.dpaAcceptedAt
    ? html`<p>The data-processing addendum was accepted on ${when(account.dpaAcceptedAt)}.</p>`
    : html`<p>Until an admin accepts the data-processing addendum, no key can take applications (<code>applications:write</code>).</p>
<form method="post" action="/console/settings/addendum">${csrfField(session)}
<label class="check"><input type="checkbox" name="agree" value="yes" required> I accept the data-processing addendum on behalf of ${account.companyName ?? account.name}</label>
<div class="actions"><button type="submit">Accept addendum</button></div></form>`;
  return html`<section class="card" aria-labelledby="address-h"><h2 id="address-h">Company address</h2>
<p>Your job pages live at <code>/en/jobs/${account.companyAddress ?? 'your-address'}/…</code>. Changing it moves every published role; the old address redirects.</p>
<form method="post" action="/console/settings/address">${csrfField(session)}
<label for="address">Company address</label><input type="text" id="address" name="companyAddress" required minlength="2" maxlength="60" value="${account.companyAddress}" aria-describedby="address-hint">
<p class="hint" id="address-hint">2 to 60 characters: a–z, 0–9 and single hyphens.</p>
<div class="actions"><button type="submit">Save address</button></div></form></section>
<section class="card" aria-labelledby="dpa-h"><h2 id="dpa-h">Data-processing addendum</h2>${addendum}</section>`;
}

/** Settings (admins): the company address and the data-processing addendum. */
export function registerSettingsPage(app: App, deps: WebDeps): void {
  const { accounts, audit } = deps.services;

  getPage(app, deps, '/console/settings', 'settings', async ({ reply, session, flash }) =>
    renderConsole(reply, session, {
      title: 'Settings',
      active: 'settings',
      flash,
      body: body(session, await accounts.get(session.accountId)),
    }),
  );

  postAction(
    app,
    deps,
    '/console/settings/address',
    'settings',
    () => '/console/settings',
    async ({ session, form }) => {
      const address = form.get('companyAddress').trim().toLowerCase();
      const updated = await accounts.update(
        session.accountId,
        { companyAddress: address },
        audit.sealed(session.accountId, actorOf(session), ({ before, after }) =>
          before.companyAddress === after.companyAddress
            ? null
            : {
                action: 'account.address_changed',
                detail: { before: before.companyAddress, after: after.companyAddress },
              },
        ),
      );
      return { to: '/console/settings', flash: `Company address saved: ${updated.companyAddress}.` };
    },
  );

  postAction(
    app,
    deps,
    '/console/settings/addendum',
    'settings',
    () => '/console/settings',
    async ({ session, form }) => {
      if (form.get('agree') !== 'yes') {
        return { to: '/console/settings', flash: 'Tick the box to accept the addendum.' };
      }
      await accounts.update(
        session.accountId,
        { dpaAccepted: true },
        audit.sealed(session.accountId, actorOf(session), ({ before, after }) =>
          before.dpaAcceptedAt === after.dpaAcceptedAt ? null : { action: 'account.addendum_accepted' },
        ),
      );
      return { to: '/console/settings', flash: 'Data-processing addendum accepted.' };
    },
  );
}
