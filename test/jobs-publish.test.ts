import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, jobsAccount, unique } from './support/accounts.ts';
import { BASE_URL, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';
import { DAY } from './support/time.ts';

const ctx = useTestApp();

type Api = Awaited<ReturnType<typeof jobsAccount>>['api'];

async function account(fields: Parameters<typeof jobsAccount>[1] = {}) {
  return jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 }, ...fields });
}

async function publish(
  api: Api,
  jobId: string,
  body?: Record<string, unknown>,
  headers?: Record<string, string>,
) {
  return api.post(`/v1/jobs/${jobId}/publish`, body, headers);
}

describe('POST /v1/jobs/{jobId}/publish', () => {
  describe('422 not_publishable with missing', () => {
    test('description and category missing on a first publish; nothing published', async () => {
      const { api } = await account();
      const draft = await createDraft(api, { title: 'Chef', description: undefined, category: undefined });
      const before = await jobRow(ctx.handle, draft.id);
      const res = await publish(api, draft.id);
      assert.equal(res.statusCode, 422, res.body);
      const error = errorOf(res);
      assert.equal(error.code, 'not_publishable');
      assert.deepEqual(error.missing, ['description', 'category']);
      assert.deepEqual(await jobRow(ctx.handle, draft.id), before, 'nothing written');
    });

    test('a blank title, a blank description and no category are all listed', async () => {
      const { api } = await account();
      const draft = await createDraft(api, { title: '   ', description: '  ', category: undefined });
      const res = await publish(api, draft.id);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(errorOf(res).missing, ['title', 'description', 'category']);
      assert.equal((await jobRow(ctx.handle, draft.id)).status, 'draft');
    });

    test('only category missing', async () => {
      const { api } = await account();
      const draft = await createDraft(api, { category: undefined });
      const res = await publish(api, draft.id);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(errorOf(res).missing, ['category']);
    });

    test('fixing the draft makes it publishable', async () => {
      const { api } = await account();
      const draft = await createDraft(api, { category: undefined, description: undefined });
      assert.equal((await publish(api, draft.id)).statusCode, 422);
      const edit = await api.patch(`/v1/jobs/${draft.id}`, { category: 'data', description: 'Models.' });
      assert.equal(edit.statusCode, 200, edit.body);
      const res = await publish(api, draft.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().job.category, 'data');
    });

    test('category is required only on the first publish (a role from before categories)', async () => {
      const { api } = await account();
      const job = await createPublished(api);
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      // A role published before categories existed: its stored words carry none.
      const row = await jobRow(ctx.handle, job.id);
      const { category: _dropped, ...words } = row.content;
      await ctx.handle.db
        .updateTable('jobs')
        .set({ content: JSON.stringify(words) })
        .where('id', '=', job.id)
        .execute();
      const res = await publish(api, job.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().firstPublish, false);
      assert.equal(res.json().job.category, undefined, 'absent on a role published before categories');
    });

    test('on a re-publish the staged words are checked: a description emptied while closed', async () => {
      const { api } = await account();
      const job = await createPublished(api);
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      const edit = await api.patch(`/v1/jobs/${job.id}`, { description: '' });
      assert.equal(edit.statusCode, 200, edit.body);
      assert.equal(edit.json().pendingRevision, true);
      const res = await publish(api, job.id);
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(errorOf(res).missing, ['description'], 'category is not asked for again');
      assert.equal((await jobRow(ctx.handle, job.id)).status, 'closed');
    });
  });

  describe('409 company_address_required', () => {
    test('an account without a company address publishes nothing; after choosing one it can', async () => {
      const { account: acc, api } = await account({ companyAddress: null });
      const draft = await createDraft(api);
      const before = await jobRow(ctx.handle, draft.id);
      const res = await publish(api, draft.id, undefined, { 'idempotency-key': 'first-try' });
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(errorOf(res).code, 'company_address_required');
      const row = await jobRow(ctx.handle, draft.id);
      assert.deepEqual(row, before, 'nothing published');
      assert.equal(row.status, 'draft');
      assert.equal(row.slug, null);
      assert.equal(row.first_published_at, null);
      assert.equal((await api.get(`/v1/jobs/${draft.id}`)).statusCode, 404);

      const address = unique('chosen');
      const patched = await consoleCall(ctx.app, 'PATCH', `/accounts/${acc.id}`, { companyAddress: address });
      assert.equal(patched.statusCode, 200, patched.body);
      // The same key replays the refusal; a new key publishes.
      const replay = await publish(api, draft.id, undefined, { 'idempotency-key': 'first-try' });
      assert.equal(replay.statusCode, 409);
      assert.equal(errorOf(replay).code, 'company_address_required');
      const again = await publish(api, draft.id, undefined, { 'idempotency-key': 'second-try' });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().firstPublish, true);
      assert.equal(again.json().job.url, `${BASE_URL}/en/jobs/${address}/backend-engineer`);
    });

    test('not_publishable is answered before company_address_required', async () => {
      const { api } = await account({ companyAddress: null });
      const draft = await createDraft(api, { category: undefined });
      const res = await publish(api, draft.id);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(errorOf(res).missing, ['category']);
    });
  });

  describe('200 { job, firstPublish }', () => {
    test('firstPublish is true the first time, then false; publishing a published job changes nothing', async () => {
      const { api } = await account();
      const draft = await createDraft(api);
      const first = await publish(api, draft.id);
      assert.equal(first.statusCode, 200);
      assert.equal(first.json().firstPublish, true);
      const row = await jobRow(ctx.handle, draft.id);

      ctx.clock.advance(DAY);
      const second = await publish(api, draft.id);
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(second.json().firstPublish, false);
      assert.deepEqual(second.json().job, first.json().job, 'the same job, nothing changed');
      assert.deepEqual(await jobRow(ctx.handle, draft.id), row, 'nothing written');

      const empty = await publish(api, draft.id, {});
      assert.equal(empty.statusCode, 200);
      assert.equal(empty.json().firstPublish, false);
      assert.deepEqual(await jobRow(ctx.handle, draft.id), row);
    });

    test('re-publishing a published job with an explicit expiryDays resets the expiry from now', async () => {
      const { api } = await account();
      const job = await createPublished(api, {}, { expiryDays: 30 });
      ctx.clock.advance(10 * DAY);
      const now = ctx.clock.now();
      const res = await publish(api, job.id, { expiryDays: 90 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().firstPublish, false);
      assert.equal(res.json().job.expiresAt, new Date(now.getTime() + 90 * DAY).toISOString());
      assert.equal(res.json().job.updatedAt, now.toISOString());
      assert.equal(res.json().job.postedAt, job.postedAt, 'still the same posting');

      const cleared = await publish(api, job.id, { expiryDays: null });
      assert.equal(cleared.statusCode, 200);
      assert.equal(cleared.json().job.expiresAt, undefined);
      assert.equal((await jobRow(ctx.handle, job.id)).expires_at, null);
    });

    test('a re-published closed role keeps a future expiresAt when expiryDays is not sent', async () => {
      const { api } = await account();
      const job = await createPublished(api, {}, { expiryDays: 60 });
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      ctx.clock.advance(DAY);
      const res = await publish(api, job.id);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().job.expiresAt, job.expiresAt);

      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      ctx.clock.advance(60 * DAY);
      const late = await publish(api, job.id);
      assert.equal(late.statusCode, 200);
      assert.equal(late.json().job.status, 'published');
      assert.equal(late.json().job.expiresAt, undefined, 'an expiry that has passed is cleared');
    });
  });

  describe('expiryDays', () => {
    for (const days of [30, 60, 90]) {
      test(`${days} → expiresAt ${days} days from now`, async () => {
        const { api } = await account();
        const draft = await createDraft(api);
        const now = ctx.clock.now();
        const res = await publish(api, draft.id, { expiryDays: days });
        assert.equal(res.statusCode, 200, res.body);
        const expected = new Date(now.getTime() + days * DAY).toISOString();
        assert.equal(res.json().job.expiresAt, expected);
        assert.equal((await jobRow(ctx.handle, draft.id)).expires_at?.toISOString(), expected);
      });
    }

    test('null, an empty body and no body: live until closed by hand', async () => {
      const { api } = await account();
      for (const body of [{ expiryDays: null }, {}, undefined]) {
        const draft = await createDraft(api, { title: `No expiry ${JSON.stringify(body)}` });
        const res = await publish(api, draft.id, body);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().job.expiresAt, undefined);
        assert.equal((await jobRow(ctx.handle, draft.id)).expires_at, null);
      }
    });

    test('an expiresAt set on the draft is kept when no expiryDays is sent, replaced when one is', async () => {
      const { api } = await account();
      const at = new Date(ctx.clock.now().getTime() + 5 * DAY).toISOString();
      const a = await createDraft(api, { title: 'Kept', expiresAt: at });
      assert.equal((await publish(api, a.id)).json().job.expiresAt, at);
      const b = await createDraft(api, { title: 'Replaced', expiresAt: at });
      const now = ctx.clock.now();
      assert.equal(
        (await publish(api, b.id, { expiryDays: 30 })).json().job.expiresAt,
        new Date(now.getTime() + 30 * DAY).toISOString(),
      );
    });

    for (const value of [45, 0, -30, '30', 30.5, true]) {
      test(`${JSON.stringify(value)} → 400 naming expiryDays; nothing published`, async () => {
        const { api } = await account();
        const draft = await createDraft(api);
        const res = await publish(api, draft.id, { expiryDays: value });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(errorOf(res).code, 'bad_request');
        assert.equal(errorOf(res).field, 'expiryDays');
        assert.match(errorOf(res).message, /expiryDays/);
        assert.equal((await jobRow(ctx.handle, draft.id)).status, 'draft');
      });
    }

    test('an unknown body field → 400 naming it', async () => {
      const { api } = await account();
      const draft = await createDraft(api);
      const res = await publish(api, draft.id, { expiry: 30 });
      assert.equal(res.statusCode, 400);
      assert.equal(errorOf(res).field, 'expiry');
    });
  });

  describe('url and slug', () => {
    test('url is /{lang}/jobs/{company}/{role} under PUBLIC_BASE_URL', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, { title: 'Crème Brûlée Chef (Sydney, NSW)!' });
      assert.equal(job.url, `${BASE_URL}/en/jobs/${acc.companyAddress}/creme-brulee-chef-sydney-nsw`);
      const path = new URL(job.url!).pathname;
      assert.match(path, /^\/[a-z]{2}\/jobs\/[a-z0-9-]+\/[a-z0-9-]+$/);
      assert.equal(job.applyLink, `${BASE_URL}/apply/${job.id}`);
    });

    test('two roles with the same title get different slugs; a title without letters still gets one', async () => {
      const { account: acc, api } = await account();
      const first = await createPublished(api, { title: 'Senior Engineer' });
      const second = await createPublished(api, { title: 'Senior Engineer' });
      const third = await createPublished(api, { title: 'senior   ENGINEER' });
      const urls = [first.url, second.url, third.url];
      assert.equal(new Set(urls).size, 3, `distinct urls: ${urls.join(' ')}`);
      const prefix = `${BASE_URL}/en/jobs/${acc.companyAddress}/`;
      assert.equal(first.url, `${prefix}senior-engineer`);
      for (const url of urls) assert.ok(url?.startsWith(prefix), url);
      const slugs = await Promise.all(
        [first, second, third].map(async (j) => (await jobRow(ctx.handle, j.id)).slug),
      );
      assert.equal(new Set(slugs).size, 3);

      const symbols = await createPublished(api, { title: '!!!' });
      assert.match(new URL(symbols.url!).pathname, /^\/en\/jobs\/[a-z0-9-]+\/[a-z0-9-]{2,}$/);
    });

    test('publishing same-titled roles at the same moment still gives each its own slug', async () => {
      const { api } = await account();
      const drafts = [];
      for (let i = 0; i < 4; i++) drafts.push(await createDraft(api, { title: 'Forklift Driver' }));
      const answers = await Promise.all(drafts.map((d) => publish(api, d.id)));
      for (const res of answers) assert.equal(res.statusCode, 200, res.body);
      const urls = answers.map((res) => res.json().job.url);
      assert.equal(new Set(urls).size, 4, urls.join(' '));
    });

    test('another account may use the same slug', async () => {
      const a = await account();
      const b = await account();
      const ja = await createPublished(a.api, { title: 'Welder' });
      const jb = await createPublished(b.api, { title: 'Welder' });
      assert.ok(ja.url!.endsWith('/welder'));
      assert.ok(jb.url!.endsWith('/welder'));
      assert.notEqual(ja.url, jb.url);
    });

    test('a slug stays with its role: re-publishing does not re-slug even after a title change', async () => {
      const { api } = await account();
      const job = await createPublished(api, { title: 'Data Analyst' });
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      // A new role with the same title while the first is closed takes another slug.
      const other = await createPublished(api, { title: 'Data Analyst' });
      assert.notEqual(other.url, job.url);
      const edit = await api.patch(`/v1/jobs/${job.id}`, { title: 'Lead Data Analyst' });
      assert.equal(edit.statusCode, 200);
      const again = await publish(api, job.id);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().job.title, 'Lead Data Analyst', 'staged words go live on re-publish');
      assert.equal(again.json().job.url, job.url);
    });

    test('after the console changes companyAddress, every published role is at the new address', async () => {
      const { account: acc, api } = await account();
      const live = await createPublished(api, { title: 'Cook' });
      const closed = await createPublished(api, { title: 'Waiter' });
      assert.equal((await api.post(`/v1/jobs/${closed.id}/close`)).statusCode, 200);
      const draft = await createDraft(api, { title: 'Host' });
      const oldAddress = acc.companyAddress!;
      assert.ok(live.url!.includes(`/jobs/${oldAddress}/`));

      const newAddress = unique('moved');
      const patched = await consoleCall(ctx.app, 'PATCH', `/accounts/${acc.id}`, {
        companyAddress: newAddress,
      });
      assert.equal(patched.statusCode, 200, patched.body);

      const read = (await api.get(`/v1/jobs/${live.id}`)).json().job;
      assert.equal(read.url, `${BASE_URL}/en/jobs/${newAddress}/cook`);
      const readClosed = (await api.get(`/v1/jobs/${closed.id}`)).json().job;
      assert.equal(readClosed.url, `${BASE_URL}/en/jobs/${newAddress}/waiter`);
      const listed = (await api.get('/v1/jobs')).json().jobs;
      for (const job of listed) assert.ok(job.url.includes(`/jobs/${newAddress}/`), job.url);
      // The old address is recorded so its pages can redirect.
      const history = await ctx.handle.db
        .selectFrom('company_address_history')
        .selectAll()
        .where('address', '=', oldAddress)
        .executeTakeFirst();
      assert.equal(history?.account_id, acc.id);
      // A role published afterwards starts at the new address too.
      const published = await publish(api, draft.id);
      assert.equal(published.json().job.url, `${BASE_URL}/en/jobs/${newAddress}/host`);
    });
  });

  describe('Idempotency-Key', () => {
    test('a retry with the same key replays the first answer', async () => {
      const { api } = await account();
      const draft = await createDraft(api);
      const headers = { 'idempotency-key': unique('pub') };
      const first = await publish(api, draft.id, { expiryDays: 30 }, headers);
      ctx.clock.advance(1000);
      const second = await publish(api, draft.id, { expiryDays: 30 }, headers);
      assert.equal(first.statusCode, 200);
      assert.equal(second.statusCode, 200);
      assert.deepEqual(second.json(), first.json());
      assert.equal(second.json().firstPublish, true, 'the first answer, replayed');
      assert.equal(second.headers['idempotent-replayed'], 'true');
      const different = await publish(api, draft.id, { expiryDays: 60 }, headers);
      assert.equal(different.statusCode, 409);
      assert.equal(errorOf(different).code, 'conflict');
    });
  });

  test('unknown job → 404 not_found', async () => {
    const { api } = await account();
    const res = await publish(api, 'job_doesnotexist');
    assert.equal(res.statusCode, 404);
    assert.equal(errorOf(res).code, 'not_found');
  });
});
