import type { ApiKey } from '../../contract/console.ts';
import { SCOPES } from '../../contract/vocabulary.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { badRequest } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { buttonForm, csrfField, dataTable, renderConsole, when } from './layout.ts';
import { alreadyShown, secretBox } from './shown-once.ts';
import { actorOf, type Flash, getPage, postAction, type WebDeps } from './web.ts';
import { MODE_WORDS, TEST_DATA_WORDS } from './words.ts';

type TestCounts = { jobs: number; applications: number; candidates: number };

/** The test data's section (extensions.md §8): shown apart, with its one button. */
function testDataSection(session: ConsoleSession, counts: TestCounts): SafeHtml {
  const w = TEST_DATA_WORDS;
  return html`<h2>${w.heading}</h2><p>${w.about}</p><p data-test-counts>${w.counts(counts.jobs, counts.applications, counts.candidates)}</p>
<p>${buttonForm(session, '/console/keys/test-data/delete', w.deleteButton, true)}</p>`;
}

function keysBody(
  session: ConsoleSession,
  keys: ApiKey[],
  dpaAccepted: boolean,
  counts: TestCounts,
): SafeHtml {
  const checks = SCOPES.map(
    (scope) =>
      html`<label class="check"><input type="checkbox" name="scopes" value="${scope}"> ${scope}${scope === 'applications:write' && !dpaAccepted && html` <span class="muted">(needs the addendum accepted in Settings)</span>`}</label>`,
  );
  const rows = keys.map((key) => [
    key.name ?? '—',
    MODE_WORDS[key.mode] ?? key.mode,
    key.scopes.join(', '),
    when(key.createdAt),
    when(key.lastUsedAt),
    key.revokedAt
      ? html`Revoked ${when(key.revokedAt)}`
      : buttonForm(session, `/console/keys/${key.id}/revoke`, `Revoke ${key.name ?? key.id}`, true),
  ]);
  const table = keys.length
    ? dataTable({
        caption: html`<caption class="muted">Keys of the account; a secret is never shown again.</caption>`,
        columns: ['Name', 'Mode', 'Scopes', 'Created', 'Last used', 'State'],
        rows,
      })
    : html`<p>No API keys yet — mint one below to connect your site.</p>`;
  return html`<h2>Keys</h2>${table}
<h2>Mint a key</h2><form method="post" action="/console/keys">${csrfField(session)}
<label for="key-name">Name</label><input type="text" id="key-name" name="name" maxlength="200" placeholder="Careers site">
<fieldset><legend>${TEST_DATA_WORDS.modeLegend}</legend><label class="check"><input type="radio" name="mode" value="live" checked> ${TEST_DATA_WORDS.liveChoice}</label><label class="check"><input type="radio" name="mode" value="test"> ${TEST_DATA_WORDS.testChoice}</label></fieldset>
<fieldset><legend>Scopes</legend>${checks}</fieldset>
<div class="actions"><button type="submit">Mint key</button></div></form>${testDataSection(session, counts)}`;
}

/** API keys (admins): mint with scopes (the secret shown once), revoke, last used. */
export function registerKeysPage(app: App, deps: WebDeps): void {
  keysPage(app, deps);
  mintedPage(app, deps);
  postKeys(app, deps);
  postKeysRevoke(app, deps);
  postDeleteTestData(app, deps);
}

function postDeleteTestData(app: App, deps: WebDeps): void {
  const { testData, audit } = deps.services;
  postAction(
    app,
    deps,
    '/console/keys/test-data/delete',
    'keys',
    () => '/console/keys',
    async ({ session }) => {
      const deleted = await testData.eraseAll(
        session.accountId,
        audit.sealed(session.accountId, actorOf(session), (counts: TestCounts) => ({
          action: 'test_data.deleted',
          target: session.accountId,
          detail: { ...counts },
        })),
      );
      return { to: '/console/keys', flash: TEST_DATA_WORDS.deleted(deleted.jobs) };
    },
  );
}

async function show(
  deps: WebDeps,
  reply: Parameters<typeof renderConsole>[0],
  session: ConsoleSession,
  flash: Flash | null,
  status = 200,
) {
  const { keys, accounts } = deps.services;
  const [list, account, counts] = await Promise.all([
    keys.list(session.accountId),
    accounts.get(session.accountId),
    deps.services.testData.counts(session.accountId),
  ]);
  return renderConsole(reply, session, {
    title: 'API keys',
    active: 'keys',
    flash,
    status,
    body: keysBody(session, list, account.dpaAcceptedAt !== null, counts),
  });
}

function keysPage(app: App, deps: WebDeps): void {
  getPage(app, deps, '/console/keys', 'keys', ({ reply, session, flash }) =>
    show(deps, reply, session, flash),
  );
}

/**
 * GET /console/keys/new?shown=: the page a mint redirects to (POST-redirect-GET). It shows the
 * secret held for it once; a reload finds it gone and mints nothing.
 */
function mintedPage(app: App, deps: WebDeps): void {
  getPage(app, deps, '/console/keys/new', 'keys', async ({ request, reply, session, flash }) => {
    const { shown } = request.query as { shown?: string };
    const held = await deps.services.accountSafety.take(session, 'key', String(shown ?? ''));
    reply.header('cache-control', 'no-store');
    const back = { href: '/console/keys', label: 'Back to the list' };
    return renderConsole(reply, session, {
      title: 'Your new API key',
      active: 'keys',
      flash,
      body: held
        ? html`${secretBox('new-secret', `Key ${held.label}`, 'Copy the secret now and keep it somewhere safe: it is shown only this once.', held.secret)}<p><a href="${back.href}">${back.label}</a></p>`
        : alreadyShown('The secret of this key', back),
    });
  });
}

function postKeys(app: App, deps: WebDeps): void {
  const { keys, audit } = deps.services;
  postAction(
    app,
    deps,
    '/console/keys',
    'keys',
    () => '/console/keys',
    async ({ session, form }) => {
      const name = form.get('name').trim();
      const scopes = form.all('scopes');
      if (scopes.length === 0) throw badRequest('Choose at least one scope.', { field: 'scopes' });
      const minted = await keys.mint(
        session.accountId,
        {
          scopes: scopes.slice(0, SCOPES.length * 2),
          name: name === '' ? null : name.slice(0, 200),
          mode: form.get('mode') === 'test' ? 'test' : 'live',
        },
        audit.sealed(session.accountId, actorOf(session), (result) => ({
          action: 'key.minted',
          target: result.key.id,
          detail: { name: result.key.name, scopes: result.key.scopes, mode: result.key.mode },
        })),
      );
      const label = minted.key.name ?? minted.key.id;
      const shown = await deps.services.accountSafety.hold(session, 'key', label, minted.secret);
      return { to: `/console/keys/new?shown=${shown}`, flash: `Key ${label} minted.` };
    },
  );
}

function postKeysRevoke(app: App, deps: WebDeps): void {
  const { keys, audit } = deps.services;
  postAction(
    app,
    deps,
    '/console/keys/:keyId/revoke',
    'keys',
    () => '/console/keys',
    async ({ request, session }) => {
      const { keyId } = request.params as { keyId: string };
      await keys.revoke(
        session.accountId,
        keyId,
        audit.sealed(session.accountId, actorOf(session), () => ({ action: 'key.revoked', target: keyId })),
      );
      return { to: '/console/keys', flash: 'Key revoked: it is refused from the next request on.' };
    },
  );
}
