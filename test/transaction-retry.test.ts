// Issue 25: a transaction that loses a race (40P01 deadlock_detected, 40001 serialization_failure)
// runs again, whole, instead of answering 500; when the runs are spent the answer is 503
// `unavailable` with Retry-After. The lost race is a real one in the database: a trigger on the
// events table raises the SQLSTATE inside the write's own transaction (after its rows and before its
// commit) the first `times` times an event of the test's account is inserted; a sequence, which no
// rollback undoes, counts the runs. Runs on PGlite and on PostgreSQL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { TRANSACTION_RETRIES } from '../src/db/retry.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { jobsAccount, screeningAccount, unique } from './support/accounts.ts';
import { testConfig, useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applyTo } from './support/intake.ts';
import { createDraft, createPublished, manageJob } from './support/jobs.ts';
import { newTemplate, screeningRows, triggerScreening } from './support/screening.ts';

// An instant of its own: the tasks this file's screening enqueues are told apart by it.
const NOW = '2026-03-03T03:03:03.333Z';
const ctx = useTestApp({ clock: new ManualClock(NOW) });

let faults = 0;

/**
 * The next `times` inserts of an event (or a row of `table`) of `accountId` fail with SQLSTATE `code`. Answers how many
 * times the trigger ran (each run of the write reaches it once) and the removal of the fault.
 */
async function loseRaces(
  accountId: string,
  code: '40001' | '40P01',
  times: number,
  table: 'events' | 'idempotency_records' = 'events',
) {
  assert.match(accountId, /^[a-z0-9_]+$/);
  faults += 1;
  const name = `test_lost_race_${process.pid}_${faults}`;
  await ctx.handle.withSession((exec) =>
    exec(`
      CREATE SEQUENCE ${name};
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.account_id = '${accountId}' THEN
          IF nextval('${name}') <= ${times} THEN
            RAISE EXCEPTION 'injected lost race' USING ERRCODE = '${code}';
          END IF;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();
    `),
  );
  return {
    async runs(): Promise<number> {
      const [row] = await ctx.handle.withSession((exec) =>
        exec(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM ${name}`),
      );
      return Number(row!.n);
    },
    async remove(): Promise<void> {
      await ctx.handle.withSession((exec) =>
        exec(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}(); DROP SEQUENCE ${name};`),
      );
    },
  };
}

async function eventCount(accountId: string, type: string): Promise<number> {
  const rows = await ctx.handle.db
    .selectFrom('events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('type', '=', type)
    .execute();
  return rows.length;
}

describe('a transaction that loses a race runs again', () => {
  test('a close that fails once with 40001 is run again: 200, one job.closed event', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const job = await createPublished(api);
    const fault = await loseRaces(account.id, '40001', 1);
    try {
      const res = await api.post(`/v1/jobs/${job.id}/close`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().job.status, 'closed');
      assert.equal(await fault.runs(), 2, 'the failed run and the one that committed');
    } finally {
      await fault.remove();
    }
    assert.equal(await eventCount(account.id, 'job.closed'), 1);
  });

  test('a first publish under an Idempotency-Key that deadlocks twice answers 200 once; the replay repeats it', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const draft = await createDraft(api);
    const key = { 'idempotency-key': unique('idem') };
    const fault = await loseRaces(account.id, '40P01', 2);
    let first: Awaited<ReturnType<typeof api.post>>;
    try {
      first = await api.post(`/v1/jobs/${draft.id}/publish`, {}, key);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().firstPublish, true);
      assert.equal(await fault.runs(), 3);
    } finally {
      await fault.remove();
    }
    const replay = await api.post(`/v1/jobs/${draft.id}/publish`, {}, key);
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
    assert.equal(await eventCount(account.id, 'job.published'), 1);
  });

  test('a screening run again leaves one screening, one event and one invitation task', async () => {
    const s = await screeningAccount(ctx.app);
    const template = await newTemplate(ctx.app, s.account.id);
    const job = await createPublished(s.api);
    await manageJob(ctx.app, s.account.id, job.id);
    const applicant = await applyTo(ctx, s.api, job.id);
    const fault = await loseRaces(s.account.id, '40P01', 1);
    try {
      const res = await triggerScreening(s.api, job.id, applicant.candidateId, { templateId: template.id });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(await fault.runs(), 2);
    } finally {
      await fault.remove();
    }
    const rows = await screeningRows(ctx.handle, s.account.id);
    assert.equal(rows.length, 1);
    assert.equal(await eventCount(s.account.id, 'screening.invited'), 1);
    // The run that failed enqueued a task for a screening that was rolled back with it: none is left
    // (tasks of this file's instant whose screening does not exist), and the committed one has its own.
    const tasks = await ctx.handle.db
      .selectFrom('tasks')
      .select('key')
      .where('name', '=', 'send-screening-invite')
      .where('created_at', '=', new Date(NOW))
      .where(
        (eb) =>
          sql<boolean>`not exists (select 1 from screenings s where s.id = ${eb.ref('payload')}->>'screeningId')`,
      )
      .execute();
    assert.deepEqual(tasks, [], 'no task of a rolled-back run');
    const own = await ctx.handle.db
      .selectFrom('tasks')
      .select('key')
      .where('key', '=', `send-screening-invite:${rows[0]!.id}`)
      .execute();
    assert.equal(own.length, 1);
  });

  test('a write that keeps losing answers 503 unavailable with Retry-After, changes nothing, and its key is free again', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const job = await createPublished(api);
    const key = { 'idempotency-key': unique('idem') };
    const fault = await loseRaces(account.id, '40P01', 1_000);
    try {
      const res = await api.post(`/v1/jobs/${job.id}/close`, undefined, key);
      assertError(res, 503, 'unavailable');
      assert.equal(res.headers['retry-after'], '1');
      assert.equal(await fault.runs(), TRANSACTION_RETRIES.attempts);
    } finally {
      await fault.remove();
    }
    const read = await api.get(`/v1/jobs/${job.id}`);
    assert.equal(read.json().job.status, 'published', 'nothing of the failed runs stayed');
    assert.equal(await eventCount(account.id, 'job.closed'), 0);
    // A 5xx is not kept under the key: the client's retry with the same key runs.
    const again = await api.post(`/v1/jobs/${job.id}/close`, undefined, key);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers['idempotent-replayed'], undefined);
  });

  test('an edit of a published job that fails once with 40001 is run again: 200, one job.updated event', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const job = await createPublished(api);
    const fault = await loseRaces(account.id, '40001', 1);
    try {
      const res = await api.patch(`/v1/jobs/${job.id}`, {
        description: '<p>Changed.</p>',
        publishEdits: true,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pendingRevision, false);
      assert.equal(await fault.runs(), 2);
    } finally {
      await fault.remove();
    }
    assert.equal(await eventCount(account.id, 'job.updated'), 1);
  });

  test('a statement outside a transaction (the Idempotency-Key claim) that fails once with 40P01 runs again', {
    skip: testConfig.databaseUrl === null ? 'PostgreSQL only: PGlite runs one statement at a time' : false,
  }, async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const fault = await loseRaces(account.id, '40P01', 1, 'idempotency_records');
    try {
      const res = await api.post(
        '/v1/jobs',
        { title: 'Claimed twice' },
        { 'idempotency-key': unique('idem') },
      );
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(await fault.runs(), 2);
    } finally {
      await fault.remove();
    }
  });
});
