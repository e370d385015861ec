import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, newAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { mailTo } from './support/mail.ts';

const ctx = useTestApp();

const email = () => `${unique('user')}@example.com`.toLowerCase();

describe('console users through /console/v1 (operator token)', () => {
  test('an invitation answers the user and a single-use link, and goes out by mail', async () => {
    const account = await newAccount(ctx.app);
    const address = email();
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: address.toUpperCase(),
      role: 'admin',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const { user, inviteUrl } = res.json();
    assert.equal(user.email, address);
    assert.equal(user.role, 'admin');
    assert.equal(user.active, false);
    assert.match(user.createdAt, /^\d{4}-\d\d-\d\dT/);
    assert.match(inviteUrl, /^https:\/\/careers\.test\/console\/invite\/[A-Za-z0-9_-]{43}$/);
    const mail = await mailTo(ctx.app, address);
    assert.equal(mail.length, 1);
    assert.ok(mail[0]!.text.includes(inviteUrl), mail[0]!.text);

    const listed = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/users`);
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(listed.json().users, [user]);
    assert.doesNotMatch(listed.body, /scrypt|password/i);

    const audit = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/audit`);
    assert.equal(audit.statusCode, 200, audit.body);
    const [entry] = audit.json().entries;
    assert.equal(entry.action, 'user.invited');
    assert.deepEqual(entry.actor, { kind: 'operator', userId: null, email: null });
    assert.deepEqual(entry.detail, { email: address, role: 'admin' });
    assert.equal(entry.target, user.id);
  });

  test('bad input and taken addresses are refused in the error body', async () => {
    const account = await newAccount(ctx.app);
    const bad = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: email(),
      role: 'owner',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(errorOf(bad).code, 'bad_request');
    const extra = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: email(),
      role: 'admin',
      accountId: 'acc_other',
    });
    assert.equal(extra.statusCode, 400);
    const address = email();
    const first = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: address,
      role: 'recruiter',
    });
    assert.equal(first.statusCode, 201);
    // Taken within the account: 409. Another account may invite the same address (issue 25.4).
    const taken = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: address,
      role: 'admin',
    });
    assert.equal(taken.statusCode, 409);
    assert.equal(errorOf(taken).code, 'conflict');
    const other = await newAccount(ctx.app);
    const elsewhere = await consoleCall(ctx.app, 'POST', `/accounts/${other.id}/users`, {
      email: address,
      role: 'admin',
    });
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    const missing = await consoleCall(ctx.app, 'POST', '/accounts/acc_missing/users', {
      email: email(),
      role: 'admin',
    });
    assert.equal(missing.statusCode, 404);
    assert.equal(errorOf(missing).code, 'not_found');
    const noToken = await ctx.app.inject({ method: 'GET', url: `/console/v1/accounts/${account.id}/users` });
    assert.equal(noToken.statusCode, 401);
  });

  test("removing a user: another account's user is 404, a removed user is gone", async () => {
    const account = await newAccount(ctx.app);
    const other = await newAccount(ctx.app);
    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: email(),
      role: 'recruiter',
    });
    const userId = invited.json().user.id;
    const cross = await consoleCall(ctx.app, 'DELETE', `/accounts/${other.id}/users/${userId}`);
    assert.equal(cross.statusCode, 404);
    const removed = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/users/${userId}`);
    assert.equal(removed.statusCode, 204);
    const listed = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/users`);
    assert.deepEqual(listed.json().users, []);
    const again = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/users/${userId}`);
    assert.equal(again.statusCode, 404);
    const audit = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/audit`)).json();
    assert.deepEqual(
      audit.entries.map((e: { action: string }) => e.action),
      ['user.removed', 'user.invited'],
    );
    const crossAudit = await consoleCall(ctx.app, 'GET', '/accounts/acc_missing/audit');
    assert.equal(crossAudit.statusCode, 404);
  });

  test('the audit trail pages newest first in write order; a foreign cursor is 400', async () => {
    const account = await newAccount(ctx.app);
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) {
      const address = email();
      emails.push(address);
      await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
        email: address,
        role: 'recruiter',
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await consoleCall(
        ctx.app,
        'GET',
        `/accounts/${account.id}/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      for (const entry of res.json().entries) seen.push(entry.detail.email);
      cursor = res.json().nextCursor;
    } while (cursor !== null);
    assert.deepEqual(seen, emails.reverse());
    const bad = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/audit?cursor=nonsense`);
    assert.equal(bad.statusCode, 400);
    assert.equal(errorOf(bad).code, 'bad_request');
  });

  test("the operator's account, key and user changes join the account's trail", async () => {
    const account = await newAccount(ctx.app);
    const patched = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, {
      companyAddress: unique('moved'),
      dpaAccepted: true,
      limits: { monthlyOverageCapCents: 90_000, managedAdSlots: 7 },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const minted = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read'],
      name: 'ops',
    });
    const keyId = minted.json().key.id;
    assert.equal(
      (await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${keyId}`)).statusCode,
      204,
    );
    const refused = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, {
      companyAddress: 'Not valid!',
    });
    assert.equal(refused.statusCode, 400);
    const entries = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/audit`)).json().entries;
    assert.deepEqual(
      entries.map((e: { action: string }) => e.action),
      [
        'key.revoked',
        'key.minted',
        'account.updated',
        'account.cap_changed',
        'account.addendum_accepted',
        'account.address_changed',
      ],
    );
    assert.ok(entries.every((e: { actor: { kind: string } }) => e.actor.kind === 'operator'));
    assert.deepEqual(entries[2].detail, { 'limits.managedAdSlots': { before: 5, after: 7 } });
    assert.deepEqual(entries[3].detail, { beforeCents: 50000, afterCents: 90000 });
    assert.doesNotMatch(JSON.stringify(entries), new RegExp(minted.json().secret));
  });
});
