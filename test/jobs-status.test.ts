import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, jobsAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';
import { DAY } from './support/time.ts';

/** Every row of api.md's job status table. */

const ctx = useTestApp();

async function account() {
  return jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
}

async function consoleJob(accountId: string, jobId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/jobs`);
  assert.equal(res.statusCode, 200);
  const job = res.json().jobs.find((j: { id: string }) => j.id === jobId);
  assert.ok(job, 'the console lists the job');
  return job;
}

/** POST publish on a job that was live before: 200, not a first publish, live again on the same page now. */
async function republished(
  api: Awaited<ReturnType<typeof account>>['api'],
  job: { id: string; url?: string | undefined },
) {
  const now = ctx.clock.now().toISOString();
  const res = await api.post(`/v1/jobs/${job.id}/publish`);
  assert.equal(res.statusCode, 200, res.body);
  const { job: again, firstPublish } = res.json();
  assert.equal(firstPublish, false);
  assert.equal(again.status, 'published');
  assert.equal(again.url, job.url, 'same page: the role slug is kept');
  assert.equal(again.updatedAt, now);
  return { again, now };
}

async function listIds(api: Awaited<ReturnType<typeof account>>['api'], query = '') {
  const res = await api.get(`/v1/jobs${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().jobs.map((j: { id: string }) => j.id);
}

describe('job status table', () => {
  test('(new) → draft: not public, absent from the list, in the console as a draft', async () => {
    const { account: acc, api } = await account();
    const draft = await createDraft(api);
    assert.equal(draft.status, 'draft');
    assert.equal((await jobRow(ctx.handle, draft.id)).status, 'draft');
    assert.equal((await api.get(`/v1/jobs/${draft.id}`)).statusCode, 404);
    assert.deepEqual(await listIds(api), []);
    const inConsole = await consoleJob(acc.id, draft.id);
    assert.equal(inConsole.status, 'draft');
    assert.equal(inConsole.managed, false);
  });

  test('draft → published by POST publish', async () => {
    const { account: acc, api } = await account();
    const draft = await createDraft(api);
    ctx.clock.advance(60_000);
    const now = ctx.clock.now().toISOString();
    const res = await api.post(`/v1/jobs/${draft.id}/publish`);
    assert.equal(res.statusCode, 200, res.body);
    const { job, firstPublish } = res.json();
    assert.equal(firstPublish, true);
    assert.equal(job.status, 'published');
    assert.equal(job.postedAt, now);
    assert.equal(job.updatedAt, now);
    assert.equal(job.url, `https://careers.test/en/jobs/${acc.companyAddress}/backend-engineer`);
    assert.equal(job.applyLink, draft.applyLink, 'the applyLink does not change on publish');

    const row = await jobRow(ctx.handle, draft.id);
    assert.equal(row.status, 'published');
    assert.equal(row.slug, 'backend-engineer');
    assert.equal(row.first_published_at?.toISOString(), now);
    assert.equal(row.updated_at.toISOString(), now);

    const read = await api.get(`/v1/jobs/${draft.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().job.status, 'published');
    assert.deepEqual(await listIds(api), [draft.id]);
  });

  test('published → closed by POST close: closedAt set, still readable', async () => {
    const { api } = await account();
    const job = await createPublished(api);
    ctx.clock.advance(60_000);
    const now = ctx.clock.now().toISOString();
    const res = await api.post(`/v1/jobs/${job.id}/close`);
    assert.equal(res.statusCode, 200, res.body);
    const closed = res.json().job;
    assert.equal(closed.status, 'closed');
    assert.equal(closed.closedAt, now);
    assert.equal(closed.updatedAt, now);
    assert.equal(closed.url, job.url, 'the page stays (it says the role closed)');

    const row = await jobRow(ctx.handle, job.id);
    assert.equal(row.status, 'closed');
    assert.equal(row.closed_at?.toISOString(), now);

    const read = await api.get(`/v1/jobs/${job.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().job.status, 'closed');
    assert.equal(read.json().job.closedAt, now);
    assert.deepEqual(await listIds(api, '?status=closed'), [job.id]);
    assert.deepEqual(await listIds(api, '?status=published'), []);
  });

  test('published → expired by time passing: nothing written, updatedAt unchanged', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api, {}, { expiryDays: 30 });
    const expiresAt = new Date(job.expiresAt!);
    assert.equal(expiresAt.getTime(), ctx.clock.now().getTime() + 30 * DAY);
    const before = await jobRow(ctx.handle, job.id);

    ctx.clock.set(new Date(expiresAt.getTime() - 1));
    assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.status, 'published', 'a moment before');

    ctx.clock.set(expiresAt);
    const read = await api.get(`/v1/jobs/${job.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().job.status, 'expired', 'expired the moment expiresAt is reached');
    assert.equal(read.json().job.updatedAt, job.updatedAt);
    assert.equal(read.json().job.expiresAt, job.expiresAt);

    ctx.clock.advance(DAY);
    const listed = (await api.get('/v1/jobs')).json().jobs;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].status, 'expired');
    assert.equal(listed[0].updatedAt, job.updatedAt);
    assert.deepEqual(await listIds(api, '?status=expired'), [job.id]);
    assert.deepEqual(await listIds(api, '?status=published'), []);
    assert.equal((await consoleJob(acc.id, job.id)).status, 'expired');

    const after = await jobRow(ctx.handle, job.id);
    assert.deepEqual(after, before, 'no row write: the row (updated_at included) is unchanged');
    assert.equal(after.updated_at.getTime(), before.updated_at.getTime());
    assert.equal(after.status, 'published', 'expiry is computed, never stored');
  });

  test('closed → published by POST publish: slug kept, comes back unmanaged', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api, { title: 'Night Nurse' });
    const manage = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${job.id}/manage`);
    assert.equal(manage.statusCode, 200, manage.body);
    const slug = (await jobRow(ctx.handle, job.id)).slug;
    assert.equal(slug, 'night-nurse');

    ctx.clock.advance(DAY);
    assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    assert.equal((await jobRow(ctx.handle, job.id)).managed_since, null, 'closing freed the slot');
    ctx.clock.advance(DAY);
    const { again, now } = await republished(api, job);
    assert.equal(again.closedAt, undefined, 'closedAt cleared');
    assert.equal(again.postedAt, now);

    const row = await jobRow(ctx.handle, job.id);
    assert.equal(row.slug, slug);
    assert.equal(row.status, 'published');
    assert.equal(row.closed_at, null);
    assert.equal(row.managed_since, null);
    assert.equal(row.first_published_at?.toISOString(), job.postedAt, 'first publish is remembered');
    assert.equal((await consoleJob(acc.id, job.id)).managed, false);
  });

  test('expired → published by POST publish: slug kept, comes back unmanaged', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api, { title: 'Bus Driver' }, { expiryDays: 60 });
    const manage = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${job.id}/manage`);
    assert.equal(manage.statusCode, 200, manage.body);
    assert.equal((await consoleJob(acc.id, job.id)).managed, true);

    ctx.clock.advance(61 * DAY);
    assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.status, 'expired');
    assert.equal((await consoleJob(acc.id, job.id)).managed, false, 'expiry frees the slot');

    const { again } = await republished(api, job);
    assert.equal(again.expiresAt, undefined, 'a passed expiry is cleared, else it would expire at once');

    const row = await jobRow(ctx.handle, job.id);
    assert.equal(row.slug, 'bus-driver');
    assert.equal(row.managed_since, null, 'comes back unmanaged');
    assert.equal(row.expires_at, null);
    assert.equal((await consoleJob(acc.id, job.id)).managed, false);
    assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.status, 'published');
  });

  describe('POST close that is not allowed: 409 conflict, nothing written', () => {
    async function refused(api: Awaited<ReturnType<typeof account>>['api'], jobId: string) {
      const before = await jobRow(ctx.handle, jobId);
      ctx.clock.advance(1000);
      const res = await api.post(`/v1/jobs/${jobId}/close`);
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(errorOf(res).code, 'conflict');
      assert.deepEqual(await jobRow(ctx.handle, jobId), before);
    }

    test('draft → close', async () => {
      const { api } = await account();
      const draft = await createDraft(api);
      await refused(api, draft.id);
    });

    test('closed → close', async () => {
      const { api } = await account();
      const job = await createPublished(api);
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      await refused(api, job.id);
    });

    test('expired → close', async () => {
      const { api } = await account();
      const job = await createPublished(api, {}, { expiryDays: 30 });
      ctx.clock.advance(31 * DAY);
      await refused(api, job.id);
      assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.status, 'expired');
    });

    test('unknown job → close is 404', async () => {
      const { api } = await account();
      const res = await api.post('/v1/jobs/job_unknown/close');
      assert.equal(res.statusCode, 404);
      assert.equal(errorOf(res).code, 'not_found');
    });
  });
});
