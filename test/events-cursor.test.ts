// The feed's cursor reveals nothing of other accounts (issue 25.2), and still yields every event
// once, in commit order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import type { EventInput } from '../src/contract/events.ts';
import { client, newKey, screeningAccount } from './support/accounts.ts';
import { startApp, testConfig, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';

const ctx = useTestApp();

type Api = ReturnType<typeof client>;
interface Page {
  events: { id: string; type: string; data: Record<string, unknown> }[];
  nextCursor: string;
}

async function page(api: Api, after?: string, limit = 100): Promise<Page> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (after) params.set('after', after);
  const res = await api.get(`/v1/events?${params}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Page;
}

/**
 * Pages from `after` until `count` events came (other test files' transactions on a shared server
 * may hold the horizon back for a while), then one more page that must be empty.
 */
async function readCount(api: Api, after: string, count: number, limit = 100) {
  const seen: Page['events'] = [];
  let cursor = after;
  for (let i = 0; seen.length < count; i++) {
    assert.ok(i < 2000, `only ${seen.length} of ${count} events came`);
    const got = await page(api, cursor, limit);
    seen.push(...got.events);
    cursor = got.nextCursor;
    if (got.events.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual((await page(api, cursor)).events, [], 'no event comes twice');
  return { events: seen, cursor };
}

const updated = (jobId: string): EventInput => ({
  type: 'job.updated',
  data: { jobId, status: 'published' },
});

/** The feed position the old cursors carried in clear: the writing transaction and the sequence. */
async function positionOf(eventId: string): Promise<{ txid: string; seq: string }> {
  const result = await sql<{ txid: string; seq: string }>`
    SELECT txid::text AS txid, seq::text AS seq FROM events WHERE id = ${eventId}`.execute(ctx.handle.db);
  return result.rows[0]!;
}

/**
 * Every way a number could sit in a cursor: decimal text (from three digits on, so that random
 * bytes do not match by chance), 4- and 8-byte big- and little-endian.
 */
function encodings(value: string): Buffer[] {
  const n = BigInt(value);
  const out = value.length >= 3 ? [Buffer.from(value)] : [];
  const b8 = Buffer.alloc(8);
  b8.writeBigUInt64BE(n);
  out.push(b8, Buffer.from(b8).reverse());
  if (n < 2n ** 32n) {
    const b4 = Buffer.alloc(4);
    b4.writeUInt32BE(Number(n));
    out.push(b4, Buffer.from(b4).reverse());
  }
  return out;
}

function carries(cursor: string, value: string): boolean {
  const raw = Buffer.from(cursor, 'base64url');
  return encodings(value).some((needle) => raw.includes(needle));
}

describe('the events cursor is opaque', () => {
  test('two cursors of account A bracketing 1000 writes of account B show no sign of them', async () => {
    const a = await screeningAccount(ctx.app);
    const b = await screeningAccount(ctx.app);
    await ctx.services.events.record(ctx.handle.db, a.account.id, updated('job_a1'));
    const first = await page(a.api);
    assert.equal(first.events.length, 1);
    const again = await page(a.api, first.nextCursor);
    assert.deepEqual(again.events, []);
    for (let i = 0; i < 1000; i++)
      await ctx.services.events.record(ctx.handle.db, b.account.id, updated(`job_b${i}`));
    await ctx.services.events.record(ctx.handle.db, a.account.id, updated('job_a2'));
    const second = await page(a.api, first.nextCursor);
    assert.deepEqual(
      second.events.map((e) => e.data.jobId),
      ['job_a2'],
    );
    const cursors = [first.nextCursor, again.nextCursor, second.nextCursor];
    for (const cursor of cursors)
      assert.doesNotMatch(Buffer.from(cursor, 'base64url').toString('latin1'), /^v1:/);
    // No cursor carries the position of either event, in any encoding.
    for (const eventId of [first.events[0]!.id, second.events[0]!.id]) {
      const { txid, seq } = await positionOf(eventId);
      for (const cursor of cursors) {
        assert.ok(!carries(cursor, txid), `a cursor carries the transaction id ${txid}`);
        assert.ok(!carries(cursor, seq), `a cursor carries the sequence number ${seq}`);
      }
    }
    // Same length whatever happened between them, and the same position twice gives unrelated
    // cursors: equality cannot tell whether anything was written in between.
    assert.equal(new Set(cursors.map((c) => c.length)).size, 1);
    assert.notEqual(first.nextCursor, again.nextCursor);
    // A's cursor is A's: another account's key cannot use it.
    const other = await page(b.api);
    assert.equal(other.events.length, 100);
    const stolen = await b.api.get(`/v1/events?after=${second.nextCursor}`);
    assert.equal(stolen.statusCode, 400);
    assert.equal(errorOf(stolen).field, 'after');
  });

  test('a tampered cursor is refused with the spec’s error body', async () => {
    const a = await screeningAccount(ctx.app);
    const { nextCursor } = await page(a.api);
    const raw = Buffer.from(nextCursor, 'base64url');
    raw[raw.length - 20]! ^= 1;
    const res = await a.api.get(`/v1/events?after=${raw.toString('base64url')}`);
    assert.equal(res.statusCode, 400);
    assert.equal(errorOf(res).code, 'bad_request');
    assert.equal(errorOf(res).field, 'after');
  });

  test('a cursor handed out before the change still reads on; one naming a later position is refused', async () => {
    const a = await screeningAccount(ctx.app);
    await ctx.services.events.record(ctx.handle.db, a.account.id, updated('job_old'));
    const { txid, seq } = await positionOf((await page(a.api)).events[0]!.id);
    // The upgrade: an instance of the new code starts, and its first read fixes the cut-off past
    // which a cursor in clear was never handed out.
    await sql`DELETE FROM event_sweeps WHERE name = 'events.clear-cursors'`.execute(ctx.handle.db);
    const upgraded = await startApp({ clock: ctx.clock });
    try {
      const api = client(upgraded.app, (await newKey(upgraded.app, a.account.id, ['jobs:read'])).secret);
      await page(api);
      await ctx.services.events.record(ctx.handle.db, a.account.id, updated('job_new'));
      const legacy = (t: string, s: string) => Buffer.from(`v1:${t}.${s}`).toString('base64url');
      const resumed = await page(api, legacy(txid, seq));
      assert.deepEqual(
        resumed.events.map((e) => e.data.jobId),
        ['job_new'],
      );
      const ahead = await api.get(`/v1/events?after=${legacy('9000000000000000000', '0')}`);
      assert.equal(ahead.statusCode, 400);
      assert.equal(errorOf(ahead).field, 'after');
    } finally {
      await upgraded.close();
    }
  });
});

const pgOnly = testConfig.databaseUrl === null ? 'needs DATABASE_URL (concurrent transactions)' : false;

describe('the feed across concurrent commits', { skip: pgOnly }, () => {
  test('an event committed later by an older transaction is not skipped', async () => {
    const a = await screeningAccount(ctx.app);
    const start = await page(a.api);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => {
      written = resolve;
    });
    const older = ctx.handle.db.transaction().execute(async (trx) => {
      await ctx.services.events.record(trx, a.account.id, updated('job_older'));
      written();
      await held;
    });
    await wrote;
    await ctx.services.events.record(ctx.handle.db, a.account.id, updated('job_younger'));
    const during = await page(a.api, start.nextCursor);
    assert.deepEqual(during.events, [], 'nothing past a transaction still running');
    release();
    await older;
    const after = await readCount(a.api, during.nextCursor, 2);
    assert.deepEqual(
      after.events.map((e) => e.data.jobId),
      ['job_older', 'job_younger'],
    );
  });

  test('a poller racing 40 writers sees every event once, in (transaction, sequence) order', async () => {
    const a = await screeningAccount(ctx.app);
    const key = await newKey(ctx.app, a.account.id, ['jobs:read']);
    const api = client(ctx.app, key.secret);
    const start = (await page(api)).nextCursor;
    const writers = [];
    // The poller races the writers from the start: pages of 7 while they commit out of order.
    const polled = readCount(api, start, 54, 7);
    for (let i = 0; i < 40; i++) {
      writers.push(
        ctx.handle.db.transaction().execute(async (trx) => {
          await ctx.services.events.record(trx, a.account.id, updated(`job_${i}`));
          await new Promise((resolve) => setTimeout(resolve, (i * 7) % 23));
          if (i % 3 === 0) await ctx.services.events.record(trx, a.account.id, updated(`job_${i}b`));
        }),
      );
      if (i % 4 === 3) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(writers);
    const seen = (await polled).events.map((e) => e.id);
    const ordered = await sql<{ id: string }>`
      SELECT id FROM events WHERE account_id = ${a.account.id} ORDER BY txid, seq`.execute(ctx.handle.db);
    assert.deepEqual(
      seen,
      ordered.rows.map((r) => r.id),
    );
  });
});
