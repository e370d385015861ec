import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { client, consoleCall, newKey, screeningAccount } from './support/accounts.ts';
import { startApp, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applyWithCv, importCandidate } from './support/intake.ts';
import { createDraft, createPublished, jobRow } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';

const ctx = useTestApp();

type Api = ReturnType<typeof client>;
interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** Every event the key can see, following nextCursor until a page comes back empty. */
async function readAll(
  api: Api,
  query = '',
  from?: string,
): Promise<{ events: FeedEvent[]; cursor: string }> {
  const events: FeedEvent[] = [];
  let cursor = from;
  for (let i = 0; i < 100; i++) {
    const params = new URLSearchParams(query);
    if (cursor) params.set('after', cursor);
    const res = await api.get(`/v1/events?${params}`);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as { events: FeedEvent[]; nextCursor: string };
    assert.equal(typeof page.nextCursor, 'string');
    cursor = page.nextCursor;
    if (page.events.length === 0) break;
    events.push(...page.events);
  }
  return { events, cursor: cursor! };
}

describe('the event log', () => {
  test('job changes are events, oldest first, with ids and statuses only', async () => {
    const { api } = await screeningAccount(ctx.app);
    const draft = await createDraft(api);
    const job = await createPublished(api);
    assert.equal((await api.patch(`/v1/jobs/${job.id}`, { title: 'Staff Engineer' })).statusCode, 200);
    assert.equal((await api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    assert.equal((await api.patch(`/v1/jobs/${draft.id}`, { title: 'Still a draft' })).statusCode, 200);
    const { events } = await readAll(api);
    assert.deepEqual(
      events.map((e) => [e.type, e.data]),
      [
        ['job.published', { jobId: job.id, status: 'published' }],
        ['job.updated', { jobId: job.id, status: 'published' }],
        ['job.closed', { jobId: job.id, status: 'closed' }],
      ],
    );
    for (const e of events) {
      assert.match(e.id, /^evt_/);
      assert.ok(!Number.isNaN(Date.parse(e.createdAt)));
    }
  });

  test('job.expired comes once from the sweep, and the job’s updatedAt does not move', async () => {
    const { api } = await screeningAccount(ctx.app);
    const job = await createPublished(api, {}, { expiryDays: 30 });
    const before = await jobRow(ctx.handle, job.id);
    ctx.clock.advance(30 * 86_400_000 + 1000);
    assert.ok((await ctx.services.events.sweepExpiredJobs()) >= 1);
    assert.equal(await ctx.services.events.sweepExpiredJobs(), 0);
    const afterRow = await jobRow(ctx.handle, job.id);
    assert.equal(afterRow.updated_at.getTime(), before.updated_at.getTime());
    const { events } = await readAll(api, 'types=job.expired');
    assert.deepEqual(
      events.map((e) => e.data),
      [{ jobId: job.id, status: 'expired' }],
    );
    const fetched = await api.get(`/v1/jobs/${job.id}`);
    assert.equal(fetched.json().job.updatedAt, job.updatedAt);
  });

  test('an application and its CV’s moves are events; none carries personal data', async () => {
    const applied = await applyWithCv(ctx, {
      body: { name: 'Zelda Quartermaine', phone: '+61 400 000 999' },
    });
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    await drainAll(ctx.worker);
    const key = await newKey(ctx.app, applied.account.id, ['applications:write']);
    const { events } = await readAll(client(ctx.app, key.secret));
    assert.deepEqual(
      events.map((e) => [e.type, e.data]),
      [
        [
          'application.received',
          {
            applicationId: applied.applicationId,
            jobId: applied.job.id,
            status: 'received',
            cvStatus: 'processing',
          },
        ],
        [
          'application.cv_status_changed',
          {
            applicationId: applied.applicationId,
            jobId: applied.job.id,
            status: 'received',
            cvStatus: 'staged',
          },
        ],
      ],
    );
    const raw = await ctx.handle.db.selectFrom('events').select('data').execute();
    const text = JSON.stringify(raw);
    for (const personal of ['Zelda', 'Quartermaine', applied.email, '400 000 999', '@'])
      assert.ok(!text.includes(personal), `events hold "${personal}"`);
  });
});

describe('candidate events', () => {
  test('an import’s CV built, then erased by a suppression: candidate.cv_status_changed each time', async () => {
    const { api } = await screeningAccount(ctx.app);
    const imported = await importCandidate(ctx, api);
    await drainAll(ctx.worker);
    const suppressed = await consoleCall(ctx.app, 'POST', '/suppressions', { email: imported.email });
    assert.equal(suppressed.statusCode, 201, suppressed.body);
    const { events } = await readAll(api, 'types=candidate.cv_status_changed');
    assert.deepEqual(
      events.map((e) => e.data),
      [
        { candidateId: imported.candidateId, status: 'queued', cvStatus: 'staged' },
        { candidateId: imported.candidateId, status: 'queued', cvStatus: 'deleted' },
      ],
    );
  });
});

describe('events commit with their change', () => {
  test('a failure after the event insert leaves neither the change nor the event', async () => {
    const { api, account } = await screeningAccount(ctx.app);
    const job = await createDraft(api);
    const { db } = ctx.handle;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('account_id', '=', account.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The job service's own transaction, with the process "dying" right after the event is written.
    const crashing = startApp({
      clock: ctx.clock,
      wrapServices: (services) => {
        const record = services.events.record.bind(services.events);
        services.events.record = async (trx, accountId, event, options) => {
          await record(trx, accountId, event, options);
          const seen = await trx
            .selectFrom('events')
            .select('id')
            .where('account_id', '=', accountId)
            .execute();
          assert.equal(seen.length, 1, 'the event is written inside the transaction');
          throw new Error('killed between the event and the commit');
        };
        return services;
      },
    });
    const other = await crashing;
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `/v1/jobs/${job.id}/publish`,
        headers: { authorization: `Bearer ${(await newKey(ctx.app, account.id, ['jobs:write'])).secret}` },
        payload: {},
      });
      assert.equal(res.statusCode, 500);
    } finally {
      await other.close();
    }
    assert.equal(await count(), 0);
    assert.equal((await jobRow(ctx.handle, job.id)).status, 'draft');
  });
});

describe('GET /v1/events', () => {
  test('pages with a cursor, filters by type, and the last cursor is where to poll again', async () => {
    const { api } = await screeningAccount(ctx.app);
    const jobs = [];
    for (let i = 0; i < 5; i++) jobs.push(await createPublished(api));
    const first = await api.get('/v1/events?limit=2');
    assert.equal(first.statusCode, 200);
    assert.equal(first.json().events.length, 2);
    const rest = await readAll(api, 'limit=2', first.json().nextCursor);
    const ids = [...first.json().events, ...rest.events].map((e: FeedEvent) => e.data.jobId);
    assert.deepEqual(
      ids,
      jobs.map((j) => j.id),
    );
    // Nothing new: the cursor stays usable and answers nothing.
    const idle = await api.get(`/v1/events?after=${rest.cursor}`);
    assert.deepEqual(idle.json().events, []);
    assert.equal(typeof idle.json().nextCursor, 'string');
    // Something new after the last cursor: exactly that.
    assert.equal((await api.post(`/v1/jobs/${jobs[0]!.id}/close`)).statusCode, 200);
    const later = await readAll(api, '', rest.cursor);
    assert.deepEqual(
      later.events.map((e) => [e.type, e.data.jobId]),
      [['job.closed', jobs[0]!.id]],
    );
    const closedOnly = await readAll(api, 'types=job.closed,job.expired');
    assert.deepEqual(
      closedOnly.events.map((e) => e.type),
      ['job.closed'],
    );
  });

  test('a key sees only the types its scopes cover, and only its own account', async () => {
    const applied = await applyWithCv(ctx);
    const jobsOnly = client(ctx.app, (await newKey(ctx.app, applied.account.id, ['jobs:read'])).secret);
    const seen = await readAll(jobsOnly);
    assert.ok(seen.events.length > 0);
    assert.ok(seen.events.every((e) => e.type.startsWith('job.')));
    const screeningOnly = client(ctx.app, (await newKey(ctx.app, applied.account.id, ['screening'])).secret);
    assert.deepEqual((await readAll(screeningOnly)).events, []);
    const other = await screeningAccount(ctx.app);
    const theirs = await readAll(other.api);
    assert.ok(theirs.events.every((e) => e.data.jobId !== applied.job.id));
  });

  test('bad input answers the spec’s error body; no key is 401', async () => {
    const { api } = await screeningAccount(ctx.app);
    const badType = await api.get('/v1/events?types=job.published,job.exploded');
    assert.equal(badType.statusCode, 400);
    assert.equal(errorOf(badType).code, 'bad_request');
    assert.match(errorOf(badType).message, /job\.exploded/);
    const badCursor = await api.get('/v1/events?after=bm9wZQ');
    assert.equal(badCursor.statusCode, 400);
    assert.equal(errorOf(badCursor).field, 'after');
    assert.equal((await api.get('/v1/events?limit=101')).statusCode, 400);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/v1/events' });
    assert.equal(anonymous.statusCode, 401);
    const limited = await api.get('/v1/events');
    assert.ok(limited.headers['x-ratelimit-limit']);
  });

  test('the OpenAPI document types every event and declares the webhooks', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.ok(doc.paths['/v1/events'].get);
    for (const type of ['job.published', 'job.expired', 'application.received', 'screening.completed'])
      assert.ok(doc.webhooks[type].post.requestBody, type);
    assert.ok(doc.components.schemas.JobExpiredEvent);
    assert.ok(doc.components.schemas.Event);
  });
});
