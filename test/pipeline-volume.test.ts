// The applications list at real volume (issue 27): 2,000 applications on one job. On PostgreSQL
// (DATABASE_URL) the page's first page, a search and a filter answer in under 100 ms server time
// (median of several runs); on PGlite the same is printed and held to a looser bound. Paging by
// cursor under every sort yields every application exactly once.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import { seedApplications } from '../bench/pipeline-seed.ts';
import { signedIn } from './console-web-client.ts';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';

const N = 2000;
const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
/** The bound on the median: the spec's 100 ms on PostgreSQL; PGlite (WASM, one core) gets 3×. */
const BOUND_MS = ON_POSTGRES ? 100 : 300;

let seeded: { accountId: string; jobId: string; ids: string[] } | null = null;
const ctx = useTestApp({}, async (c) => {
  const intake = await intakeAccount(c.app);
  const job = await createPublished(intake.api);
  const accountId = intake.account.id as string;
  const ids = await seedApplications(c.handle.db, { accountId, jobId: job.id }, N);
  seeded = { accountId, jobId: job.id, ids };
});
const seed = () => seeded!;

/** The median of `runs` timings of `call` (after one warm-up), in ms; each run must answer 200. */
async function medianMs(runs: number, call: () => Promise<{ statusCode: number; body: string }>) {
  const warm = await call();
  assert.equal(warm.statusCode, 200, warm.body.slice(0, 300));
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await call();
    times.push(performance.now() - t0);
    assert.equal(res.statusCode, 200);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, times };
}

describe(`the applications list with ${N} applications on one job (${ON_POSTGRES ? 'PostgreSQL' : 'PGlite'})`, () => {
  test('the page: first page, a search and a filter each answer under the bound (median of 7)', async () => {
    const { accountId, jobId } = seed();
    const { web } = await signedIn(ctx.app, accountId, 'recruiter');
    const base = `/console/jobs/${jobId}/applications`;
    const first = await web.get(base);
    assert.match(first.body, new RegExp(`All <span class="n">${N.toLocaleString('en')}</span>`));
    assert.equal((first.body.match(/name="ids"/g) ?? []).length, 50);
    const figures: Record<string, number> = {};
    for (const [label, url] of [
      ['first page', base],
      ['search', `${base}?q=okafor`],
      ['filter', `${base}?stage=shortlisted&source=job_page`],
      ['search, filter and sort', `${base}?q=ana&cv=claimed&sort=name`],
    ] as const) {
      const { median, times } = await medianMs(7, () => web.get(url));
      figures[label] = Math.round(median * 10) / 10;
      assert.ok(
        median < BOUND_MS,
        `${label}: median ${median.toFixed(1)} ms ≥ ${BOUND_MS} ms (${times.map((t) => t.toFixed(1)).join(', ')})`,
      );
    }
    console.log(
      `pipeline page server times (median ms, ${ON_POSTGRES ? 'PostgreSQL' : 'PGlite'}): ${JSON.stringify(figures)}`,
    );
  });

  test('the console API: first page, search and filter under the bound; counts for the whole job', async () => {
    const { accountId, jobId } = seed();
    const base = `/accounts/${accountId}/jobs/${jobId}/applications`;
    for (const url of [base, `${base}?q=seed.1999@`, `${base}?stage=rejected&cvStatus=failed`]) {
      const { median } = await medianMs(7, () => consoleCall(ctx.app, 'GET', url));
      assert.ok(median < BOUND_MS, `${url}: median ${median.toFixed(1)} ms`);
      const res = (await consoleCall(ctx.app, 'GET', url)).json();
      assert.equal(res.counts.total, N);
      const sum = Object.values(res.counts.byStage as Record<string, number>).reduce((a, b) => a + b, 0);
      assert.equal(sum, N);
    }
    const one = (await consoleCall(ctx.app, 'GET', `${base}?q=SEED.1999@`)).json();
    assert.equal(one.applications.length, 1);
    assert.equal(one.applications[0].email, 'seed.1999@example.com');
  });

  for (const sort of ['newest', 'oldest', 'name'] as const) {
    test(`paging by cursor (sort ${sort}) yields every application exactly once, in order`, async () => {
      const { accountId, jobId, ids } = seed();
      const seen: string[] = [];
      const keys: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query = new URLSearchParams({ sort, limit: '100', ...(cursor ? { cursor } : {}) });
        const res = await consoleCall(
          ctx.app,
          'GET',
          `/accounts/${accountId}/jobs/${jobId}/applications?${query}`,
        );
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json();
        for (const a of page.applications) {
          seen.push(a.applicationId);
          keys.push(
            sort === 'name'
              ? `${(a.name ?? '').toLowerCase()}\u0000${a.applicationId}`
              : `${a.createdAt}\u0000${a.applicationId}`,
          );
        }
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 100);
      assert.equal(pages, N / 100);
      assert.equal(seen.length, N);
      assert.equal(new Set(seen).size, N, 'no application twice');
      assert.deepEqual([...seen].sort(), [...ids].sort(), 'every application');
      if (sort !== 'name') {
        const ordered = [...keys].sort();
        assert.deepEqual(keys, sort === 'oldest' ? ordered : ordered.reverse(), 'in the sort order');
      }
    });
  }

  test('paging with a filter while applications move out of it still yields each remaining one once', async () => {
    const { accountId, jobId } = seed();
    const base = `/accounts/${accountId}/jobs/${jobId}/applications`;
    const all = new Set<string>();
    let cursor: string | null = null;
    let moved = false;
    do {
      const query: URLSearchParams = new URLSearchParams({
        stage: 'new',
        limit: '100',
        ...(cursor ? { cursor } : {}),
      });
      const page: { applications: { applicationId: string }[]; nextCursor: string | null } = (
        await consoleCall(ctx.app, 'GET', `${base}?${query}`)
      ).json();
      for (const a of page.applications) {
        assert.ok(!all.has(a.applicationId), 'seen twice');
        all.add(a.applicationId);
      }
      if (!moved) {
        // Moving rows already shown does not shift the pages after them.
        const ids = page.applications.slice(0, 10).map((a: { applicationId: string }) => a.applicationId);
        await consoleCall(ctx.app, 'POST', `${base}/stage`, { applicationIds: ids, stage: 'reviewing' });
        moved = true;
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
    const counts = (await consoleCall(ctx.app, 'GET', base)).json().counts;
    assert.equal(all.size, counts.byStage.new + 10);
  });
});
