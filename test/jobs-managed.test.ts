import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, jobsAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';
import { DAY } from './support/time.ts';

const ctx = useTestApp();

async function account(slots?: number) {
  return jobsAccount(ctx.app, {
    limits: { requestsPerMinute: 100_000, ...(slots === undefined ? {} : { managedAdSlots: slots }) },
  });
}

const manage = (accountId: string, jobId: string) =>
  consoleCall(ctx.app, 'POST', `/accounts/${accountId}/jobs/${jobId}/manage`);
const unmanage = (accountId: string, jobId: string) =>
  consoleCall(ctx.app, 'POST', `/accounts/${accountId}/jobs/${jobId}/unmanage`);

async function managedIds(accountId: string): Promise<string[]> {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/jobs`);
  assert.equal(res.statusCode, 200);
  return res
    .json()
    .jobs.filter((j: { managed: boolean }) => j.managed)
    .map((j: { id: string }) => j.id);
}

function assertNoSlot(res: Awaited<ReturnType<typeof manage>>) {
  assert.equal(res.statusCode, 409, res.body);
  assert.equal(errorOf(res).code, 'no_slot_available');
}

describe('managed ads (console)', () => {
  test('manage takes a slot from that moment: 200 { job, managed: true }', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api);
    ctx.clock.advance(60_000);
    const now = ctx.clock.now();
    const res = await manage(acc.id, job.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().managed, true);
    assert.equal(res.json().job.id, job.id);
    assert.equal(res.json().job.status, 'published');
    assert.equal(res.json().job.updatedAt, job.updatedAt, 'managing is not an edit');
    const row = await jobRow(ctx.handle, job.id);
    assert.equal(row.managed_since?.toISOString(), now.toISOString());
    assert.equal(row.updated_at.toISOString(), job.updatedAt);
    assert.deepEqual(await managedIds(acc.id), [job.id]);

    // Managing it again keeps its slot and its start.
    ctx.clock.advance(60_000);
    const again = await manage(acc.id, job.id);
    assert.equal(again.statusCode, 200);
    assert.equal((await jobRow(ctx.handle, job.id)).managed_since?.toISOString(), now.toISOString());
  });

  test('409 no_slot_available when every slot is taken; unmanage frees one', async () => {
    const { account: acc, api } = await account();
    const limits = await consoleCall(ctx.app, 'PATCH', `/accounts/${acc.id}`, {
      limits: { managedAdSlots: 1 },
    });
    assert.equal(limits.statusCode, 200);
    assert.equal(limits.json().account.limits.managedAdSlots, 1);
    const a = await createPublished(api, { title: 'A' });
    const b = await createPublished(api, { title: 'B' });
    assert.equal((await manage(acc.id, a.id)).statusCode, 200);

    const refused = await manage(acc.id, b.id);
    assertNoSlot(refused);
    assert.equal((await jobRow(ctx.handle, b.id)).managed_since, null, 'nothing written');
    assert.deepEqual(await managedIds(acc.id), [a.id]);

    const freed = await unmanage(acc.id, a.id);
    assert.equal(freed.statusCode, 200, freed.body);
    assert.equal(freed.json().managed, false);
    assert.equal(freed.json().job.id, a.id);
    assert.equal((await jobRow(ctx.handle, a.id)).managed_since, null);
    assert.equal((await jobRow(ctx.handle, a.id)).updated_at.toISOString(), a.updatedAt);

    assert.equal((await manage(acc.id, b.id)).statusCode, 200);
    assertNoSlot(await manage(acc.id, a.id));
    assert.deepEqual(await managedIds(acc.id), [b.id]);
  });

  test('two managers racing for the last slot: exactly one gets it', async () => {
    const { account: acc, api } = await account(1);
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await createPublished(api, { title: `Race ${i}` }));
    const answers = await Promise.all(jobs.map((job) => manage(acc.id, job.id)));
    const codes = answers.map((res) => res.statusCode).sort();
    assert.deepEqual(codes, [200, 409, 409, 409], answers.map((r) => r.body).join('\n'));
    for (const res of answers)
      if (res.statusCode === 409) assert.equal(errorOf(res).code, 'no_slot_available');
    assert.equal((await managedIds(acc.id)).length, 1);
  });

  test('with no slots at all, managing is refused', async () => {
    const { account: acc, api } = await account(0);
    const job = await createPublished(api);
    assertNoSlot(await manage(acc.id, job.id));
  });

  test('unmanage of an unmanaged job is 200 and writes nothing', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api);
    const before = await jobRow(ctx.handle, job.id);
    const res = await unmanage(acc.id, job.id);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().managed, false);
    assert.deepEqual(await jobRow(ctx.handle, job.id), before);
  });

  test('closing frees the slot', async () => {
    const { account: acc, api } = await account(1);
    const a = await createPublished(api, { title: 'A' });
    const b = await createPublished(api, { title: 'B' });
    assert.equal((await manage(acc.id, a.id)).statusCode, 200);
    assertNoSlot(await manage(acc.id, b.id));
    assert.equal((await api.post(`/v1/jobs/${a.id}/close`)).statusCode, 200);
    assert.equal((await jobRow(ctx.handle, a.id)).managed_since, null);
    assert.deepEqual(await managedIds(acc.id), []);
    assert.equal((await manage(acc.id, b.id)).statusCode, 200);
  });

  test('expiry frees the slot, with nothing written', async () => {
    const { account: acc, api } = await account(1);
    const a = await createPublished(api, { title: 'A' }, { expiryDays: 30 });
    const b = await createPublished(api, { title: 'B' });
    assert.equal((await manage(acc.id, a.id)).statusCode, 200);
    assertNoSlot(await manage(acc.id, b.id));
    const row = await jobRow(ctx.handle, a.id);

    ctx.clock.advance(30 * DAY - 1);
    assertNoSlot(await manage(acc.id, b.id));
    ctx.clock.advance(1);
    assert.deepEqual(await managedIds(acc.id), [], 'an expired ad is not managed');
    const res = await manage(acc.id, b.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await managedIds(acc.id), [b.id]);
    assert.deepEqual(await jobRow(ctx.handle, a.id), row, 'expiry wrote nothing');
  });

  test('a re-published role comes back unmanaged and managing it takes a slot anew', async () => {
    const { account: acc, api } = await account(1);
    const a = await createPublished(api, { title: 'A' }, { expiryDays: 30 });
    assert.equal((await manage(acc.id, a.id)).statusCode, 200);
    ctx.clock.advance(31 * DAY);
    const b = await createPublished(api, { title: 'B' });
    assert.equal((await manage(acc.id, b.id)).statusCode, 200, 'the expired ad freed its slot');
    assert.equal((await api.post(`/v1/jobs/${a.id}/publish`)).statusCode, 200);
    assert.deepEqual(await managedIds(acc.id), [b.id], 'a did not take a slot back by re-publishing');
    assertNoSlot(await manage(acc.id, a.id));
  });

  describe('409 conflict unless published', () => {
    test('draft', async () => {
      const { account: acc, api } = await account();
      const draft = await createDraft(api);
      const res = await manage(acc.id, draft.id);
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(errorOf(res).code, 'conflict');
      assert.equal((await jobRow(ctx.handle, draft.id)).managed_since, null);
    });

    test('closed', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api);
      assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
      const res = await manage(acc.id, job.id);
      assert.equal(res.statusCode, 409);
      assert.equal(errorOf(res).code, 'conflict');
      assert.equal((await jobRow(ctx.handle, job.id)).managed_since, null);
    });

    test('expired', async () => {
      const { account: acc, api } = await account();
      const job = await createPublished(api, {}, { expiryDays: 30 });
      ctx.clock.advance(30 * DAY);
      const res = await manage(acc.id, job.id);
      assert.equal(res.statusCode, 409);
      assert.equal(errorOf(res).code, 'conflict');
      assert.equal((await jobRow(ctx.handle, job.id)).managed_since, null);
    });

    test('conflict is checked before the slot count', async () => {
      const { account: acc, api } = await account(0);
      const draft = await createDraft(api);
      const res = await manage(acc.id, draft.id);
      assert.equal(errorOf(res).code, 'conflict');
    });
  });

  test('the console list shows drafts with managed and pendingRevision', async () => {
    const { account: acc, api } = await account();
    const draft = await createDraft(api, { title: 'Drafted' });
    const job = await createPublished(api, { title: 'Live' });
    assert.equal((await manage(acc.id, job.id)).statusCode, 200);
    assert.equal((await api.patch(`/v1/jobs/${job.id}`, { description: 'Staged' })).statusCode, 200);
    const res = await consoleCall(ctx.app, 'GET', `/accounts/${acc.id}/jobs`);
    assert.equal(res.statusCode, 200);
    const jobs = res.json().jobs as {
      id: string;
      status: string;
      managed: boolean;
      pendingRevision: boolean;
    }[];
    const d = jobs.find((j) => j.id === draft.id);
    const l = jobs.find((j) => j.id === job.id);
    assert.deepEqual([d?.status, d?.managed, d?.pendingRevision], ['draft', false, false]);
    assert.deepEqual([l?.status, l?.managed, l?.pendingRevision], ['published', true, true]);
  });

  test('the console publish answers as the public publish', async () => {
    const { account: acc, api } = await account();
    const draft = await createDraft(api);
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${draft.id}/publish`, {
      expiryDays: 60,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().firstPublish, true);
    assert.equal(res.json().job.status, 'published');
    assert.equal(res.json().job.expiresAt, new Date(ctx.clock.now().getTime() + 60 * DAY).toISOString());
    const bad = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${draft.id}/publish`, {
      expiryDays: 45,
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(errorOf(bad).field, 'expiryDays');
    const incomplete = await createDraft(api, { category: undefined });
    const refused = await consoleCall(ctx.app, 'POST', `/accounts/${acc.id}/jobs/${incomplete.id}/publish`);
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(errorOf(refused).missing, ['category']);
  });

  test('console job routes need the console token', async () => {
    const { account: acc, api } = await account();
    const job = await createPublished(api);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/console/v1/accounts/${acc.id}/jobs/${job.id}/manage`,
      headers: { authorization: 'Bearer wrong-token' },
    });
    assert.equal(res.statusCode, 401);
    assert.equal((await jobRow(ctx.handle, job.id)).managed_since, null);
  });
});
