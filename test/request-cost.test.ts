// What a refused request costs: a key over its limit and a flood of bad credentials from one
// address are answered without a database round trip (issue 14 item 3, issue 11 item 7), and every
// answered request leaves exactly one log line that carries its request id.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { DbHandle } from '../src/db/connect.ts';
import { addressBucket } from '../src/lib/client-address.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { loggerOptions } from '../src/plugins/log.ts';
import { memoryStore } from '../src/rate-limit/store.ts';
import { client, consoleCall, jobsAccount, newAccount, newKey } from './support/accounts.ts';
import { closeDatabase, database, startApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { captureLog } from './support/log.ts';
import { countedHandle } from './support/statements.ts';

let handle: DbHandle;
before(async () => {
  handle = await database();
});

after(closeDatabase);

async function counted(options: Parameters<typeof startApp>[0] = {}) {
  const { handle: countedDb, counter } = countedHandle(handle);
  const ctx = await startApp({ ...options, handle: countedDb });
  return { ctx, counter };
}

const wrongKey = () => `cak_${randomBytes(32).toString('base64url')}`;

describe('a key over its limit', () => {
  test('is refused with 429 and no database round trip, for the rest of its window', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx, counter } = await counted({ clock });
    const { account, key } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 3 } });
    const api = client(ctx.app, key.secret);
    for (let i = 0; i < 3; i++) assert.equal((await api.get('/v1/jobs')).statusCode, 200);

    const before = counter.count;
    for (let i = 0; i < 25; i++) {
      const res = await api.get('/v1/jobs');
      assert.equal(res.statusCode, 429);
      assert.equal(errorOf(res).code, 'rate_limited');
      assert.equal(res.headers['x-ratelimit-limit'], '3');
      assert.equal(res.headers['x-ratelimit-remaining'], '0');
      assert.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2030-01-01T10:01:00Z') / 1000));
      assert.equal(res.headers['retry-after'], '55');
      assert.ok(res.headers['x-request-id']);
    }
    assert.equal(counter.count - before, 0, 'statements run for 25 refusals');

    // The next window serves the key again, and its first request looks the key up as usual.
    clock.advance(60_000);
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    assert.ok(counter.count > before);

    // A revoked key fails on the very next request even after it was remembered as good.
    assert.equal(
      (await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`)).statusCode,
      204,
    );
    assert.equal((await api.get('/v1/jobs')).statusCode, 401);
  });

  test('another instance sharing the counters refuses it after one lookup at most', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const rateLimits = memoryStore();
    const first = await counted({ clock, rateLimits });
    const second = await counted({ clock, rateLimits });
    const { key } = await jobsAccount(first.ctx.app, { limits: { requestsPerMinute: 2 } });
    for (let i = 0; i < 2; i++)
      assert.equal((await client(first.ctx.app, key.secret).get('/v1/jobs')).statusCode, 200);

    const api = client(second.ctx.app, key.secret);
    const before = second.counter.count;
    for (let i = 0; i < 20; i++) assert.equal((await api.get('/v1/jobs')).statusCode, 429);
    assert.ok(second.counter.count - before <= 1, `statements run: ${second.counter.count - before}`);
  });

  test('remembering it over its limit does not touch routes outside the limit (screening)', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx } = await counted({ clock });
    const account = await newAccount(ctx.app, { limits: { requestsPerMinute: 1 } });
    const key = await newKey(ctx.app, account.id, ['jobs:read', 'screening']);
    const api = client(ctx.app, key.secret);
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    assert.equal((await api.get('/v1/jobs')).statusCode, 429);
    // Not the 429 of the limit: the route itself answers (its body is invalid on purpose).
    const screening = await api.post('/v1/jobs/job_none/candidates/cand_none/screening', {});
    assert.equal(screening.statusCode, 400, screening.body);
  });

  test('a limit raised through this instance holds from the next request', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx } = await counted({ clock });
    const { account, key } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 1 } });
    const api = client(ctx.app, key.secret);
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    assert.equal((await api.get('/v1/jobs')).statusCode, 429);
    await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { limits: { requestsPerMinute: 50 } });
    const res = await api.get('/v1/jobs');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-limit'], '50');
  });
});

describe('requests without a valid credential, per client address', () => {
  const LIMIT = 5;

  test('wrong keys: 401 up to the budget, then 429 before any lookup; other addresses unaffected', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx, counter } = await counted({ clock, authFailuresPerMinute: LIMIT });
    const from = (remoteAddress: string, secret = wrongKey()) =>
      ctx.app.inject({
        method: 'GET',
        url: '/v1/jobs',
        remoteAddress,
        headers: { authorization: `Bearer ${secret}` },
      });

    for (let i = 0; i < LIMIT; i++) assert.equal((await from('198.51.100.7')).statusCode, 401);
    const tipping = await from('198.51.100.7');
    assert.equal(tipping.statusCode, 429);
    assert.equal(errorOf(tipping).code, 'rate_limited');
    assert.equal(tipping.headers['retry-after'], '55');

    const before = counter.count;
    for (let i = 0; i < 40; i++) assert.equal((await from('198.51.100.7')).statusCode, 429);
    assert.equal(counter.count - before, 0, 'statements run for 40 refused wrong keys');

    // No key at all, or a console request with a wrong token, from that address: 429 too.
    const bare = await ctx.app.inject({ method: 'GET', url: '/v1/jobs', remoteAddress: '198.51.100.7' });
    assert.equal(bare.statusCode, 429);
    const consoleTry = await ctx.app.inject({
      method: 'GET',
      url: '/console/v1/tasks',
      remoteAddress: '198.51.100.7',
      headers: { authorization: 'Bearer not-the-console-token' },
    });
    assert.equal(consoleTry.statusCode, 429);

    assert.equal((await from('198.51.100.8')).statusCode, 401, 'another address still gets 401');
    clock.advance(60_000);
    assert.equal((await from('198.51.100.7')).statusCode, 401, 'the next window starts afresh');
  });

  test('no key: 401 up to the budget, then 429, without any statement', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx, counter } = await counted({ clock, authFailuresPerMinute: LIMIT });
    const before = counter.count;
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      codes.push(
        (await ctx.app.inject({ method: 'GET', url: '/v1/consent-text', remoteAddress: '203.0.113.40' }))
          .statusCode,
      );
    }
    assert.deepEqual(codes, [401, 401, 401, 401, 401, 429, 429, 429]);
    assert.equal(counter.count - before, 0);
  });

  test('a key that works is never counted against its address, and keeps working from it', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx } = await counted({ clock, authFailuresPerMinute: LIMIT });
    const { key } = await jobsAccount(ctx.app);
    const good = () =>
      ctx.app.inject({
        method: 'GET',
        url: '/v1/jobs',
        remoteAddress: '192.0.2.10',
        headers: { 'x-api-key': key.secret },
      });
    for (let i = 0; i < 3 * LIMIT; i++) assert.equal((await good()).statusCode, 200);
    for (let i = 0; i <= LIMIT; i++) {
      await ctx.app.inject({
        method: 'GET',
        url: '/v1/jobs',
        remoteAddress: '192.0.2.10',
        headers: { 'x-api-key': wrongKey() },
      });
    }
    assert.equal(
      (await good()).statusCode,
      200,
      'a key already seen working is not held up by its neighbours',
    );
  });

  test('an IPv6 /64 is one address', async () => {
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx } = await counted({ clock, authFailuresPerMinute: LIMIT });
    const from = (remoteAddress: string) => ctx.app.inject({ method: 'GET', url: '/v1/jobs', remoteAddress });
    for (let i = 0; i < LIMIT; i++) assert.equal((await from(`2001:db8:7:7::${i + 1}`)).statusCode, 401);
    assert.equal((await from('2001:db8:7:7:ffff:1:2:3')).statusCode, 429);
    assert.equal((await from('2001:db8:7:8::1')).statusCode, 401);
  });

  test('addressBucket: IPv4 alone, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
    assert.equal(addressBucket('203.0.113.9'), '203.0.113.9');
    assert.equal(addressBucket('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(addressBucket('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:DB8:0001:0002::9'), '2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:db8::1.2.3.4'), '2001:db8:0:0::/64');
    assert.equal(addressBucket('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressBucket(undefined), 'unknown');
    assert.equal(addressBucket('not an address'), 'unknown');
  });
});

describe('request logging', () => {
  test('one line per answered request, with its requestId, method, URL, status and time', async () => {
    const log = captureLog();
    const { stream } = log;
    const { ctx } = await counted({ logger: { ...(loggerOptions('info') as object), stream } });
    const account = await newAccount(ctx.app);
    const key = await newKey(ctx.app, account.id, ['jobs:read']);
    log.lines.length = 0;
    const ok = await client(ctx.app, key.secret).get('/v1/jobs?limit=5');
    const refused = await ctx.app.inject({ method: 'GET', url: '/v1/jobs' });
    await new Promise((resolve) => setImmediate(resolve));
    const lines = log.records();
    for (const res of [ok, refused]) {
      const mine = lines.filter((line) => line.requestId === res.headers['x-request-id']);
      assert.equal(mine.length, 1, JSON.stringify(mine));
      assert.deepEqual(mine[0]!.req, { method: 'GET', url: res === ok ? '/v1/jobs?limit=5' : '/v1/jobs' });
      assert.deepEqual(mine[0]!.res, { statusCode: res.statusCode });
      assert.equal(typeof mine[0]!.responseTime, 'number');
    }
    assert.ok(!JSON.stringify(lines).includes(key.secret));
  });

  test('the access line is the one pino writes: same fields, same order, same escaping', async () => {
    const { stream, lines: raw } = captureLog();
    const { ctx } = await counted({ logger: { ...(loggerOptions('info') as object), stream } });
    raw.length = 0;
    // A URL with a character JSON must escape (a backslash; inject encodes quotes and letters).
    const url = '/v1/jobs/%22quote%5C%C3%A9?x="\\é';
    const res = await ctx.app.inject({ method: 'GET', url });
    await new Promise((resolve) => setImmediate(resolve));
    const id = String(res.headers['x-request-id']);
    const ours = raw.find((line) => line.includes(id) && line.includes('request completed'))!;
    const parsed = JSON.parse(ours) as { time: number; responseTime: number; req: { url: string } };
    assert.ok(parsed.req.url.includes('\\'), 'a URL with a character JSON escapes');
    // What pino itself writes for the same request through the app's logger.
    raw.length = 0;
    ctx.app.log.child({ requestId: id }).info(
      {
        req: { method: 'GET', url: parsed.req.url },
        res: { statusCode: res.statusCode },
        responseTime: parsed.responseTime,
      },
      'request completed',
    );
    const pinos = raw[0]!.replace(/"time":\d+/, `"time":${parsed.time}`);
    assert.equal(ours, pinos);
  });

  test('a flood of refusals answered from memory is logged once, not once per request', async () => {
    const log = captureLog();
    const { stream } = log;
    const clock = new ManualClock(new Date('2030-01-01T10:00:05Z'));
    const { ctx } = await counted({ clock, logger: { ...(loggerOptions('info') as object), stream } });
    const account = await newAccount(ctx.app, { limits: { requestsPerMinute: 1 } });
    const key = await newKey(ctx.app, account.id, ['jobs:read']);
    const api = client(ctx.app, key.secret);
    log.lines.length = 0;
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push((await api.get('/v1/jobs')).statusCode);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = log.records();
    assert.deepEqual(answers, [200, ...Array(29).fill(429)]);
    const completed = lines.filter((line) => line.msg === 'request completed');
    assert.equal(completed.length, 2, 'the 200 and the first 429');
    const over = lines.filter((line) => String(line.msg).startsWith('key over its per-minute limit'));
    assert.equal(over.length, 1);
    assert.equal(over[0]!.keyId, key.id);
    assert.equal(over[0]!.until, '2030-01-01T10:01:00.000Z');
  });
});
