// Issue 12 item 4: a retry after a crash succeeds within seconds, still exactly once. Two real
// service processes on one PostgreSQL database; the first is SIGKILLed while it holds the
// Idempotency-Key's claim (its write waits on a table lock this test holds), and the client's
// retry goes to the second.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { OWNER_SILENT_MS } from '../src/domain/idempotency/idempotency-service.ts';
import { accountWithKey, type ServiceProcess, startService } from './service-process.ts';
import { testConfig } from './support/app.ts';

const skip =
  testConfig.databaseUrl === null ? 'needs DATABASE_URL (PostgreSQL shared by two processes)' : false;

let first: ServiceProcess;
let second: ServiceProcess;
let admin: pg.Client;

before(async () => {
  if (skip) return;
  [first, second] = await Promise.all([startService({ ROLE: 'api' }), startService({ ROLE: 'api' })]);
  admin = new pg.Client({ connectionString: testConfig.databaseUrl! });
  await admin.connect();
});

after(async () => {
  if (skip) return;
  first?.kill('SIGKILL');
  second?.kill('SIGKILL');
  await admin?.end();
});

function createJob(service: ServiceProcess, secret: string, key: string, title: string) {
  return fetch(`${service.baseUrl}/v1/jobs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ title, category: 'engineering', description: '<p>Crash test.</p>' }),
  });
}

describe('a crash mid-request', { skip }, () => {
  test('the dead process claim is taken over within seconds; the job is created exactly once', async () => {
    const secret = await accountWithKey(first, ['jobs:read', 'jobs:write']);
    const key = `crash-${process.pid}-${Date.now()}`;
    const title = `Crash ${key}`;
    const locker = new pg.Client({ connectionString: testConfig.databaseUrl! });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE jobs IN EXCLUSIVE MODE');
      const inFlight = createJob(first, secret, key, title).catch(() => null);
      // The claim is taken (its own transaction) before the write, which now waits on the lock.
      for (let i = 0; i < 100; i++) {
        const { rowCount } = await admin.query('SELECT 1 FROM idempotency_records WHERE key = $1', [key]);
        if (rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      first.kill('SIGKILL');
      await first.exited;
      assert.equal(await inFlight, null, 'the first process never answered');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }

    const killedAt = Date.now();
    let res = await createJob(second, secret, key, title);
    let conflicts = 0;
    while (res.status === 409 && Date.now() - killedAt < 30_000) {
      conflicts += 1;
      await new Promise((resolve) => setTimeout(resolve, 250));
      res = await createJob(second, secret, key, title);
    }
    const tookMs = Date.now() - killedAt;
    console.log({ retryAfterCrashMs: tookMs, conflicts });
    assert.equal(res.status, 201, await res.clone().text());
    assert.ok(tookMs < OWNER_SILENT_MS + 5_000, `the retry succeeded after ${tookMs} ms`);
    const jobId = ((await res.json()) as { job: { id: string } }).job.id;

    const replay = await createJob(second, secret, key, title);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await replay.json()) as { job: { id: string } }).job.id, jobId);
    const { rows } = await admin.query("SELECT id FROM jobs WHERE content->>'title' = $1", [title]);
    assert.deepEqual(
      rows.map((r) => r.id),
      [jobId],
      'exactly one job',
    );
  });
});
