// Issue 12 item 1, the restart: a private PostgreSQL cluster (initdb + pg_ctl on a port of its
// own, never the shared server) is stopped under the service and started again. While it is down
// every call answers 503 `unavailable` at once and /readyz says 503; once it is back the service
// serves again by itself. Skipped where PostgreSQL's binaries or the postgres user are missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type DbHandle, openDatabase } from '../src/db/connect.ts';
import { migrate } from '../src/db/migrate.ts';
import { freePort } from './service-process.ts';
import { jobsAccount, unique } from './support/accounts.ts';
import { closeDatabase, startApp, type TestContext } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { jobBody } from './support/jobs.ts';

function pgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const version = fs.readdirSync(root).sort().at(-1);
  const bin = version && path.join(root, version, 'bin');
  return bin && fs.existsSync(path.join(bin, 'pg_ctl')) ? bin : null;
}

const bin = pgBin();
const asRoot = process.getuid?.() === 0;
const skip =
  bin === null ? 'PostgreSQL binaries not found' : !asRoot ? 'needs root to run as postgres' : false;

let dir = '';
let port = 0;
let handle: DbHandle;
let ctx: TestContext;

function asPostgres(command: string): void {
  const result = spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: 'pipe' });
  if (result.status !== 0) throw new Error(`${command}: ${result.stderr.toString()}`);
}

const pgCtl = (action: string) =>
  asPostgres(
    `${bin}/pg_ctl -D ${dir}/data -l ${dir}/log -w -t 30 -o "-p ${port} -k ${dir} -c listen_addresses=127.0.0.1" ${action}`,
  );

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-pg-'));
  fs.chmodSync(dir, 0o777);
  port = await freePort();
  asPostgres(`${bin}/initdb -D ${dir}/data -U postgres -A trust --no-sync > ${dir}/initdb.log`);
  pgCtl('start');
  handle = await openDatabase({
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir: null,
  });
  await migrate(handle);
  ctx = await startApp({ handle });
});

after(async () => {
  if (skip) return;
  await closeDatabase();
  await handle?.close();
  try {
    pgCtl('stop -m immediate');
  } catch {}
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarted under the service', { skip }, () => {
  test('down: 503 unavailable at once and /readyz 503; back: it serves again by itself', async () => {
    const { api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
    assert.equal((await api.post('/v1/jobs', jobBody())).statusCode, 201);

    pgCtl('stop -m fast');
    for (const call of [() => api.get('/v1/jobs'), () => api.post('/v1/jobs', jobBody())]) {
      const started = Date.now();
      const res = await call();
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(errorOf(res).code, 'unavailable');
      assert.equal(res.headers['retry-after'], '2');
      assert.ok(Date.now() - started < 6_000, `answered in ${Date.now() - started} ms`);
    }
    assert.equal((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);

    pgCtl('start');
    const backAt = Date.now();
    let res = await api.get('/v1/jobs');
    while (res.statusCode !== 200 && Date.now() - backAt < 15_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      res = await api.get('/v1/jobs');
    }
    assert.equal(res.statusCode, 200, res.body);
    console.log({ servingAgainAfterMs: Date.now() - backAt });
    assert.equal((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    const created = await api.post('/v1/jobs', jobBody({ title: unique('after restart') }));
    assert.equal(created.statusCode, 201, created.body);
  });
});
