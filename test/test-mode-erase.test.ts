import assert from 'node:assert/strict';
import { test } from 'node:test';
import { client, consoleCall, newAccount, newKey } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { dumpDatabase } from './support/dump.ts';
import { applyTo, importCandidate } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';

/**
 * "Delete all test data" (extensions.md §8): DELETE /console/v1/accounts/{accountId}/test-data
 * erases every row the test keys made; keys and webhook endpoints stay; the erased jobs' pages
 * answer 404; live data is left byte for byte as it was.
 */

const ctx = useTestApp({ webhooks: { allowPrivate: true } });

test('deleting test data erases it all, keeps keys and webhooks, and leaves live data byte for byte', async () => {
  const account = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 100_000 } });
  const other = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 100_000 } });
  const scopes = ['jobs:read', 'jobs:write', 'applications:write'];
  const live = client(ctx.app, (await newKey(ctx.app, account.id, scopes)).secret);
  const testKey = client(ctx.app, (await newKey(ctx.app, account.id, scopes, 'test')).secret);
  // Another account's test data is not this account's to delete.
  const otherTest = client(ctx.app, (await newKey(ctx.app, other.id, scopes, 'test')).secret);
  for (const mode of ['live', 'test'])
    await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/webhooks`, {
      url: `http://127.0.0.1:9/${mode}`,
      mode,
    });

  const liveJob = await createPublished(live);
  await applyTo(ctx, live, liveJob.id);
  await importCandidate(ctx, live);
  const testJob = await createPublished(testKey);
  const testApplicant = await applyTo(ctx, testKey, testJob.id);
  const testImport = await importCandidate(ctx, testKey);
  const otherJob = await createPublished(otherTest);
  await drainAll(ctx.worker);
  const twin = await ctx.handle.db
    .selectFrom('accounts')
    .select('id')
    .where('live_account_id', '=', account.id)
    .executeTakeFirstOrThrow();
  const testIds = [twin.id, testJob.id, testApplicant.candidateId, testImport.candidateId];
  const isTest = (line: string) => testIds.some((id) => line.includes(id));

  const before = (await dumpDatabase(ctx)).split('\n');
  const res = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/test-data`);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(
    {
      jobs: res.json().deleted.jobs,
      applications: res.json().deleted.applications,
      candidates: res.json().deleted.candidates,
    },
    { jobs: 1, applications: 1, candidates: 1 },
  );
  const after = (await dumpDatabase(ctx)).split('\n');

  // The one new row: the deletion's audit entry.
  const audited = (l: string) =>
    l.startsWith('console_audit:') && l.includes('"action":"test_data.deleted"') && l.includes(account.id);
  assert.equal(after.filter(audited).length, 1);
  // Live data (and everything else): the same rows, byte for byte.
  assert.deepEqual(
    after.filter((l) => !isTest(l) && !audited(l)).sort(),
    before.filter((l) => !isTest(l)).sort(),
  );
  // Test data: nothing left but the twin's own accounts row, and the task log's entries (ids
  // only: a finished one goes with the task sweep; a queued one, e.g. a matches refresh, finds
  // nothing to do).
  assert.deepEqual(
    after
      .filter(isTest)
      .map((l) => l.slice(0, l.indexOf(':')))
      .filter((table) => table !== 'tasks'),
    ['accounts'],
  );
  assert.ok(before.filter(isTest).length > 10, 'there was test data to delete');

  // The test job's page is gone; the test key still works; the other account's test job stays.
  assertError(await testKey.get(`/v1/jobs/${testJob.id}`), 404, 'not_found');
  const page = await ctx.app.inject({ method: 'GET', url: new URL(testJob.url!).pathname });
  assert.equal(page.statusCode, 404);
  assert.deepEqual((await testKey.get('/v1/jobs')).json().jobs, []);
  assert.equal((await otherTest.get(`/v1/jobs/${otherJob.id}`)).statusCode, 200);
  const keys = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`);
  assert.equal(keys.json().keys.length, 2);
  const hooks = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/webhooks`);
  assert.deepEqual(
    hooks
      .json()
      .webhooks.map((w: { mode: string }) => w.mode)
      .sort(),
    ['live', 'test'],
  );
  assert.equal((await createPublished(testKey)).status, 'published');
  // Again: nothing left to delete.
  const again = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/test-data`);
  assert.equal(again.json().deleted.jobs, 1);
});
