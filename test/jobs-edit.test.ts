import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, jobsAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';
import { DAY } from './support/time.ts';

const ctx = useTestApp();

type Api = Awaited<ReturnType<typeof jobsAccount>>['api'];

async function account() {
  return jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
}

async function edit(api: Api, jobId: string, body: Record<string, unknown>) {
  return api.patch(`/v1/jobs/${jobId}`, body);
}

async function consoleJob(accountId: string, jobId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/jobs`);
  assert.equal(res.statusCode, 200);
  return res.json().jobs.find((j: { id: string }) => j.id === jobId);
}

async function manage(accountId: string, jobId: string) {
  const res = await consoleCall(ctx.app, 'POST', `/accounts/${accountId}/jobs/${jobId}/manage`);
  assert.equal(res.statusCode, 200, res.body);
}

async function promote(accountId: string, jobId: string) {
  return consoleCall(ctx.app, 'POST', `/accounts/${accountId}/jobs/${jobId}/promote`);
}

describe('PATCH /v1/jobs/{jobId}', () => {
  describe('on a draft', () => {
    test('the edit applies at once and only the fields sent change', async () => {
      const { api } = await account();
      const draft = await createDraft(api, { benefits: ['Lunch'], seniority: 'junior' });
      ctx.clock.advance(60_000);
      const now = ctx.clock.now().toISOString();
      const res = await edit(api, draft.id, {
        title: 'Frontend Engineer',
        skills: [{ name: 'CSS', level: 'required' }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const { job, pendingRevision } = res.json();
      assert.equal(pendingRevision, false);
      assert.equal(job.status, 'draft');
      assert.equal(job.title, 'Frontend Engineer');
      assert.deepEqual(job.skills, [{ name: 'CSS', level: 'required' }]);
      assert.deepEqual(job.benefits, ['Lunch'], 'fields not sent are kept');
      assert.equal(job.seniority, 'junior');
      assert.equal(job.description, draft.description);
      assert.equal(job.updatedAt, now);

      const row = await jobRow(ctx.handle, draft.id);
      assert.equal(row.content.title, 'Frontend Engineer');
      assert.equal(row.staged, null);
      assert.equal(row.updated_at.toISOString(), now);
    });

    test('null clears an optional word; [] clears a list', async () => {
      const { api } = await account();
      const draft = await createDraft(api, {
        seniority: 'mid',
        salary: { min: 1, max: 2, currency: 'USD' },
        location: { city: 'Perth' },
        benefits: ['Gym'],
      });
      const res = await edit(api, draft.id, { seniority: null, salary: null, location: null, benefits: [] });
      assert.equal(res.statusCode, 200, res.body);
      const job = res.json().job;
      assert.equal(job.seniority, undefined);
      assert.equal(job.salary, undefined);
      assert.equal(job.location, undefined);
      assert.deepEqual(job.benefits, []);
    });

    test('an edit that changes nothing does not move updatedAt', async () => {
      const { api } = await account();
      const draft = await createDraft(api);
      const before = await jobRow(ctx.handle, draft.id);
      ctx.clock.advance(60_000);
      for (const body of [{}, { title: draft.title, category: draft.category }, { workStyle: null }]) {
        const res = await edit(api, draft.id, body);
        assert.equal(res.statusCode, 200);
        assert.equal(res.json().job.updatedAt, draft.updatedAt);
      }
      assert.deepEqual(await jobRow(ctx.handle, draft.id), before);
    });

    test('validation is the same as on create: 400 naming the field, nothing written', async () => {
      const { api } = await account();
      const draft = await createDraft(api);
      const before = await jobRow(ctx.handle, draft.id);
      for (const [body, field] of [
        [{ category: 'wizardry' }, 'category'],
        [{ title: '' }, 'title'],
        [{ title: 'x'.repeat(201) }, 'title'],
        [{ salary: { currency: 'XYZ' } }, 'salary.currency'],
        [{ salary: { min: 5, max: 4 } }, 'salary.min'],
        [{ publishEdits: 'yes' }, 'publishEdits'],
        [{ category: null }, 'category'],
        [{ expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      ] as [Record<string, unknown>, string][]) {
        const res = await edit(api, draft.id, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
        assert.equal(errorOf(res).field, field);
      }
      assert.deepEqual(await jobRow(ctx.handle, draft.id), before);
    });

    test('unknown job → 404 not_found', async () => {
      const { api } = await account();
      const res = await edit(api, 'job_nope', { title: 'x' });
      assert.equal(res.statusCode, 404);
      assert.equal(errorOf(res).code, 'not_found');
    });
  });

  describe('on a published ad: staging and promotion', () => {
    test('edited words are staged; the live words stay in every read', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, { benefits: ['Parking'] });
      ctx.clock.advance(60_000);
      const now = ctx.clock.now().toISOString();
      const res = await edit(api, job.id, { title: 'Principal Engineer', benefits: ['Parking', 'Shares'] });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, true);
      assert.equal(res.json().job.title, job.title, 'the answer shows the live words');
      assert.deepEqual(res.json().job.benefits, ['Parking']);
      assert.equal(res.json().job.updatedAt, now, 'staging is an accepted edit: updatedAt moves');

      const read = (await api.get(`/v1/jobs/${job.id}`)).json().job;
      assert.equal(read.title, job.title);
      assert.deepEqual(read.benefits, ['Parking']);
      const listed = (await api.get('/v1/jobs')).json().jobs[0];
      assert.equal(listed.title, job.title);

      const row = await jobRow(ctx.handle, job.id);
      assert.equal(row.content.title, job.title);
      assert.equal(row.staged?.title, 'Principal Engineer');
      assert.deepEqual(row.staged?.benefits, ['Parking', 'Shares']);
      assert.equal(row.staged?.description, job.description, 'the staged revision is the whole ad');

      const inConsole = await consoleJob(acc.id, job.id);
      assert.equal(inConsole.pendingRevision, true);
      assert.equal(inConsole.stagedRevision.title, 'Principal Engineer');
      assert.equal(inConsole.title, job.title);
    });

    test('later edits add to the staged words; publishEdits: true promotes them', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api);
      assert.equal((await edit(api, job.id, { title: 'Staff Engineer' })).json().pendingRevision, true);
      const second = await edit(api, job.id, { description: 'New words.' });
      assert.equal(second.json().pendingRevision, true);
      const row = await jobRow(ctx.handle, job.id);
      assert.equal(row.staged?.title, 'Staff Engineer');
      assert.equal(row.staged?.description, 'New words.');

      ctx.clock.advance(60_000);
      const now = ctx.clock.now().toISOString();
      const res = await edit(api, job.id, { publishEdits: true, seniority: 'staff' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);
      const live = res.json().job;
      assert.equal(live.title, 'Staff Engineer');
      assert.equal(live.description, 'New words.');
      assert.equal(live.seniority, 'staff', 'words sent with publishEdits go live in the same call');
      assert.equal(live.updatedAt, now);
      assert.equal(live.status, 'published');

      const read = (await api.get(`/v1/jobs/${job.id}`)).json().job;
      assert.equal(read.title, 'Staff Engineer');
      const after = await jobRow(ctx.handle, job.id);
      assert.equal(after.staged, null);
      assert.equal(after.content.title, 'Staff Engineer');
      assert.equal((await consoleJob(acc.id, job.id)).pendingRevision, false);
    });

    test('concurrent edits of one published ad all end up staged', async () => {
      const { api } = await account();
      const job = await createPublished(api);
      const answers = await Promise.all([
        edit(api, job.id, { title: 'Concurrent title' }),
        edit(api, job.id, { description: 'Concurrent description' }),
        edit(api, job.id, { benefits: ['Concurrent benefit'] }),
        edit(api, job.id, { maxMatches: 9 }),
      ]);
      for (const res of answers) assert.equal(res.statusCode, 200, res.body);
      const row = await jobRow(ctx.handle, job.id);
      assert.equal(row.staged?.title, 'Concurrent title');
      assert.equal(row.staged?.description, 'Concurrent description');
      assert.deepEqual(row.staged?.benefits, ['Concurrent benefit']);
      assert.equal(row.max_matches, 9);
      assert.equal(row.content.title, job.title);
    });

    test('the console promote takes the staged words live', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api);
      await edit(api, job.id, { title: 'Engineering Manager', category: 'product' });
      ctx.clock.advance(60_000);
      const now = ctx.clock.now().toISOString();
      const res = await promote(acc.id, job.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);
      assert.equal(res.json().job.title, 'Engineering Manager');
      assert.equal(res.json().job.category, 'product');
      assert.equal(res.json().job.updatedAt, now);
      const read = (await api.get(`/v1/jobs/${job.id}`)).json().job;
      assert.equal(read.title, 'Engineering Manager');
      assert.equal((await jobRow(ctx.handle, job.id)).staged, null);
      assert.equal((await consoleJob(acc.id, job.id)).pendingRevision, false);
    });

    test('promote with nothing staged is 200 and writes nothing', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api);
      const before = await jobRow(ctx.handle, job.id);
      ctx.clock.advance(60_000);
      const res = await promote(acc.id, job.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);
      assert.equal(res.json().job.updatedAt, job.updatedAt);
      assert.deepEqual(await jobRow(ctx.handle, job.id), before);
      const noop = await edit(api, job.id, { publishEdits: true });
      assert.equal(noop.statusCode, 200);
      assert.equal(noop.json().pendingRevision, false);
      assert.deepEqual(await jobRow(ctx.handle, job.id), before);
    });

    test('re-sending the live words is not a change; editing back to the live words drops the staging', async () => {
      const { api } = await account();
      const job = await createPublished(api);
      const before = await jobRow(ctx.handle, job.id);
      ctx.clock.advance(60_000);
      const same = await edit(api, job.id, { title: job.title, description: job.description });
      assert.equal(same.statusCode, 200);
      assert.equal(same.json().pendingRevision, false);
      assert.deepEqual(await jobRow(ctx.handle, job.id), before, 'nothing written, updatedAt unchanged');
      // Clearing a word that is not set is no change either.
      const clear = await edit(api, job.id, { seniority: null, salary: null, location: null });
      assert.equal(clear.statusCode, 200, clear.body);
      assert.equal(clear.json().pendingRevision, false);
      assert.deepEqual(await jobRow(ctx.handle, job.id), before);

      assert.equal((await edit(api, job.id, { title: 'Other' })).json().pendingRevision, true);
      const back = await edit(api, job.id, { title: job.title });
      assert.equal(back.json().pendingRevision, false);
      assert.equal((await jobRow(ctx.handle, job.id)).staged, null);
    });

    test('expiresAt applies at once on a published ad, and null clears it; never staged', async () => {
      const { api } = await account();
      const job = await createPublished(api);
      ctx.clock.advance(60_000);
      const now = ctx.clock.now();
      const at = new Date(now.getTime() + 3 * DAY).toISOString();
      const res = await edit(api, job.id, { expiresAt: at });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);
      assert.equal(res.json().job.expiresAt, at);
      assert.equal(res.json().job.updatedAt, now.toISOString());
      assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.expiresAt, at);
      const row = await jobRow(ctx.handle, job.id);
      assert.equal(row.expires_at?.toISOString(), at);
      assert.equal(row.staged, null);

      // Together with words: the words are staged, the expiry is live.
      const at2 = new Date(now.getTime() + 4 * DAY).toISOString();
      const both = await edit(api, job.id, { expiresAt: at2, title: 'Later title' });
      assert.equal(both.json().pendingRevision, true);
      assert.equal(both.json().job.expiresAt, at2);
      assert.equal(both.json().job.title, job.title);

      const cleared = await edit(api, job.id, { expiresAt: null });
      assert.equal(cleared.statusCode, 200);
      assert.equal(cleared.json().job.expiresAt, undefined);
      assert.equal((await jobRow(ctx.handle, job.id)).expires_at, null);

      ctx.clock.advance(10 * DAY);
      assert.equal(
        (await api.get(`/v1/jobs/${job.id}`)).json().job.status,
        'published',
        'no expiry any more',
      );
    });

    test('maxMatches applies at once on a published ad, and null removes the cap', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api);
      ctx.clock.advance(60_000);
      const res = await edit(api, job.id, { maxMatches: 40 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);
      assert.equal(res.json().job.updatedAt, ctx.clock.now().toISOString());
      assert.equal((await jobRow(ctx.handle, job.id)).max_matches, 40);
      assert.equal((await consoleJob(acc.id, job.id)).maxMatches, 40);

      const removed = await edit(api, job.id, { maxMatches: null });
      assert.equal(removed.statusCode, 200);
      const row = await jobRow(ctx.handle, job.id);
      assert.equal(row.max_matches, null);
      assert.equal(row.staged, null);
    });
  });

  describe('the managed lock', () => {
    async function managedJob() {
      const { account: acc, api } = await account();
      const job = await createPublished(api, { title: 'Store Manager', category: 'retail' });
      await manage(acc.id, job.id);
      return { acc, api, job };
    }

    for (const [name, body, fields] of [
      ['title', { title: 'Area Manager' }, ['title']],
      ['category', { category: 'operations' }, ['category']],
      ['title and category', { title: 'Area Manager', category: 'operations' }, ['title', 'category']],
      [
        'title with other words and publishEdits',
        { title: 'Area Manager', description: 'Other words', publishEdits: true },
        ['title'],
      ],
      [
        'category next to the current title',
        { title: 'Store Manager', category: 'sales', benefits: ['Discount'] },
        ['category'],
      ],
    ] as [string, Record<string, unknown>, string[]][]) {
      test(`changing the ${name} → 409 managed_ad_locked with fields ${JSON.stringify(fields)}; nothing written`, async () => {
        const { api, job } = await managedJob();
        const before = await jobRow(ctx.handle, job.id);
        ctx.clock.advance(60_000);
        const res = await edit(api, job.id, body);
        assert.equal(res.statusCode, 409, res.body);
        const error = errorOf(res);
        assert.equal(error.code, 'managed_ad_locked');
        assert.deepEqual(error.fields, fields);
        assert.deepEqual(await jobRow(ctx.handle, job.id), before, 'nothing written');
      });
    }

    test('re-sending the current title and category is not a change; other words are staged as usual', async () => {
      const { api, job } = await managedJob();
      const res = await edit(api, job.id, { title: 'Store Manager', category: 'retail' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);

      const words = await edit(api, job.id, { title: 'Store Manager', description: 'Run the store.' });
      assert.equal(words.statusCode, 200, words.body);
      assert.equal(words.json().pendingRevision, true);
      const promoted = await edit(api, job.id, { publishEdits: true });
      assert.equal(promoted.statusCode, 200, promoted.body);
      assert.equal(promoted.json().job.description, 'Run the store.');
    });

    test('expiresAt and maxMatches still apply on a managed ad', async () => {
      const { api, job } = await managedJob();
      const at = new Date(ctx.clock.now().getTime() + 7 * DAY).toISOString();
      const res = await edit(api, job.id, { expiresAt: at, maxMatches: 3 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().job.expiresAt, at);
    });

    test('a title staged before managing cannot be promoted by publishEdits or by the console', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, { title: 'Pharmacist', category: 'healthcare' });
      const staged = await edit(api, job.id, { title: 'Senior Pharmacist', description: 'More.' });
      assert.equal(staged.json().pendingRevision, true);
      await manage(acc.id, job.id);
      const before = await jobRow(ctx.handle, job.id);
      ctx.clock.advance(60_000);

      const byEdit = await edit(api, job.id, { publishEdits: true });
      assert.equal(byEdit.statusCode, 409, byEdit.body);
      assert.equal(errorOf(byEdit).code, 'managed_ad_locked');
      assert.deepEqual(errorOf(byEdit).fields, ['title']);
      assert.deepEqual(await jobRow(ctx.handle, job.id), before, 'nothing written');

      const byConsole = await promote(acc.id, job.id);
      assert.equal(byConsole.statusCode, 409, byConsole.body);
      assert.equal(errorOf(byConsole).code, 'managed_ad_locked');
      assert.deepEqual(errorOf(byConsole).fields, ['title']);
      assert.deepEqual(await jobRow(ctx.handle, job.id), before, 'nothing written');

      // Staging more words (not title/category) is still allowed; promoting still refused.
      const more = await edit(api, job.id, { benefits: ['Uniform'] });
      assert.equal(more.statusCode, 200, more.body);
      assert.equal((await jobRow(ctx.handle, job.id)).staged?.title, 'Senior Pharmacist');

      // Unmanaged, the same promotion goes through.
      const unmanage = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${job.id}/unmanage`);
      assert.equal(unmanage.statusCode, 200);
      const ok = await promote(acc.id, job.id);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().job.title, 'Senior Pharmacist');
      assert.deepEqual(ok.json().job.benefits, ['Uniform']);
    });

    test('a staged category blocks promotion the same way', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, { category: 'engineering' });
      await edit(api, job.id, { category: 'data', title: 'Data Engineer' });
      await manage(acc.id, job.id);
      const res = await promote(acc.id, job.id);
      assert.equal(res.statusCode, 409);
      assert.deepEqual(errorOf(res).fields, ['title', 'category']);
      // Reverting the staged title and category to the live ones unblocks the rest.
      const revert = await edit(api, job.id, {
        category: 'engineering',
        title: job.title,
        publishEdits: true,
      });
      assert.equal(revert.statusCode, 200, revert.body);
      assert.equal(revert.json().pendingRevision, false);
    });
  });

  describe('on a closed or expired job', () => {
    test('a closed job: words are staged, the read shows the live ones; re-publish promotes them', async () => {
      const { api } = await account();
      const job = await createPublished(api, { title: 'Cleaner' });
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      ctx.clock.advance(60_000);
      const now = ctx.clock.now().toISOString();
      const res = await edit(api, job.id, { title: 'Head Cleaner' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, true);
      assert.equal(res.json().job.status, 'closed');
      assert.equal(res.json().job.title, 'Cleaner');
      assert.equal(res.json().job.updatedAt, now);
      assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.title, 'Cleaner');

      const republished = await api.post(`/v1/jobs/${job.id}/publish`);
      assert.equal(republished.statusCode, 200);
      assert.equal(republished.json().job.title, 'Head Cleaner');
      assert.equal((await jobRow(ctx.handle, job.id)).staged, null);
    });

    test('a closed job: publishEdits promotes without re-opening it', async () => {
      const { api } = await account();
      const job = await createPublished(api, { title: 'Gardener' });
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      const res = await edit(api, job.id, { title: 'Head Gardener', publishEdits: true });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().pendingRevision, false);
      assert.equal(res.json().job.title, 'Head Gardener');
      assert.equal(res.json().job.status, 'closed');
    });

    test('an expired job: words are staged; a new expiresAt is 409: only POST publish reopens it, unmanaged', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, { title: 'Lifeguard' }, { expiryDays: 30 });
      await manage(acc.id, job.id);
      const managedSince = (await jobRow(ctx.handle, job.id)).managed_since;
      assert.ok(managedSince);
      ctx.clock.advance(31 * DAY);
      assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.status, 'expired');

      const staged = await edit(api, job.id, { title: 'Senior Lifeguard' });
      assert.equal(staged.statusCode, 200, staged.body);
      assert.equal(staged.json().pendingRevision, true);
      assert.equal(staged.json().job.status, 'expired');
      assert.equal(staged.json().job.title, 'Lifeguard');
      assert.equal(
        (await jobRow(ctx.handle, job.id)).managed_since,
        null,
        'the freed managed flag is dropped',
      );

      const at = new Date(ctx.clock.now().getTime() + 10 * DAY).toISOString();
      for (const expiresAt of [at, null]) {
        const extended = await edit(api, job.id, { expiresAt });
        assert.equal(extended.statusCode, 409, extended.body);
        assert.equal(errorOf(extended).code, 'conflict');
        assert.match(errorOf(extended).message, /POST \/v1\/jobs\/\{jobId\}\/publish/);
        assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.status, 'expired', 'nothing written');
      }
      const republished = await api.post(`/v1/jobs/${job.id}/publish`, { expiryDays: 30 });
      assert.equal(republished.statusCode, 200, republished.body);
      assert.equal(republished.json().job.status, 'published');
      assert.equal((await consoleJob(acc.id, job.id)).managed, false);
      const extended = await edit(api, job.id, { expiresAt: at });
      assert.equal(extended.statusCode, 200, 'once published again, expiresAt edits apply');
    });

    test('an edit that changes nothing on an expired managed job drops the flag without moving updatedAt', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, {}, { expiryDays: 30 });
      await manage(acc.id, job.id);
      ctx.clock.advance(31 * DAY);
      const res = await edit(api, job.id, {});
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().job.updatedAt, job.updatedAt, 'nothing the API shows changed');
      const row = await jobRow(ctx.handle, job.id);
      assert.equal(row.managed_since, null);
      assert.equal(row.updated_at.toISOString(), job.updatedAt);
      // Re-sending a past expiresAt is refused; the job stays expired.
      const past = await edit(api, job.id, { expiresAt: job.expiresAt });
      assert.equal(past.statusCode, 400);
      assert.equal(errorOf(past).field, 'expiresAt');
    });
  });

  test('manage and unmanage do not move updatedAt', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api);
    ctx.clock.advance(60_000);
    await manage(acc.id, job.id);
    ctx.clock.advance(60_000);
    const un = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${job.id}/unmanage`);
    assert.equal(un.statusCode, 200);
    assert.equal((await api.get(`/v1/jobs/${job.id}`)).json().job.updatedAt, job.updatedAt);
    assert.equal((await jobRow(ctx.handle, job.id)).updated_at.toISOString(), job.updatedAt);
  });
});
