import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { type ApiClient, client, consoleCall, newAccount, newKey, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import {
  applicationBody,
  applyTo,
  candidateBody,
  importCandidate,
  pdfFixture,
  uploadPdf,
} from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { drainAll, mailTo } from './support/mail.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/**
 * Test mode (extensions.md §8, issue 32): a test key's data is apart from live data in every read,
 * list and page, the feeds, the sitemap, the match pool, the bill and the budgets.
 */

const ctx = useTestApp();

const backend = (pool as (PoolCvDescription & { truth: { occupation: string } })[]).filter(
  (cv) => cv.truth.occupation === 'backend',
);

const SCOPES = ['jobs:read', 'jobs:write', 'applications:write', 'screening'];

interface Pair {
  accountId: string;
  companyAddress: string;
  live: ApiClient;
  test: ApiClient;
  testSecret: string;
}

async function pair(limits: Record<string, number> = {}): Promise<Pair> {
  const account = await newAccount(ctx.app, {
    dpa: true,
    limits: { requestsPerMinute: 100_000, ...limits },
  });
  const live = await newKey(ctx.app, account.id, SCOPES);
  const test = await newKey(ctx.app, account.id, SCOPES, 'test');
  return {
    accountId: account.id,
    companyAddress: account.companyAddress!,
    live: client(ctx.app, live.secret),
    test: client(ctx.app, test.secret),
    testSecret: test.secret,
  };
}

describe('test keys', () => {
  test('mode test mints cak_test_…; live is the default; the console lists each key’s mode', async () => {
    const account = await newAccount(ctx.app, { dpa: true });
    const live = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read'],
    });
    const test = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read'],
      mode: 'test',
    });
    assert.equal(live.statusCode, 201, live.body);
    assert.equal(test.statusCode, 201, test.body);
    assert.match(live.json().secret, /^cak_(?!test_)/);
    assert.match(test.json().secret, /^cak_test_/);
    assert.equal(live.json().key.mode, 'live');
    assert.equal(test.json().key.mode, 'test');
    const listed = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`);
    assert.deepEqual(
      listed
        .json()
        .keys.map((k: { mode: string }) => k.mode)
        .sort(),
      ['live', 'test'],
    );
    const bad = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read'],
      mode: 'sandbox',
    });
    assert.equal(bad.statusCode, 400);
  });

  test('the test twin is no account of its own: the console’s account list shows only live accounts', async () => {
    const p = await pair();
    const res = await consoleCall(ctx.app, 'GET', '/accounts?limit=200');
    const ids: string[] = res.json().accounts.map((a: { id: string }) => a.id);
    const twin = await ctx.handle.db
      .selectFrom('accounts')
      .select('id')
      .where('live_account_id', '=', p.accountId)
      .executeTakeFirstOrThrow();
    assert.ok(!ids.includes(twin.id));
    assertError(await consoleCall(ctx.app, 'GET', `/accounts/${twin.id}`), 404, 'not_found');
  });
});

describe('jobs by mode', () => {
  let p: Pair;
  let liveJob: { id: string; url?: string };
  let testJob: { id: string; url?: string };
  const tag = unique('sandboxjob').replace(/-/g, '');

  before(async () => {
    p = await pair();
    liveJob = await createPublished(p.live, {
      title: `Live ${tag}`,
      location: { country: 'GB', city: 'Leeds' },
    });
    testJob = await createPublished(p.test, {
      title: `Test ${tag}`,
      location: { country: 'GB', city: 'Leeds' },
    });
  });

  test('each key reads its own mode’s jobs and gets 404 for the other’s', async () => {
    assert.equal((await p.live.get(`/v1/jobs/${liveJob.id}`)).statusCode, 200);
    assert.equal((await p.test.get(`/v1/jobs/${testJob.id}`)).statusCode, 200);
    assertError(await p.live.get(`/v1/jobs/${testJob.id}`), 404, 'not_found');
    assertError(await p.test.get(`/v1/jobs/${liveJob.id}`), 404, 'not_found');
    assertError(await p.live.patch(`/v1/jobs/${testJob.id}`, { title: 'x' }), 404, 'not_found');
    assertError(await p.test.post(`/v1/jobs/${liveJob.id}/close`), 404, 'not_found');
  });

  test('GET /v1/jobs with a test key lists only test jobs, and a live key only live ones', async () => {
    const ids = async (api: ApiClient) =>
      (await api.get('/v1/jobs?limit=100')).json().jobs.map((j: { id: string }) => j.id);
    assert.deepEqual(await ids(p.test), [testJob.id]);
    assert.deepEqual(await ids(p.live), [liveJob.id]);
  });

  test('a test job’s page: noindex, a visible "Test job" notice, no JobPosting', async () => {
    assert.ok(testJob.url?.includes(`/jobs/${p.companyAddress}.test/`), testJob.url);
    const path = new URL(testJob.url!).pathname;
    const page = await ctx.app.inject({ method: 'GET', url: path });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<meta name="robots" content="noindex">/);
    assert.match(page.body, /<strong>Test job<\/strong>/);
    assert.doesNotMatch(page.body, /JobPosting/);
    assert.equal(page.headers['cache-control'], 'no-store');
    // The live job's page, for contrast: indexable, a JobPosting, no notice.
    const live = await ctx.app.inject({ method: 'GET', url: new URL(liveJob.url!).pathname });
    assert.doesNotMatch(live.body, /noindex/);
    assert.match(live.body, /JobPosting/);
    assert.doesNotMatch(live.body, /Test job/);
  });

  test('test jobs are never in the JSON feed, the HTML feed or the sitemap', async () => {
    const json = await ctx.app.inject({ method: 'GET', url: `/feed/jobs.json?q=${tag}&limit=100` });
    const titles = json.json().jobs.map((j: { title: string }) => j.title);
    assert.deepEqual(titles, [`Live ${tag}`]);
    const html = await ctx.app.inject({ method: 'GET', url: `/en/jobs?q=${tag}` });
    assert.match(html.body, new RegExp(`Live ${tag}`));
    assert.doesNotMatch(html.body, new RegExp(`Test ${tag}`));
    const sitemap = await ctx.app.inject({ method: 'GET', url: '/sitemap.xml' });
    assert.ok(sitemap.body.includes(liveJob.url!));
    assert.ok(!sitemap.body.includes(testJob.url!));
  });
});

describe('applications and imports by mode', () => {
  test('each key gets 404 for the other mode’s applications, and its jobs refuse the other mode’s key', async () => {
    const p = await pair();
    const liveJob = await createPublished(p.live);
    const testJob = await createPublished(p.test);
    const liveApp = await applyTo(ctx, p.live, liveJob.id);
    const testApp = await applyTo(ctx, p.test, testJob.id);
    assert.equal((await p.test.get(`/v1/applications/${testApp.candidateId}`)).statusCode, 200);
    assertError(await p.live.get(`/v1/applications/${testApp.candidateId}`), 404, 'not_found');
    assertError(await p.test.get(`/v1/applications/${liveApp.candidateId}`), 404, 'not_found');
    // A test key cannot apply to a live job (nor upload into the live account's quota).
    const upload = await uploadPdf(ctx, p.test, pdfFixture('cv-2-pages.pdf'));
    const res = await p.test.post(
      `/v1/jobs/${liveJob.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId),
      {
        'idempotency-key': unique('idem'),
      },
    );
    assertError(res, 404, 'not_found');
  });

  test('daily application and import budgets are counted apart: test traffic never spends live’s', async () => {
    const p = await pair({ dailyApplications: 1, dailyCandidateImports: 1 });
    const liveJob = await createPublished(p.live);
    const testJob = await createPublished(p.test);
    await applyTo(ctx, p.test, testJob.id);
    const again = await uploadPdf(ctx, p.test, pdfFixture('cv-2-pages.pdf'));
    const refused = await p.test.post(
      `/v1/jobs/${testJob.id}/applications`,
      applicationBody(ctx.clock, again.uploadId),
      { 'idempotency-key': unique('idem') },
    );
    assertError(refused, 429, 'daily_cap_reached');
    // The live budget is untouched by the test application.
    await applyTo(ctx, p.live, liveJob.id);
    await importCandidate(ctx, p.test);
    await importCandidate(ctx, p.live);
  });

  test('the per-minute rate: a test key’s spent budget does not limit the live key', async () => {
    const account = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 2 } });
    const live = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:read'])).secret);
    const test = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:read'], 'test')).secret);
    assert.equal((await test.get('/v1/jobs')).statusCode, 200);
    assert.equal((await test.get('/v1/jobs')).statusCode, 200);
    assertError(await test.get('/v1/jobs'), 429, 'rate_limited');
    assert.equal((await live.get('/v1/jobs')).statusCode, 200);
  });
});

describe('test helpers', () => {
  test('/v1/test/jobs/{id}/manage and /unmanage: a live key gets 404; a test key manages its test job', async () => {
    const p = await pair();
    const testJob = await createPublished(p.test);
    const liveJob = await createPublished(p.live);
    assertError(await p.live.post(`/v1/test/jobs/${liveJob.id}/manage`), 404, 'not_found');
    assertError(await p.live.post(`/v1/test/jobs/${testJob.id}/manage`), 404, 'not_found');
    assertError(await p.test.post(`/v1/test/jobs/${liveJob.id}/manage`), 404, 'not_found');
    const managed = await p.test.post(`/v1/test/jobs/${testJob.id}/manage`);
    assert.equal(managed.statusCode, 200, managed.body);
    assert.equal(managed.json().managed, true);
    assert.equal((await p.test.get(`/v1/jobs/${testJob.id}/matches`)).statusCode, 200);
    const unmanaged = await p.test.post(`/v1/test/jobs/${testJob.id}/unmanage`);
    assert.equal(unmanaged.json().managed, false);
    assertError(await p.test.get(`/v1/jobs/${testJob.id}/matches`), 409, 'ad_not_managed');
  });
});

/** The test key's events of `types`, as [type, data, livemode]. */
async function eventsOf(api: ApiClient, types: string) {
  const res = await api.get(`/v1/events?types=${types}&limit=100`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().events as { type: string; livemode: boolean; data: Record<string, string> }[];
}

describe('test helpers move time and state', () => {
  test('expire: a published test job expires now, job.expired (livemode false) once; 409 after; 404 to live', async () => {
    const p = await pair();
    const job = await createPublished(p.test);
    assertError(await p.live.post(`/v1/test/jobs/${job.id}/expire`), 404, 'not_found');
    const res = await p.test.post(`/v1/test/jobs/${job.id}/expire`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().job.status, 'expired');
    assert.equal((await p.test.get(`/v1/jobs/${job.id}`)).json().job.status, 'expired');
    await ctx.services.maintenance();
    const expired = await eventsOf(p.test, 'job.expired');
    assert.deepEqual(
      expired.map((e) => [e.data.jobId, e.livemode]),
      [[job.id, false]],
    );
    assertError(await p.test.post(`/v1/test/jobs/${job.id}/expire`), 409, 'conflict');
  });

  test('cv: staged, claimed, failed and deleted along api.md’s transitions, with their events; 409 otherwise', async () => {
    const p = await pair();
    const job = await createPublished(p.test);
    const move = (id: string, to: string) => p.test.post(`/v1/test/applications/${id}/cv`, { to });
    const one = (await applyTo(ctx, p.test, job.id)).candidateId;
    assertError(await p.live.post(`/v1/test/applications/${one}/cv`, { to: 'staged' }), 404, 'not_found');
    assertError(await move(one, 'claimed'), 409, 'conflict');
    assertError(await move(one, 'deleted'), 409, 'conflict');
    const staged = await move(one, 'staged');
    assert.equal(staged.statusCode, 200, staged.body);
    assert.equal(staged.json().cvStatus, 'staged');
    assertError(await move(one, 'failed'), 409, 'conflict');
    assert.equal((await move(one, 'claimed')).json().cvStatus, 'claimed');
    assertError(await move(one, 'deleted'), 409, 'conflict');

    const two = (await applyTo(ctx, p.test, job.id)).candidateId;
    const failed = await move(two, 'failed');
    assert.deepEqual([failed.json().status, failed.json().cvStatus], ['withdrawn', 'failed']);

    const three = (await applyTo(ctx, p.test, job.id)).candidateId;
    await move(three, 'staged');
    assert.equal((await move(three, 'deleted')).json().cvStatus, 'deleted');
    assertError(await move(three, 'nowhere'), 400, 'bad_request');

    const moves = (await eventsOf(p.test, 'application.cv_status_changed,application.withdrawn')).map((e) => [
      e.type,
      e.data.applicationId,
      e.data.cvStatus,
      e.livemode,
    ]);
    assert.deepEqual(moves, [
      ['application.cv_status_changed', one, 'staged', false],
      ['application.cv_status_changed', one, 'claimed', false],
      ['application.cv_status_changed', two, 'failed', false],
      ['application.withdrawn', two, 'failed', false],
      ['application.cv_status_changed', three, 'staged', false],
      ['application.cv_status_changed', three, 'deleted', false],
    ]);
  });

  test('screening complete: an open test screening completes (screening.completed, livemode false); 409 after', async () => {
    const p = await pair();
    const template = await newTemplate(ctx.app, p.accountId);
    const job = await createPublished(p.test);
    await p.test.post(`/v1/test/jobs/${job.id}/manage`);
    const applicant = await applyTo(ctx, p.test, job.id);
    const triggered = await triggerScreening(p.test, job.id, applicant.candidateId, {
      templateId: template.id,
    });
    const id = triggered.json().screening.screeningId;
    assertError(await p.live.post(`/v1/test/screenings/${id}/complete`), 404, 'not_found');
    const done = await p.test.post(`/v1/test/screenings/${id}/complete`);
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json().screening.status, 'completed');
    assertError(await p.test.post(`/v1/test/screenings/${id}/complete`), 409, 'conflict');
    const completed = await eventsOf(p.test, 'screening.completed');
    assert.deepEqual(
      completed.map((e) => [e.data.screeningId, e.livemode]),
      [[id, false]],
    );
  });
});

describe('matches, screenings and the bill by mode', () => {
  test('a test role is matched from test people only, a live role from live people only', async () => {
    const p = await pair();
    // Both modes hold a backend engineer whose CV fits the role; each role's matches are its mode's.
    const importCv = async (api: ApiClient, cv: PoolCvDescription) => {
      const upload = await uploadPdf(ctx, api, await renderPoolCv(cv));
      const email = `${unique('m').toLowerCase()}@example.com`;
      const res = await api.post('/v1/candidates', candidateBody(upload.uploadId, { name: cv.name, email }), {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().candidateId as string;
    };
    const liveCandidate = await importCv(p.live, backend[0]!);
    const testCandidate = await importCv(p.test, backend[1]!);
    const liveJob = await createPublished(p.live, BACKEND_ROLE);
    const testJob = await createPublished(p.test, BACKEND_ROLE);
    const managed = await consoleCall(ctx.app, 'POST', `/accounts/${p.accountId}/jobs/${liveJob.id}/manage`);
    assert.equal(managed.statusCode, 200);
    assert.equal((await p.test.post(`/v1/test/jobs/${testJob.id}/manage`)).statusCode, 200);
    await drainAll(ctx.worker);
    ctx.clock.advance(REFRESH_BATCH_MS + 1);
    await ctx.services.maintenance();
    await drainAll(ctx.worker);
    const matched = async (api: ApiClient, jobId: string) =>
      (await api.get(`/v1/jobs/${jobId}/matches`))
        .json()
        .matches.map((m: { candidateId: string }) => m.candidateId);
    assert.deepEqual(await matched(p.live, liveJob.id), [liveCandidate]);
    assert.deepEqual(await matched(p.test, testJob.id), [testCandidate]);
  });

  test('a test screening answers billing and priceCents as a live one, and the bill stays empty', async () => {
    const p = await pair();
    const template = await newTemplate(ctx.app, p.accountId, { priceCents: 1500, currency: 'AUD' });
    const job = await createPublished(p.test);
    assert.equal((await p.test.post(`/v1/test/jobs/${job.id}/manage`)).statusCode, 200);
    const applicant = await applyTo(ctx, p.test, job.id);
    const res = await triggerScreening(p.test, job.id, applicant.candidateId, { templateId: template.id });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().billing, 'included');
    assert.equal(res.json().priceCents, 1500);
    const month = ctx.clock.now().toISOString().slice(0, 7);
    const bill = await consoleCall(ctx.app, 'GET', `/accounts/${p.accountId}/billing?month=${month}`);
    assert.equal(bill.statusCode, 200, bill.body);
    assert.deepEqual(bill.json().screenings, []);
    assert.equal(bill.json().spendCents, 0);
  });
});

describe('test mail', () => {
  test('a test application’s claim mail is in the outbox; the live key’s reads are unchanged', async () => {
    const p = await pair();
    const job = await createPublished(p.test);
    const applicant = await applyTo(ctx, p.test, job.id);
    await drainAll(ctx.worker);
    const mail = await mailTo(ctx.app, applicant.email);
    assert.equal(mail.length, 1);
  });
});
