import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import { consoleCall, jobsAccount, newAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createDraft } from './support/jobs.ts';

const ctx = useTestApp();

async function auditActions(accountId: string): Promise<string[]> {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/audit`);
  return res.json().entries.map((entry: { action: string }) => entry.action);
}

describe('console roles, forged requests and other accounts', () => {
  test('each role sees only its navigation; a page it lacks answers 403', async () => {
    const account = await newAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, account.id, 'recruiter');
    const billing = await signedIn(ctx.app, account.id, 'billing_admin');
    const admin = await signedIn(ctx.app, account.id, 'admin');
    const nav = (html: string) => [...html.matchAll(/<li><a href="\/console\/(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(nav((await recruiter.web.get('/console/jobs')).body), ['jobs', 'screening', 'security']);
    assert.deepEqual(nav((await billing.web.get('/console/billing')).body), ['billing', 'security']);
    assert.deepEqual(nav((await admin.web.get('/console/jobs')).body), [
      'jobs',
      'screening',
      'billing',
      'keys',
      'webhooks',
      'settings',
      'privacy',
      'users',
      'activity',
      'security',
    ]);
    for (const path of [
      '/console/keys',
      '/console/webhooks',
      '/console/settings',
      '/console/privacy',
      '/console/users',
      '/console/activity',
      '/console/billing',
    ]) {
      assert.equal((await recruiter.web.get(path)).statusCode, 403, path);
    }
    for (const path of ['/console/jobs', '/console/keys', '/console/screening']) {
      assert.equal((await billing.web.get(path)).statusCode, 403, path);
    }
  });

  test('forged posts of a role without the right answer 403 and change nothing', async () => {
    const account = await newAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, account.id, 'recruiter');
    const billing = await signedIn(ctx.app, account.id, 'billing_admin');
    const before = await auditActions(account.id);
    await recruiter.web.get('/console/jobs');
    const forged: [string, Record<string, string>][] = [
      ['/console/keys', { scopes: 'jobs:read', name: 'forged' }],
      ['/console/settings/address', { companyAddress: 'stolen-address' }],
      ['/console/settings/addendum', { agree: 'yes' }],
      ['/console/privacy/erase', { email: 'someone@example.com', confirm: 'yes' }],
      ['/console/users', { email: 'mole@example.com', role: 'admin' }],
      [`/console/users/${recruiter.userId}/role`, { role: 'admin' }],
      ['/console/billing/cap', { cap: '999999' }],
    ];
    for (const [path, fields] of forged) {
      const res = await recruiter.web.post(path, fields);
      assert.equal(res.statusCode, 403, path);
    }
    await billing.web.get('/console/billing');
    const job = await billing.web.post('/console/jobs', { title: 'Forged job' });
    assert.equal(job.statusCode, 403);
    const account2 = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}`)).json().account;
    assert.equal(account2.dpaAcceptedAt, null);
    assert.notEqual(account2.companyAddress, 'stolen-address');
    assert.equal(account2.limits.monthlyOverageCapCents, 50000);
    assert.deepEqual((await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys, []);
    const users = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/users`)).json().users;
    assert.equal(users.find((u: { id: string }) => u.id === recruiter.userId).role, 'recruiter');
    assert.equal(users.length, 2);
    assert.deepEqual(await auditActions(account.id), before);
  });

  test('forged form fields: an unknown role is refused; the account always comes from the session', async () => {
    const account = await newAccount(ctx.app);
    const other = await newAccount(ctx.app);
    const admin = await signedIn(ctx.app, account.id, 'admin');
    await admin.web.get('/console/users');
    const bad = await admin.web.post('/console/users', { email: 'x@example.com', role: 'superadmin' });
    assert.equal(bad.statusCode, 303);
    const page = await admin.web.get('/console/users');
    assert.match(page.body, /is not a role/);
    await admin.web.get('/console/keys');
    const res = await admin.web.post('/console/keys', {
      scopes: 'jobs:read',
      name: 'mine',
      accountId: other.id,
    });
    assert.equal(res.statusCode, 303, 'minted, then sent to the page that shows the secret once');
    assert.equal((await consoleCall(ctx.app, 'GET', `/accounts/${other.id}/keys`)).json().keys.length, 0);
    assert.equal((await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys.length, 1);
  });

  test("another account's job, key and user answer 404 and stay as they were", async () => {
    const mine = await newAccount(ctx.app);
    const theirs = await jobsAccount(ctx.app);
    const job = await createDraft(theirs.api, { title: 'Their job' });
    const theirKey = (
      await consoleCall(ctx.app, 'POST', `/accounts/${theirs.account.id}/keys`, { scopes: ['jobs:read'] })
    ).json().key;
    const theirUser = (
      await consoleCall(ctx.app, 'POST', `/accounts/${theirs.account.id}/users`, {
        email: 'their-admin@example.com',
        role: 'admin',
      })
    ).json().user;
    const admin = await signedIn(ctx.app, mine.id, 'admin');
    for (const path of [
      `/console/jobs/${job.id}`,
      `/console/jobs/${job.id}/applications`,
      `/console/jobs/${job.id}/matches`,
    ]) {
      assert.equal((await admin.web.get(path)).statusCode, 404, path);
    }
    await admin.web.get('/console/jobs');
    for (const path of [
      `/console/jobs/${job.id}/publish`,
      `/console/jobs/${job.id}/close`,
      `/console/keys/${theirKey.id}/revoke`,
      `/console/users/${theirUser.id}/remove`,
      `/console/users/${theirUser.id}/role`,
    ]) {
      const res = await admin.web.post(path, { role: 'recruiter' });
      assert.equal(res.statusCode, 404, path);
    }
    assert.equal(
      (await consoleCall(ctx.app, 'GET', `/accounts/${theirs.account.id}/keys`))
        .json()
        .keys.filter((k: { revokedAt: string | null }) => k.revokedAt).length,
      0,
    );
    assert.equal(
      (await consoleCall(ctx.app, 'GET', `/accounts/${theirs.account.id}/users`)).json().users[0].role,
      'admin',
    );
  });

  test('the last admin cannot demote or remove themselves', async () => {
    const account = await newAccount(ctx.app);
    const admin = await signedIn(ctx.app, account.id, 'admin');
    await admin.web.get('/console/users');
    const res = await admin.web.post(`/console/users/${admin.userId}/role`, { role: 'recruiter' });
    assert.equal(res.statusCode, 303);
    assert.match((await admin.web.get('/console/users')).body, /must keep at least one admin/);
    const users = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/users`)).json().users;
    assert.equal(users[0].role, 'admin');
  });
});
