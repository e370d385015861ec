import type { Account } from '../../contract/console.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { csrfField, renderConsole, when } from './layout.ts';
import { SETTINGS_MATCHING_WORDS } from './match-words.ts';
import { actorOf, getPage, postAction, type WebDeps } from './web.ts';

function twoStepCard(session: ConsoleSession, required: boolean): SafeHtml {
  const state = required
    ? html`<p><strong>Required.</strong> Every user signs in with a password and a code from an authenticator app; a user without one sets it up at their next sign-in before anything else opens.</p>`
    : html`<p><strong>Optional.</strong> Each user chooses in Your security. Requiring it makes every user without it set it up at their next sign-in, before anything else opens.</p>`;
  return html`<section class="card" aria-labelledby="two-step-h"><h2 id="two-step-h">Two-step sign-in</h2>${state}
<form method="post" action="/console/settings/two-step">${csrfField(session)}<input type="hidden" name="require" value="${required ? 'no' : 'yes'}">
<div class="actions"><button type="submit"${required && html` class="danger"`}>${required ? 'Stop requiring two-step sign-in' : 'Require two-step sign-in'}</button></div></form></section>`;
}

function matchingCard(session: ConsoleSession, enabled: boolean): SafeHtml {
  const W = SETTINGS_MATCHING_WORDS;
  return html`<section class="card" aria-labelledby="matching-h"><h2 id="matching-h">${W.heading}</h2><p>${enabled ? W.on : W.off}</p>
<form method="post" action="/console/settings/matching">${csrfField(session)}<input type="hidden" name="enabled" value="${enabled ? 'no' : 'yes'}">
<div class="actions"><button type="submit"${enabled && html` class="danger"`}>${enabled ? W.switchOff : W.switchOn}</button></div></form></section>`;
}

/** The careers embed (extensions.md §9): the sites that may frame the pages, and the snippet to paste. */
function embedCard(session: ConsoleSession, account: Account, base: string): SafeHtml {
  const snippet = account.companyAddress
    ? // Markup to copy, made by the template (its values escaped), then shown as text.
      String(
        html`<script src="${base}/embed/${account.companyAddress}.js" data-lang="en" data-accent="#1b1b1f" async></script>`,
      )
    : null;
  return html`<section class="card" aria-labelledby="embed-h"><h2 id="embed-h">Careers page on your site</h2>
<p>Your careers page lists every live role: <code>/en/jobs/${account.companyAddress ?? 'your-address'}</code>. To show it inside your own website, list the sites that may embed it and paste the snippet into a page of one of them. Other sites cannot frame your pages.</p>
<form method="post" action="/console/settings/embed">${csrfField(session)}
<label for="embed-origins">Sites that may embed your pages</label><textarea id="embed-origins" name="embedOrigins" rows="4" aria-describedby="embed-hint">${account.embedOrigins.join('\n')}</textarea>
<p class="hint" id="embed-hint">One per line, at most 20, each like https://www.example.com (a port may follow; http:// only for localhost and 127.0.0.1).</p>
<div class="actions"><button type="submit">Save sites</button></div></form>
${snippet ? html`<label for="embed-snippet">Snippet to paste</label><textarea id="embed-snippet" rows="3" readonly>${snippet}</textarea><p class="hint">data-lang: en, es, fr or pt. data-category: one category only. data-accent: your colour, as #rrggbb.</p>` : html`<p>Choose a company address first.</p>`}</section>`;
}

function body(session: ConsoleSession, account: Account, requiresTotp: boolean, base: string): SafeHtml {
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
${embedCard(session, account, base)}
<section class="card" aria-labelledby="dpa-h"><h2 id="dpa-h">Data-processing addendum</h2>${addendum}</section>
${twoStepCard(session, requiresTotp)}
${matchingCard(session, account.matchingEnabled)}`;
}

/** Settings (admins): the company address and the data-processing addendum. */
export function registerSettingsPage(app: App, deps: WebDeps): void {
  const { accounts, audit, accountSafety, matches } = deps.services;

  getPage(app, deps, '/console/settings', 'settings', async ({ reply, session, flash }) =>
    renderConsole(reply, session, {
      title: 'Settings',
      active: 'settings',
      flash,
      body: body(
        session,
        await accounts.get(session.accountId),
        await accountSafety.requiresTotp(session.accountId),
        deps.publicBaseUrl ?? '',
      ),
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
    '/console/settings/embed',
    'settings',
    () => '/console/settings',
    async ({ session, form }) => {
      const origins = form
        .get('embedOrigins')
        .split(/[\s,]+/)
        .filter(Boolean);
      const updated = await accounts.update(
        session.accountId,
        { embedOrigins: origins },
        audit.sealed(session.accountId, actorOf(session), ({ before, after }) =>
          before.embedOrigins.join(' ') === after.embedOrigins.join(' ')
            ? null
            : {
                action: 'account.updated',
                detail: { embedOrigins: { before: before.embedOrigins, after: after.embedOrigins } },
              },
        ),
      );
      const n = updated.embedOrigins.length;
      return {
        to: '/console/settings',
        flash:
          n === 0
            ? 'No site may embed your pages now.'
            : `Saved: ${n} site${n === 1 ? '' : 's'} may embed your pages.`,
      };
    },
  );

  postAction(
    app,
    deps,
    '/console/settings/two-step',
    'settings',
    () => '/console/settings',
    async ({ session, form }) => {
      const require = form.get('require') === 'yes';
      await accountSafety.setRequireTotp(session.accountId, require, actorOf(session));
      return {
        to: '/console/settings',
        flash: require
          ? 'Two-step sign-in is required: users without it set it up at their next sign-in.'
          : 'Two-step sign-in is optional again.',
      };
    },
  );

  postAction(
    app,
    deps,
    '/console/settings/matching',
    'settings',
    () => '/console/settings',
    async ({ session, form }) => {
      const enabled = form.get('enabled') === 'yes';
      await accounts.update(
        session.accountId,
        { matchingEnabled: enabled },
        audit.sealed(session.accountId, actorOf(session), ({ before, after }) =>
          before.matchingEnabled === after.matchingEnabled
            ? null
            : { action: enabled ? 'account.matching_enabled' : 'account.matching_disabled' },
        ),
      );
      if (enabled) await matches.refresh(session.accountId);
      return {
        to: '/console/settings',
        flash: enabled ? SETTINGS_MATCHING_WORDS.switchedOn : SETTINGS_MATCHING_WORDS.switchedOff,
      };
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
