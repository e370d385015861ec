// Issue 12 item 2: a Redis outage costs no answer. Counting falls back to the instance (full
// limit) within the command timeout, with one warning and a metric; /readyz says degraded; the
// store counts in Redis again once it returns. A private redis-server on its own port is started,
// stopped and killed here (the shared one is never touched).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { type RedisRateLimitStore, redisStore } from '../src/rate-limit/store.ts';
import { freePort } from './service-process.ts';
import { jobsAccount } from './support/accounts.ts';
import { METRICS_TOKEN, startApp, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { captureLog } from './support/log.ts';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const skip = hasRedis ? false : 'redis-server is not installed';

let port = 0;
let server: ChildProcess | null = null;

async function startRedis(): Promise<void> {
  server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'])
        .stdout?.toString()
        .includes('PONG')
    )
      return;
    await sleep(50);
  }
  throw new Error('the private redis-server did not start');
}

async function killRedis(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const log = captureLog();
const logLines = () => log.records<{ level: number; msg: string }>();

let store: RedisRateLimitStore;
const clock = new ManualClock(new Date('2026-03-02T10:00:10Z'));

// Redis first: the app counts there (in memory when the file is skipped).
const ctx = useTestApp(async () => {
  if (skip) return { clock };
  port = await freePort();
  await startRedis();
  store = redisStore(`redis://127.0.0.1:${port}`);
  return { clock, rateLimits: store, logger: { level: 'info', stream: log.stream } };
});

after(async () => {
  if (!skip) await killRedis();
});

async function readiness() {
  const res = await ctx.app.inject({ method: 'GET', url: '/readyz' });
  return { status: res.statusCode, body: res.json() as { status: string; redis: string } };
}

async function metric(name: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return res.body.split('\n').find((line) => line.startsWith(name)) ?? '';
}

describe('Redis outage', { skip }, () => {
  test('up: counts are shared and /readyz says ready', async () => {
    assert.deepEqual((await readiness()).body, { status: 'ready', database: 'up', redis: 'up' });
    const { api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 1000 } });
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    // A first command slower than the 250 ms command timeout (a loaded machine, a cold script
    // cache) counts in the instance and tries Redis again 2 s later: shared within a few seconds.
    const shared = async () =>
      store.health().mode === 'shared' && / 1$/.test(await metric('dependency_up{dependency="redis"}'));
    for (let tries = 0; !(await shared()) && tries < 20; tries++) {
      await sleep(250);
      assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    }
    assert.equal(store.health().mode, 'shared');
    assert.match(await metric('dependency_up{dependency="redis"}'), / 1$/);
  });

  test('killed: every call answers at once, the limit holds per instance, /readyz degraded, one warning', async () => {
    const { api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 5 } });
    clock.advance(60_000);
    await killRedis();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = Date.now();
      const res = await api.get('/v1/jobs');
      assert.ok(Date.now() - started < 1_000, `answered in ${Date.now() - started} ms`);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) assert.equal(errorOf(res).code, 'rate_limited');
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429], 'the limit is counted in the instance');
    assert.equal(store.health().mode, 'local');
    const ready = await readiness();
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'degraded');
    assert.match(await metric('dependency_up{dependency="redis"}'), / 0$/);
    assert.match(await metric('dependency_faults_total{dependency="redis",reason="fallback"}'), / 1$/);
    const warnings = logLines().filter((line) => line.msg.startsWith('Redis is unavailable'));
    assert.equal(warnings.length, 1, 'one warning for the outage, not one per request');
  });

  test('back: counting returns to Redis by itself and /readyz says ready, with no traffic at all', async () => {
    await startRedis();
    // No request counts anything meanwhile (a worker process serves none): the reconnection alone
    // makes the store shared again. It used to stay "down" until a request tried Redis.
    const started = Date.now();
    while (store.health().mode !== 'shared' && Date.now() - started < 15_000) await sleep(100);
    assert.equal(store.health().mode, 'shared', 'Redis counts again');
    const { api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 1000 } });
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    assert.equal(store.health().mode, 'shared');
    assert.equal((await readiness()).body.status, 'ready');
    assert.ok(logLines().some((line) => line.msg.startsWith('Redis is back')));
  });

  test('hung (SIGSTOP): a count waits at most the command timeout, then the instance counts', async () => {
    const { api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 1000 } });
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    server!.kill('SIGSTOP');
    try {
      const started = Date.now();
      for (let i = 0; i < 5; i++) assert.equal((await api.get('/v1/jobs')).statusCode, 200);
      assert.ok(Date.now() - started < 1_500, `5 calls took ${Date.now() - started} ms`);
      assert.equal(store.health().mode, 'local');
    } finally {
      server!.kill('SIGCONT');
    }
  });

  test('a REDIS_URL at a dead port at start-up: the service starts degraded and serves', async () => {
    const dead = redisStore(`redis://127.0.0.1:${await freePort()}`);
    const other = await startApp({ clock, rateLimits: dead });
    try {
      const { api } = await jobsAccount(other.app, { limits: { requestsPerMinute: 1000 } });
      const started = Date.now();
      assert.equal((await api.get('/v1/jobs')).statusCode, 200);
      assert.ok(Date.now() - started < 1_500, `first call took ${Date.now() - started} ms`);
      const res = await other.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().status, 'degraded');
    } finally {
      await other.close();
    }
  });
});
