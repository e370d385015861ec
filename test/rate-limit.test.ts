import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { memoryStore, redisStore } from '../src/rate-limit/store.ts';
import { client, consoleCall, jobsAccount, newAccount, newKey, unique } from './support/accounts.ts';
import { listen, startApp, testConfig, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';

const ctx = useTestApp();

function limitHeaders(res: LightMyRequestResponse | Response) {
  const get = (name: string) =>
    res instanceof Response ? res.headers.get(name) : (res.headers[name] as string | undefined);
  return {
    limit: get('x-ratelimit-limit'),
    remaining: get('x-ratelimit-remaining'),
    reset: get('x-ratelimit-reset'),
    retryAfter: get('retry-after'),
  };
}

/** X-RateLimit-Reset is epoch seconds: an integer within the minute after `nowMs`. */
function assertEpochReset(reset: string | null | undefined, nowMs: number) {
  assert.match(String(reset), /^\d+$/, `X-RateLimit-Reset: ${reset}`);
  const seconds = Number(reset);
  assert.ok(seconds >= Math.floor(nowMs / 1000), `reset ${seconds} is before now ${nowMs / 1000}`);
  assert.ok(seconds <= nowMs / 1000 + 60, `reset ${seconds} is more than 60 s after now ${nowMs / 1000}`);
}

describe('rate-limit headers', () => {
  test('on a 200: limit 120, remaining counting down, reset in epoch seconds', async () => {
    const { api } = await jobsAccount(ctx.app);
    const first = await api.get('/v1/jobs');
    assert.equal(first.statusCode, 200);
    const h1 = limitHeaders(first);
    assert.equal(h1.limit, '120');
    assert.equal(h1.remaining, '119');
    assertEpochReset(h1.reset, ctx.clock.now().getTime());
    assert.equal(h1.retryAfter, undefined);

    const second = await api.get('/v1/jobs');
    assert.equal(limitHeaders(second).remaining, '118');
    assert.equal(limitHeaders(second).reset, h1.reset);
  });

  test('on 4xx answers too (400, 403, 404, 409), each counted', async () => {
    const account = await newAccount(ctx.app);
    const writer = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:write'])).secret);

    const badQuery = await writer.post('/v1/jobs', { title: 'x', status: 'draft' });
    assert.equal(badQuery.statusCode, 400);
    assert.equal(limitHeaders(badQuery).limit, '120');
    assert.equal(limitHeaders(badQuery).remaining, '119');
    assertEpochReset(limitHeaders(badQuery).reset, ctx.clock.now().getTime());

    const forbidden = await writer.get('/v1/jobs');
    assert.equal(forbidden.statusCode, 403);
    assert.equal(errorOf(forbidden).code, 'forbidden');
    assert.equal(limitHeaders(forbidden).remaining, '118');
    assertEpochReset(limitHeaders(forbidden).reset, ctx.clock.now().getTime());

    const missing = await writer.post('/v1/jobs/job_doesnotexist/close');
    assert.equal(missing.statusCode, 404);
    assert.equal(limitHeaders(missing).remaining, '117');

    const draft = await writer.post('/v1/jobs', { title: 'Draft' });
    assert.equal(draft.statusCode, 201);
    const conflict = await writer.post(`/v1/jobs/${draft.json().job.id}/close`);
    assert.equal(conflict.statusCode, 409);
    assert.equal(limitHeaders(conflict).remaining, '115');
    assertEpochReset(limitHeaders(conflict).reset, ctx.clock.now().getTime());
  });

  test('the console and the probes carry no rate-limit headers', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}`);
    assert.equal(res.statusCode, 200);
    assert.equal(limitHeaders(res).limit, undefined);
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(limitHeaders(health).limit, undefined);
  });
});

describe('the limit, over real sockets', () => {
  test('the 121st request in a minute → 429 rate_limited with Retry-After; other keys unaffected', async () => {
    const server = await startApp();
    const base = await listen(server.app);
    const account = await newAccount(server.app);
    const key = await newKey(server.app, account.id, ['jobs:read']);
    const sibling = await newKey(server.app, account.id, ['jobs:read']);
    const stranger = await jobsAccount(server.app);
    const get = (secret: string) =>
      fetch(`${base}/v1/jobs`, { headers: { authorization: `Bearer ${secret}` } });

    // 120 at once, each on its own connection as far as the client pool allows.
    const burst = await Promise.all(Array.from({ length: 120 }, () => get(key.secret)));
    assert.deepEqual(
      burst.map((res) => res.status),
      Array(120).fill(200),
    );
    const remaining = burst
      .map((res) => Number(res.headers.get('x-ratelimit-remaining')))
      .sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 120 }, (_, i) => i),
      'each request counted once',
    );
    await Promise.all(burst.map((res) => res.arrayBuffer()));

    const over = await get(key.secret);
    assert.equal(over.status, 429);
    const body = (await over.json()) as { error: { code: string; message: string; requestId: string } };
    assert.equal(body.error.code, 'rate_limited');
    assert.match(body.error.requestId, /^req_/);
    assert.equal(over.headers.get('x-request-id'), body.error.requestId);
    const h = limitHeaders(over);
    assert.match(String(h.retryAfter), /^\d+$/);
    assert.ok(Number(h.retryAfter) >= 1 && Number(h.retryAfter) <= 60, `Retry-After ${h.retryAfter}`);
    assert.equal(h.limit, '120');
    assert.equal(h.remaining, '0');
    assertEpochReset(h.reset, server.clock.now().getTime());
    // Retry-After agrees with the reset moment.
    const untilReset = Number(h.reset) - server.clock.now().getTime() / 1000;
    assert.ok(Math.abs(Number(h.retryAfter) - untilReset) <= 1);

    // Still refused on the next one; refused calls do not leak through.
    assert.equal((await get(key.secret)).status, 429);

    // Another key of the same account, and another account's key, are unaffected.
    const siblingRes = await get(sibling.secret);
    assert.equal(siblingRes.status, 200);
    assert.equal(siblingRes.headers.get('x-ratelimit-remaining'), '119');
    const strangerRes = await get(stranger.key.secret);
    assert.equal(strangerRes.status, 200);
    assert.equal(strangerRes.headers.get('x-ratelimit-remaining'), '119');
  });

  test("the limit follows the account's requestsPerMinute (PATCHed to 5)", async () => {
    const server = await startApp();
    const base = await listen(server.app);
    const { account, key } = await jobsAccount(server.app);
    const patched = await consoleCall(server.app, 'PATCH', `/accounts/${account.id}`, {
      limits: { requestsPerMinute: 5 },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().account.limits.requestsPerMinute, 5);
    const get = () => fetch(`${base}/v1/jobs`, { headers: { 'x-api-key': key.secret } });

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await get();
      statuses.push(res.status);
      assert.equal(res.headers.get('x-ratelimit-limit'), '5');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(4 - i));
      await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    const sixth = await get();
    assert.equal(sixth.status, 429);
    assert.equal(((await sixth.json()) as { error: { code: string } }).error.code, 'rate_limited');
    assert.ok(sixth.headers.get('retry-after'));

    // Raising the limit holds from the next request (no cached principal).
    await consoleCall(server.app, 'PATCH', `/accounts/${account.id}`, { limits: { requestsPerMinute: 10 } });
    const raised = await get();
    assert.equal(raised.status, 200);
    assert.equal(raised.headers.get('x-ratelimit-limit'), '10');
    assert.equal(raised.headers.get('x-ratelimit-remaining'), '3');
  });

  test('a new window resets the count (ManualClock + 60 s)', async () => {
    const clock = new ManualClock(new Date());
    const server = await startApp({ clock });
    const { account, api } = await jobsAccount(server.app);
    await consoleCall(server.app, 'PATCH', `/accounts/${account.id}`, { limits: { requestsPerMinute: 3 } });
    for (let i = 0; i < 3; i++) assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    const refused = await api.get('/v1/jobs');
    assert.equal(refused.statusCode, 429);
    const resetBefore = Number(limitHeaders(refused).reset);

    clock.advance(60_000);
    const fresh = await api.get('/v1/jobs');
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.equal(limitHeaders(fresh).remaining, '2');
    assert.equal(Number(limitHeaders(fresh).reset), resetBefore + 60);
    assertEpochReset(limitHeaders(fresh).reset, clock.now().getTime());
  });
});

describe('memoryStore', () => {
  test('counts per key within a fixed window and resets at its end', async () => {
    const store = memoryStore();
    const windowMs = 60_000;
    const t0 = Date.UTC(2026, 0, 1, 12, 0, 10); // 10 s into a minute
    const end = Date.UTC(2026, 0, 1, 12, 1, 0);
    assert.deepEqual(await store.hit('a', windowMs, t0), { count: 1, resetAtMs: end, generation: null });
    assert.deepEqual(await store.hit('a', windowMs, t0 + 1_000), {
      count: 2,
      resetAtMs: end,
      generation: null,
    });
    assert.deepEqual(await store.hit('b', windowMs, t0 + 2_000), {
      count: 1,
      resetAtMs: end,
      generation: null,
    });
    assert.deepEqual(await store.hit('a', windowMs, end - 1), { count: 3, resetAtMs: end, generation: null });
    // The next window starts afresh.
    assert.deepEqual(await store.hit('a', windowMs, end), {
      count: 1,
      resetAtMs: end + windowMs,
      generation: null,
    });
    assert.deepEqual(await store.hit('b', windowMs, end + 5), {
      count: 1,
      resetAtMs: end + windowMs,
      generation: null,
    });
    await store.close();
  });

  test('vouches for a generation only when asked to, and a change gives a new one', async () => {
    assert.equal((await memoryStore().hit('a', 1_000, 0)).generation, null);
    const store = memoryStore({ generations: true });
    const first = (await store.hit('a', 1_000, 0)).generation;
    assert.equal(typeof first, 'string');
    assert.equal((await store.hit('b', 1_000, 0)).generation, first);
    await store.credentialsChanged?.();
    const second = (await store.hit('a', 1_000, 0)).generation;
    assert.equal(typeof second, 'string');
    assert.notEqual(second, first);
    await store.close();
  });

  test('an answer is a copy: changing it does not change the count', async () => {
    const store = memoryStore();
    const first = await store.hit('k', 1_000, 0);
    first.count = 100;
    assert.equal((await store.hit('k', 1_000, 1)).count, 2);
    await store.close();
  });

  test('concurrent hits are each counted', async () => {
    const store = memoryStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('c', 60_000, 1_000)));
    assert.deepEqual(
      results.map((r) => r.count).sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    await store.close();
  });

  test('close() forgets every counter', async () => {
    const store = memoryStore();
    await store.hit('z', 60_000, 0);
    await store.hit('z', 60_000, 0);
    await store.close();
    assert.equal((await store.hit('z', 60_000, 0)).count, 1);
  });
});

const withoutRedis = testConfig.redisUrl === null ? 'REDIS_URL is not set' : false;

describe('Redis: one limit shared by several instances', () => {
  test('redisStore counts in Redis, per key and per window', { skip: withoutRedis }, async () => {
    const url = testConfig.redisUrl!;
    const a = redisStore(url);
    const b = redisStore(url);
    try {
      const key = unique('rl-unit');
      const t0 = Date.now();
      const first = await a.hit(key, 60_000, t0);
      assert.equal(first.count, 1);
      assert.equal(first.resetAtMs, Math.floor(t0 / 60_000) * 60_000 + 60_000);
      assert.equal((await b.hit(key, 60_000, t0)).count, 2, 'the second store sees the first one’s hit');
      assert.equal((await a.hit(`${key}-other`, 60_000, t0)).count, 1);
      assert.equal((await b.hit(key, 60_000, first.resetAtMs)).count, 1, 'a new window starts afresh');
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('two app instances, each with its own redisStore, share one limit', {
    skip: withoutRedis,
  }, async () => {
    const { one, bases, get } = await twoInstancesOnRedis(10);

    const answers: { status: number; remaining: string | null }[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await get(i);
      answers.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
      await res.arrayBuffer();
    }
    assert.deepEqual(
      answers,
      Array.from({ length: 10 }, (_, i) => ({ status: 200, remaining: String(9 - i) })),
    );
    for (const i of [10, 11]) {
      const res = await get(i);
      assert.equal(res.status, 429, `request ${i + 1} through instance ${(i % 2) + 1}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'rate_limited');
      assert.ok(res.headers.get('retry-after'));
    }
    // Another key is unaffected on both instances.
    const other = await jobsAccount(one.app);
    for (const base of bases) {
      const res = await fetch(`${base}/v1/jobs`, { headers: { 'x-api-key': other.key.secret } });
      assert.equal(res.status, 200);
    }
  });

  test('concurrent requests split across two instances: exactly the limit gets through', {
    skip: withoutRedis,
  }, async () => {
    const { get } = await twoInstancesOnRedis(20);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        get(i).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    assert.equal(results.filter((s) => s === 200).length, 20);
    assert.equal(results.filter((s) => s === 429).length, 10);
  });
});

/**
 * Two app instances, each with its own redisStore on the one Redis, and a key whose account allows
 * `requestsPerMinute`; `get(i)` lists the jobs through instance i % 2.
 */
async function twoInstancesOnRedis(requestsPerMinute: number) {
  const url = testConfig.redisUrl!;
  const clock = new ManualClock(new Date());
  const one = await startApp({ clock, rateLimits: redisStore(url) });
  const two = await startApp({ clock, rateLimits: redisStore(url) });
  const bases = [await listen(one.app), await listen(two.app)];
  const { account, key } = await jobsAccount(one.app);
  await consoleCall(one.app, 'PATCH', `/accounts/${account.id}`, { limits: { requestsPerMinute } });
  const get = (i: number) =>
    fetch(`${bases[i % 2]}/v1/jobs`, { headers: { authorization: `Bearer ${key.secret}` } });
  return { one, bases, get };
}
