import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { jobsAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';
import { DAY } from './support/time.ts';

const ctx = useTestApp();

type Api = Awaited<ReturnType<typeof jobsAccount>>['api'];

async function account() {
  return jobsAccount(ctx.app, { limits: { requestsPerMinute: 1_000_000 } });
}

async function list(api: Api, query = '') {
  const res = await api.get(`/v1/jobs${query}`);
  assert.equal(res.statusCode, 200, `${query} → ${res.body}`);
  return res.json() as {
    jobs: { id: string; status: string; updatedAt: string }[];
    nextCursor: string | null;
  };
}

const ids = (jobs: { id: string }[]) => jobs.map((j) => j.id);
const sorted = (values: string[]) => [...values].sort();

async function badQuery(api: Api, query: string, field: string) {
  const res = await api.get(`/v1/jobs${query}`);
  assert.equal(res.statusCode, 400, `${query} → ${res.body}`);
  const error = errorOf(res);
  assert.equal(error.code, 'bad_request');
  assert.equal(error.field, field, `${query} → ${res.body}`);
  assert.match(error.message, new RegExp(field));
}

/** One job in each state (a draft too), in a fresh account. */
async function oneOfEach() {
  const { account: acc, api } = await account();
  const draft = await createDraft(api, { title: 'Draft role' });
  const published = await createPublished(api, { title: 'Open role' });
  const closed = await createPublished(api, { title: 'Closed role' });
  assert.equal((await api.post(`/v1/jobs/${closed.id}/close`)).statusCode, 200);
  const expired = await createPublished(api, { title: 'Expired role' }, { expiryDays: 30 });
  // Everything else published with no expiry; move past the 30 days.
  ctx.clock.advance(31 * DAY);
  return { acc, api, draft, published, closed, expired };
}

describe('GET /v1/jobs/{jobId}', () => {
  test('published, closed and expired jobs are readable with their status', async () => {
    const { api, published, closed, expired } = await oneOfEach();
    for (const [job, status] of [
      [published, 'published'],
      [closed, 'closed'],
      [expired, 'expired'],
    ] as const) {
      const res = await api.get(`/v1/jobs/${job.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().job.id, job.id);
      assert.equal(res.json().job.status, status);
      assert.equal(res.json().job.title, job.title);
      assert.ok(res.headers['x-ratelimit-limit']);
    }
  });

  test('a draft, another account’s job and an unknown id are the same 404 not_found', async () => {
    const { api, draft, published } = await oneOfEach();
    const other = await account();
    const answers = [
      await api.get(`/v1/jobs/${draft.id}`),
      await other.api.get(`/v1/jobs/${published.id}`),
      await api.get('/v1/jobs/job_00000000000000000000000000'),
    ];
    for (const res of answers) {
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(errorOf(res).code, 'not_found');
    }
    assert.equal(errorOf(answers[1]!).message, errorOf(answers[2]!).message);
    assert.equal(errorOf(answers[0]!).message, errorOf(answers[2]!).message);
  });

  test('a job id longer than the path allows is 400 naming it', async () => {
    const { api } = await account();
    const res = await api.get(`/v1/jobs/${'j'.repeat(65)}`);
    assert.equal(res.statusCode, 400);
    assert.equal(errorOf(res).field, 'jobId');
  });
});

describe('GET /v1/jobs', () => {
  test('lists published, closed and expired jobs, never drafts', async () => {
    const { api, draft, published, closed, expired } = await oneOfEach();
    const page = await list(api);
    assert.deepEqual(sorted(ids(page.jobs)), sorted([published.id, closed.id, expired.id]));
    assert.ok(!ids(page.jobs).includes(draft.id));
    assert.equal(page.nextCursor, null);
    const byId = new Map(page.jobs.map((j) => [j.id, j.status]));
    assert.equal(byId.get(published.id), 'published');
    assert.equal(byId.get(closed.id), 'closed');
    assert.equal(byId.get(expired.id), 'expired');
  });

  test('newest first', async () => {
    const { api } = await account();
    const first = await createPublished(api, { title: 'First' });
    ctx.clock.advance(1000);
    const second = await createPublished(api, { title: 'Second' });
    assert.deepEqual(ids((await list(api)).jobs), [second.id, first.id]);
  });

  describe('status', () => {
    test('every subset returns exactly its jobs', async () => {
      const { api, published, closed, expired } = await oneOfEach();
      const byStatus: Record<string, string> = {
        published: published.id,
        closed: closed.id,
        expired: expired.id,
      };
      const subsets = [
        ['published'],
        ['closed'],
        ['expired'],
        ['published', 'closed'],
        ['published', 'expired'],
        ['closed', 'expired'],
        ['published', 'closed', 'expired'],
      ];
      for (const subset of subsets) {
        const page = await list(api, `?status=${subset.join(',')}`);
        assert.deepEqual(
          sorted(ids(page.jobs)),
          sorted(subset.map((s) => byStatus[s]!)),
          `status=${subset.join(',')}`,
        );
        for (const job of page.jobs) assert.ok(subset.includes(job.status));
      }
      // Order and repetition do not matter; spaces after commas are tolerated.
      const loose = await list(api, `?status=${encodeURIComponent('expired, published,expired')}`);
      assert.deepEqual(sorted(ids(loose.jobs)), sorted([published.id, expired.id]));
    });

    for (const value of ['draft', 'published,draft', 'open', '', 'published,', 'PUBLISHED']) {
      test(`status=${JSON.stringify(value)} → 400 naming status`, async () => {
        const { api } = await account();
        await badQuery(api, `?status=${encodeURIComponent(value)}`, 'status');
      });
    }
  });

  describe('updatedSince', () => {
    async function timeline() {
      const { api } = await account();
      const t0 = ctx.clock.now();
      const a = await createPublished(api, { title: 'A' });
      ctx.clock.advance(3_600_000);
      const t1 = ctx.clock.now();
      const b = await createPublished(api, { title: 'B' });
      const c = await createPublished(api, { title: 'C' }, { expiryDays: 30 });
      const d = await createPublished(api, { title: 'D' });
      ctx.clock.advance(3_600_000);
      const t2 = ctx.clock.now();
      assert.equal((await api.post(`/v1/jobs/${a.id}/close`)).statusCode, 200, 'a close moves updatedAt');
      ctx.clock.advance(3_600_000);
      const t3 = ctx.clock.now();
      const staged = await api.patch(`/v1/jobs/${d.id}`, { title: 'D2' });
      assert.equal(staged.json().pendingRevision, true, 'a staged edit moves updatedAt');
      ctx.clock.advance(31 * DAY); // C expires: no write
      return { api, a, b, c, d, t0, t1, t2, t3 };
    }

    test('ISO 8601 and epoch milliseconds select the jobs changed at or after the moment', async () => {
      const { api, a, b, c, d, t0, t1, t2, t3 } = await timeline();
      const expectations: [Date, string[]][] = [
        [t0, [a.id, b.id, c.id, d.id]],
        [t1, [a.id, b.id, c.id, d.id]],
        [new Date(t1.getTime() + 1), [a.id, d.id]],
        [t2, [a.id, d.id]],
        [t3, [d.id]],
        [new Date(t3.getTime() + 1), []],
      ];
      for (const [since, expected] of expectations) {
        for (const form of [since.toISOString(), String(since.getTime())]) {
          const page = await list(api, `?updatedSince=${encodeURIComponent(form)}`);
          assert.deepEqual(sorted(ids(page.jobs)), sorted(expected), `updatedSince=${form}`);
        }
      }
      // Expiry wrote nothing: C is expired but still dated at its publish.
      const expired = await list(api, `?status=expired&updatedSince=${t2.getTime()}`);
      assert.deepEqual(ids(expired.jobs), []);
      const expiredAll = await list(api, `?status=expired&updatedSince=${t1.toISOString()}`);
      assert.deepEqual(ids(expiredAll.jobs), [c.id]);
    });

    test('an ISO 8601 timestamp with an offset is the same moment', async () => {
      const { api, a, d, t2 } = await timeline();
      const local = new Date(t2.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      const page = await list(api, `?updatedSince=${encodeURIComponent(local)}`);
      assert.deepEqual(sorted(ids(page.jobs)), sorted([a.id, d.id]));
    });

    for (const value of ['yesterday', '2026-13-45T00:00:00Z', '-5', '1.5', '12:00', 'x'.repeat(41), '']) {
      test(`updatedSince=${JSON.stringify(value.slice(0, 20))} → 400 naming updatedSince`, async () => {
        const { api } = await account();
        await badQuery(api, `?updatedSince=${encodeURIComponent(value)}`, 'updatedSince');
      });
    }
  });

  describe('limit and cursor', () => {
    let api: Api;
    let all: string[];

    before(async () => {
      ({ api } = await account());
      const created: string[] = [];
      for (let i = 0; i < 105; i++) {
        created.push((await createPublished(api, { title: `Role ${i}` })).id);
        if (i % 10 === 0) ctx.clock.advance(1);
      }
      // A few drafts and closed ones in between: drafts never count.
      for (let i = 0; i < 3; i++) await createDraft(api, { title: `Draft ${i}` });
      all = created;
    });

    test('default limit is 50, maximum 100', async () => {
      const first = await list(api);
      assert.equal(first.jobs.length, 50);
      assert.ok(first.nextCursor);
      const max = await list(api, '?limit=100');
      assert.equal(max.jobs.length, 100);
      assert.ok(max.nextCursor);
      const one = await list(api, '?limit=1');
      assert.equal(one.jobs.length, 1);
      assert.equal(one.jobs[0]!.id, first.jobs[0]!.id);
    });

    for (const value of ['0', '101', '-1', '1.5', 'ten', '']) {
      test(`limit=${JSON.stringify(value)} → 400 naming limit`, async () => {
        await badQuery(api, `?limit=${encodeURIComponent(value)}`, 'limit');
      });
    }

    for (const limit of [7, 35, 50, 100]) {
      test(`paging with limit ${limit} returns every job exactly once, newest first`, async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await list(
            api,
            `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          );
          assert.ok(page.jobs.length <= limit);
          seen.push(...ids(page.jobs));
          cursor = page.nextCursor;
          pages += 1;
          assert.ok(pages < 50, 'paging ends');
        } while (cursor !== null);
        assert.equal(seen.length, all.length);
        assert.equal(new Set(seen).size, all.length, 'no job repeated');
        assert.deepEqual(sorted(seen), sorted(all), 'no job skipped');
        assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first');
        assert.equal(pages, Math.ceil(all.length / limit));
      });
    }

    test('the last full page says there is no more (nextCursor null)', async () => {
      const { api: own } = await account();
      for (let i = 0; i < 10; i++) await createPublished(own, { title: `Even ${i}` });
      const first = await list(own, '?limit=5');
      assert.ok(first.nextCursor);
      const second = await list(own, `?limit=5&cursor=${encodeURIComponent(first.nextCursor!)}`);
      assert.equal(second.jobs.length, 5);
      assert.equal(second.nextCursor, null);
    });

    test('cursor with filters: status and updatedSince apply on every page', async () => {
      const { api: own } = await account();
      const open: string[] = [];
      for (let i = 0; i < 9; i++) {
        const job = await createPublished(own, { title: `Mixed ${i}` });
        if (i % 3 === 0) assert.equal((await own.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
        else open.push(job.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(own, `?status=published&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...ids(page.jobs));
        cursor = page.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(sorted(seen), sorted(open));
    });

    test('paging under concurrent writes: no job that existed at the start is skipped or repeated', async () => {
      const { api: own } = await account();
      const start: string[] = [];
      for (let i = 0; i < 30; i++) {
        start.push((await createPublished(own, { title: `Busy ${i}` })).id);
        ctx.clock.advance(i % 2);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let round = 0;
      do {
        const page = await list(own, `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...ids(page.jobs));
        cursor = page.nextCursor;
        round += 1;
        // Between pages: new roles are created and published, existing ones edited, promoted, closed.
        ctx.clock.advance(1000);
        await createPublished(own, { title: `New ${round}` });
        await createDraft(own, { title: `New draft ${round}` });
        const seenTarget = start[round % start.length]!;
        const unseenTarget = start[start.length - 1 - (round % start.length)]!;
        for (const target of [seenTarget, unseenTarget]) {
          const res = await own.patch(`/v1/jobs/${target}`, {
            title: `Edited ${round}`,
            publishEdits: round % 2 === 0,
          });
          assert.equal(res.statusCode, 200, res.body);
        }
        if (round % 3 === 0) {
          const res = await own.post(`/v1/jobs/${start[round]}/close`);
          assert.ok([200, 409].includes(res.statusCode), res.body);
        }
      } while (cursor !== null);
      const fromStart = seen.filter((id) => start.includes(id));
      assert.equal(new Set(seen).size, seen.length, 'no job repeated');
      assert.deepEqual(sorted(fromStart), sorted(start), 'every job that existed at the start, once');
    });

    test('paging while jobs are created in the same millisecond as existing ones', async () => {
      const { api: own } = await account();
      const start: string[] = [];
      for (let i = 0; i < 12; i++) start.push((await createPublished(own, { title: `Same ms ${i}` })).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(own, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...ids(page.jobs));
        cursor = page.nextCursor;
        // The clock does not move: new ids share the millisecond of the existing ones.
        await createPublished(own, { title: 'Meanwhile' });
      } while (cursor !== null);
      assert.equal(new Set(seen).size, seen.length, 'no job repeated');
      assert.deepEqual(sorted(seen.filter((id) => start.includes(id))), sorted(start));
    });

    for (const [name, value] of [
      ['not base64url', 'not a cursor!'],
      ['base64url but not ours', 'abcdef'],
      ['an empty position', Buffer.from('v1:').toString('base64url')],
      ['too long', 'a'.repeat(201)],
      ['empty', ''],
    ]) {
      test(`a malformed cursor (${name}) → 400 naming cursor`, async () => {
        await badQuery(api, `?cursor=${encodeURIComponent(value!)}`, 'cursor');
      });
    }

    test('an unknown query parameter → 400 naming it', async () => {
      await badQuery(api, '?staus=closed', 'staus');
    });

    test('a job row is never changed by reading the list', async () => {
      const row = await jobRow(ctx.handle, all[0]!);
      await list(api, '?limit=100');
      assert.deepEqual(await jobRow(ctx.handle, all[0]!), row);
    });
  });
});
