import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { consoleCall, jobsAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';

/**
 * Account isolation on every job route: another account's job answers exactly as a job that does
 * not exist (same status, same code, same message), and is left untouched.
 */

let owner: Awaited<ReturnType<typeof jobsAccount>>;
let intruder: Awaited<ReturnType<typeof jobsAccount>>;
let jobs: Record<'draft' | 'published' | 'closed' | 'staged' | 'managed', string>;

const MISSING = 'job_0000000000000000000000000a';

const ctx = useTestApp({}, async () => {
  owner = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
  intruder = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
  const api = owner.api;
  const draft = await createDraft(api, { title: 'Owner draft' });
  const published = await createPublished(api, { title: 'Owner live' });
  const closed = await createPublished(api, { title: 'Owner closed' });
  assert.equal((await api.post(`/v1/jobs/${closed.id}/close`)).statusCode, 200);
  const staged = await createPublished(api, { title: 'Owner staged' });
  assert.equal((await api.patch(`/v1/jobs/${staged.id}`, { title: 'Owner staged 2' })).statusCode, 200);
  const managed = await createPublished(api, { title: 'Owner managed' });
  const res = await consoleCall(ctx.app, 'POST', `/accounts/${owner.account.id}/jobs/${managed.id}/manage`);
  assert.equal(res.statusCode, 200);
  jobs = {
    draft: draft.id,
    published: published.id,
    closed: closed.id,
    staged: staged.id,
    managed: managed.id,
  };
});

async function snapshot() {
  return Promise.all(Object.values(jobs).map((id) => jobRow(ctx.handle, id)));
}

function sameAsMissing(foreign: LightMyRequestResponse, missing: LightMyRequestResponse, what: string) {
  assert.equal(missing.statusCode, 404, `${what} (missing): ${missing.body}`);
  assert.equal(foreign.statusCode, 404, `${what} (foreign): ${foreign.body}`);
  const a = errorOf(foreign);
  const b = errorOf(missing);
  assert.equal(a.code, 'not_found');
  assert.equal(a.code, b.code);
  assert.equal(a.message, b.message, what);
  const { requestId: _a, ...restA } = a;
  const { requestId: _b, ...restB } = b;
  assert.deepEqual(restA, restB, `${what}: nothing tells the two apart`);
}

describe('account isolation on the public job routes', () => {
  const routes: [string, (id: string) => Promise<LightMyRequestResponse>][] = [
    ['GET /v1/jobs/{id}', (id) => intruder.api.get(`/v1/jobs/${id}`)],
    ['PATCH /v1/jobs/{id}', (id) => intruder.api.patch(`/v1/jobs/${id}`, { description: 'Mine now' })],
    [
      'PATCH /v1/jobs/{id} publishEdits',
      (id) => intruder.api.patch(`/v1/jobs/${id}`, { publishEdits: true }),
    ],
    ['PATCH /v1/jobs/{id} title', (id) => intruder.api.patch(`/v1/jobs/${id}`, { title: 'Taken over' })],
    ['POST /v1/jobs/{id}/publish', (id) => intruder.api.post(`/v1/jobs/${id}/publish`)],
    [
      'POST /v1/jobs/{id}/publish expiryDays',
      (id) => intruder.api.post(`/v1/jobs/${id}/publish`, { expiryDays: 30 }),
    ],
    ['POST /v1/jobs/{id}/close', (id) => intruder.api.post(`/v1/jobs/${id}/close`)],
  ];

  for (const [name, call] of routes) {
    test(`${name}: another account's job is indistinguishable from a missing one`, async () => {
      const before = await snapshot();
      ctx.clock.advance(1000);
      for (const [state, id] of Object.entries(jobs)) {
        sameAsMissing(await call(id), await call(MISSING), `${name} on a ${state} job`);
      }
      assert.deepEqual(await snapshot(), before, 'the owner’s jobs are untouched');
    });
  }

  test('with an Idempotency-Key too', async () => {
    const before = await snapshot();
    const foreign = await intruder.api.post(`/v1/jobs/${jobs.draft}/publish`, undefined, {
      'idempotency-key': 'k1',
    });
    const missing = await intruder.api.post(`/v1/jobs/${MISSING}/publish`, undefined, {
      'idempotency-key': 'k2',
    });
    sameAsMissing(foreign, missing, 'publish with a key');
    assert.deepEqual(await snapshot(), before);
  });

  test('GET /v1/jobs lists only the caller’s jobs', async () => {
    const own = await createPublished(intruder.api, { title: 'Intruder live' });
    const res = await intruder.api.get('/v1/jobs');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json().jobs.map((j: { id: string }) => j.id),
      [own.id],
    );
    const ownerList = (await owner.api.get('/v1/jobs')).json().jobs.map((j: { id: string }) => j.id);
    assert.ok(!ownerList.includes(own.id));
    assert.equal(ownerList.length, 4);
  });

  test('a cursor does not carry another account’s jobs', async () => {
    const first = await owner.api.get('/v1/jobs?limit=1');
    const cursor = first.json().nextCursor;
    assert.ok(cursor);
    const res = await intruder.api.get(`/v1/jobs?cursor=${encodeURIComponent(cursor)}`);
    assert.equal(res.statusCode, 200);
    for (const job of res.json().jobs) assert.ok(!Object.values(jobs).includes(job.id));
  });
});

describe('account isolation on the console job routes', () => {
  const wrong = () => intruder.account.id;
  const routes: [string, (accountId: string, id: string) => Promise<LightMyRequestResponse>][] = [
    ['publish', (a, id) => consoleCall(ctx.app, 'POST', `/accounts/${a}/jobs/${id}/publish`)],
    ['promote', (a, id) => consoleCall(ctx.app, 'POST', `/accounts/${a}/jobs/${id}/promote`)],
    ['manage', (a, id) => consoleCall(ctx.app, 'POST', `/accounts/${a}/jobs/${id}/manage`)],
    ['unmanage', (a, id) => consoleCall(ctx.app, 'POST', `/accounts/${a}/jobs/${id}/unmanage`)],
  ];

  for (const [name, call] of routes) {
    test(`${name} with the wrong account id: the same 404 as a missing job`, async () => {
      const before = await snapshot();
      ctx.clock.advance(1000);
      for (const [state, id] of Object.entries(jobs)) {
        sameAsMissing(await call(wrong(), id), await call(wrong(), MISSING), `${name} on a ${state} job`);
      }
      assert.deepEqual(await snapshot(), before, 'the owner’s jobs are untouched');
      // An account that does not exist is a 404 as well.
      const unknown = await call('acc_doesnotexist', jobs.published);
      assert.equal(unknown.statusCode, 404);
      assert.equal(errorOf(unknown).code, 'not_found');
    });
  }

  test('the console list of one account never shows another’s jobs', async () => {
    const res = await consoleCall(ctx.app, 'GET', `/accounts/${wrong()}/jobs`);
    assert.equal(res.statusCode, 200);
    for (const job of res.json().jobs) assert.ok(!Object.values(jobs).includes(job.id));
    const unknown = await consoleCall(ctx.app, 'GET', '/accounts/acc_doesnotexist/jobs');
    assert.equal(unknown.statusCode, 404);
    assert.equal(errorOf(unknown).code, 'not_found');
  });

  test('a managed slot of one account is not counted against another', async () => {
    const limit = await consoleCall(ctx.app, 'PATCH', `/accounts/${wrong()}`, {
      limits: { managedAdSlots: 1 },
    });
    assert.equal(limit.statusCode, 200);
    const own = await createPublished(intruder.api, { title: 'Intruder managed' });
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${wrong()}/jobs/${own.id}/manage`);
    assert.equal(res.statusCode, 200, res.body);
  });
});
