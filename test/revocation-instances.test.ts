// Issue 14: whatever the guard remembers to make a request cheaper, a key revoked through one
// instance fails on the very next request on every other instance, including one that has just
// served it and one that is refusing it from memory as over its limit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DbHandle } from '../src/db/connect.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { memoryStore } from '../src/rate-limit/store.ts';
import { client, consoleCall, jobsAccount } from './support/accounts.ts';
import { closeDatabase, database, startApp, type TestContext } from './support/app.ts';

let handle: DbHandle;
const opened: TestContext[] = [];

before(async () => {
  handle = await database();
});

after(async () => {
  for (const ctx of opened) await ctx.close();
  await closeDatabase();
});

async function instance(clock: ManualClock, rateLimits: ReturnType<typeof memoryStore>) {
  const ctx = await startApp({ clock, rateLimits, handle });
  opened.push(ctx);
  return ctx;
}

test('a key revoked on one instance fails with 401 on the next request to every other', async () => {
  const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
  const counters = memoryStore({ generations: true });
  const [first, second, third] = [
    await instance(clock, counters),
    await instance(clock, counters),
    await instance(clock, counters),
  ];
  const { account, key } = await jobsAccount(first.app, { limits: { requestsPerMinute: 1_000 } });
  // Every instance has served the key, so each remembers it as a good key.
  for (const ctx of [first, second, third]) {
    for (let i = 0; i < 3; i++)
      assert.equal((await client(ctx.app, key.secret).get('/v1/jobs')).statusCode, 200);
  }

  const revoked = await consoleCall(first.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`);
  assert.equal(revoked.statusCode, 204);
  for (const ctx of [second, third, first]) {
    const res = await client(ctx.app, key.secret).get('/v1/jobs');
    assert.equal(res.statusCode, 401, res.body);
  }
});

test('a key refused from memory as over its limit is never answered 200 after its revocation', async () => {
  const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
  const counters = memoryStore({ generations: true });
  const [first, second] = [await instance(clock, counters), await instance(clock, counters)];
  const { account, key } = await jobsAccount(first.app, { limits: { requestsPerMinute: 2 } });
  const api = client(second.app, key.secret);
  for (let i = 0; i < 2; i++) assert.equal((await api.get('/v1/jobs')).statusCode, 200);
  assert.equal((await api.get('/v1/jobs')).statusCode, 429);

  assert.equal(
    (await consoleCall(first.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`)).statusCode,
    204,
  );
  // Still refused within the window (429 costs nothing), then 401 once the window ends.
  assert.equal((await api.get('/v1/jobs')).statusCode, 429);
  clock.advance(60_000);
  assert.equal((await api.get('/v1/jobs')).statusCode, 401);
});
