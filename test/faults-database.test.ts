// Issue 12 item 1: a dropped PostgreSQL connection (pg_terminate_backend under load, a restarted
// server) never kills the process; reads are retried once; a write that could not run answers 503
// `unavailable` with Retry-After; /readyz follows the database; the service recovers by itself.
// Runs on the PostgreSQL server of DATABASE_URL; terminates only the backends of its own
// application_name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { type DbHandle, openDatabase } from '../src/db/connect.ts';
import { migrate } from '../src/db/migrate.ts';
import { jobsAccount, unique } from './support/accounts.ts';
import { closeDatabase, METRICS_TOKEN, startApp, type TestContext, testConfig } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { jobBody } from './support/jobs.ts';

const skip = testConfig.databaseUrl === null ? 'needs DATABASE_URL (PostgreSQL)' : false;
const APP_NAME = `careers-faults-test-${process.pid}`;

function named(url: string, applicationName: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', applicationName);
  return u.toString();
}

let admin: pg.Client;
let handle: DbHandle;
let ctx: TestContext;
const connectionErrors: Error[] = [];

/** Terminates every backend of this test's pool; answers how many it ended. */
async function terminateOurBackends(): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE application_name = $1 AND datname = current_database() AND pid <> pg_backend_pid()`,
    [APP_NAME],
  );
  return rows[0]!.n;
}

before(async () => {
  if (skip) return;
  admin = new pg.Client({ connectionString: testConfig.databaseUrl! });
  await admin.connect();
  handle = await openDatabase({
    databaseUrl: named(testConfig.databaseUrl!, APP_NAME),
    dataDir: null,
    postgres: { onConnectionError: (error) => connectionErrors.push(error) },
  });
  await migrate(handle);
  ctx = await startApp({ handle });
});

after(async () => {
  if (skip) return;
  await closeDatabase();
  await handle.close();
  await admin.end();
});

function assertUnavailable(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(errorOf(res).code, 'unavailable');
  assert.match(errorOf(res).message, /database/i);
  assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After is sent');
}

describe('PostgreSQL backends terminated under load', { skip }, () => {
  test('the process survives, reads succeed, writes are created once or answered 503, and a retry succeeds', async () => {
    const { account, api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
    const created = new Set<string>();
    const refusedKeys: string[] = [];
    const getFailures: string[] = [];
    const statuses: Record<string, number> = {};
    let terminated = 0;
    let running = true;
    const killer = (async () => {
      while (running) {
        terminated += await terminateOurBackends();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const deadline = Date.now() + 3_000;
    const loops = Array.from({ length: 8 }, async (_, i) => {
      while (Date.now() < deadline) {
        const key = unique('db-fault');
        const res =
          i % 2 === 0
            ? await api.get('/v1/jobs?limit=5')
            : await api.post('/v1/jobs', jobBody({ title: `Fault ${key}` }), { 'idempotency-key': key });
        const label = `${i % 2 === 0 ? 'GET' : 'POST'} ${res.statusCode}`;
        statuses[label] = (statuses[label] ?? 0) + 1;
        if (res.statusCode === 201) created.add(res.json().job.id);
        else if (res.statusCode === 503) {
          assertUnavailable(res);
          if (i % 2 === 0) getFailures.push(res.body);
          if (i % 2 !== 0) refusedKeys.push(key);
        } else assert.equal(res.statusCode, 200, `${label}: ${res.body}`);
      }
    });
    await Promise.all(loops);
    running = false;
    await killer;
    console.log({ terminated, statuses, connectionErrors: connectionErrors.length });
    assert.ok(terminated >= 10, `backends were terminated (${terminated})`);
    assert.ok(created.size > 0, 'writes went through between the faults');

    // Nothing doubled or lost: the rows are exactly the 201s; every refused write runs on retry.
    const rows = await handle.db
      .selectFrom('jobs')
      .select('id')
      .where('account_id', '=', account.id)
      .execute();
    assert.equal(rows.length, created.size, 'one row per 201, none for a 503');
    // A claim whose release was lost with the connection is freed by the next heartbeats (2 s).
    const started = Date.now();
    for (const key of refusedKeys) {
      let retry = await api.post('/v1/jobs', jobBody({ title: `Fault ${key}` }), { 'idempotency-key': key });
      while (retry.statusCode === 409 && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        retry = await api.post('/v1/jobs', jobBody({ title: `Fault ${key}` }), { 'idempotency-key': key });
      }
      assert.equal(retry.statusCode, 201, `retry of a refused write: ${retry.body}`);
    }
    console.log({ retriedWithinMs: Date.now() - started });
    const after = await handle.db
      .selectFrom('jobs')
      .select('id')
      .where('account_id', '=', account.id)
      .execute();
    assert.equal(after.length, created.size + refusedKeys.length);
    assert.equal((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  });

  test('a read whose connection was terminated while idle in the pool is answered 200', async () => {
    const { api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
    for (let round = 0; round < 5; round++) {
      // Several idle connections in the pool, all of them terminated: the read meets each dead one.
      const warm = await Promise.all(Array.from({ length: 8 }, () => api.get('/v1/jobs')));
      for (const res of warm) assert.equal(res.statusCode, 200);
      assert.ok((await terminateOurBackends()) > 3, 'the pool held several connections');
      const res = await api.get('/v1/jobs');
      assert.equal(res.statusCode, 200, res.body);
    }
  });

  test('/metrics counts the faults answered 503', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assert.match(res.body, /dependency_faults_total\{dependency="database",reason="connection"\} \d+/);
  });
});
