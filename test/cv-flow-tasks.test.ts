import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckQueueFull } from '../src/pdf/fair-limiter.ts';
import { ParserPoolUnavailable } from '../src/pdf/parser-pool.ts';
import { loggerOptions } from '../src/plugins/log.ts';
import { createTaskQueue } from '../src/tasks/queue.ts';
import { type TaskRow, taskRepository } from '../src/tasks/task-repository.ts';
import {
  backoffMs,
  busyDelayMs,
  createWorker,
  type TaskHandler,
  type TaskHandlers,
  type WorkerLog,
} from '../src/tasks/worker.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import {
  applicationBody,
  applyWithCv,
  candidateBody,
  consentReceipt,
  pdfFixture,
  uploadPdf,
} from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { drainAll, mailTo } from './support/mail.ts';
import { HOUR } from './support/time.ts';

/**
 * The task queue under the CV flow, through real workers on the real database: tasks exist
 * exactly when their cause commits, run once however often the queue is drained or replayed, are
 * picked up again when their worker dies, are never run twice by workers racing each other, and
 * retry with backoff into a dead letter an operator can see and requeue.
 */

const ctx = useTestApp({ logger: { ...(loggerOptions('error') as object), stream: process.stderr } });

// ---- helpers ----

function captureLog() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const log: WorkerLog = {
    info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
    warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
    error: (obj, msg) => lines.push({ level: 'error', msg, obj }),
  };
  return { lines, log };
}

/** A promise with its resolve outside: a handler that waits on it hangs until the test lets go. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** The real handlers with one task name replaced for the given application only. */
/** A worker of the test's own on the test app's database and clock. */
function workerWith(options: Omit<Parameters<typeof createWorker>[0], 'db' | 'clock'>) {
  return createWorker({ db: ctx.handle.db, clock: ctx.clock, ...options });
}

function replacing<N extends keyof TaskHandlers>(
  name: N,
  applicationId: string,
  handler: TaskHandler<N>,
): TaskHandlers {
  const real = ctx.services.taskHandlers;
  const wrapped: TaskHandler<N> = (payload, task) => {
    const id = (payload as { id?: string }).id;
    return id === applicationId ? handler(payload, task) : real[name](payload, task);
  };
  return { ...real, [name]: wrapped };
}

async function taskByKey(key: string) {
  return ctx.handle.db.selectFrom('tasks').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
}

async function taskCount(): Promise<{ n: number; keys: string[] }> {
  const rows = await ctx.handle.db.selectFrom('tasks').select('key').orderBy('key').execute();
  return { n: rows.length, keys: rows.map((r) => r.key) };
}

async function virtualCvs(id: string) {
  return ctx.handle.db
    .selectFrom('virtual_cvs')
    .select('id')
    .where('subject_kind', '=', 'application')
    .where('subject_id', '=', id)
    .execute();
}

async function cvStatus(id: string) {
  const row = await ctx.handle.db
    .selectFrom('applications')
    .select(['cv_status', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.cv_status;
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// ---- idempotency ----

describe('every task is safe to run twice', () => {
  test('draining twice, re-running both handlers, and a reclaimed mail task still make one CV and one mail', async () => {
    const applied = await applyWithCv(ctx);
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    const id = applied.applicationId;
    await drainAll(ctx.worker);
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1);

    // The handlers run again, as a retry would run them.
    const build = await taskByKey(`build-cv:application:${id}`);
    const mail = await taskByKey(`send-claim-mail:application:${id}`);
    assert.equal(build.state, 'done');
    assert.equal(mail.state, 'done');
    await ctx.services.taskHandlers['build-cv']({ kind: 'application', id }, build);
    await ctx.services.taskHandlers['send-claim-mail']({ kind: 'application', id }, mail);

    // The mail task's worker "crashed" after sending, before recording it: the lease runs out.
    await ctx.handle.db
      .updateTable('tasks')
      .set({ state: 'running', locked_by: 'dead-worker', locked_until: ctx.clock.now(), finished_at: null })
      .where('id', '=', mail.id)
      .execute();
    await drainAll(ctx.worker);
    const rerun = await taskByKey(mail.key);
    assert.equal(rerun.state, 'done');
    assert.equal(rerun.attempts, 2, 'the task did run again');

    assert.equal((await virtualCvs(id)).length, 1, 'one virtual CV');
    const messages = await mailTo(ctx.app, applied.email);
    assert.equal(messages.length, 1, 'one mail');
    assert.equal(await cvStatus(id), 'staged');
  });

  test('enqueueing the same key twice makes one task, ever (also after it ran)', async () => {
    const queue = createTaskQueue({ clock: ctx.clock });
    const db = ctx.handle.db;
    const payload = { kind: 'application' as const, id: `app_${unique('nosuch')}` };
    const key = `build-cv:application:${payload.id}`;
    assert.equal(await queue.enqueue(db, 'build-cv', payload, { key }), true);
    assert.equal(await queue.enqueue(db, 'build-cv', payload, { key }), false);
    // Without a key, name + payload is the key.
    const other = { kind: 'candidate' as const, id: `cand_${unique('nosuch')}` };
    assert.equal(await queue.enqueue(db, 'build-cv', other), true);
    assert.equal(await queue.enqueue(db, 'build-cv', other), false);
    // In a transaction that rolls back, nothing is left.
    const rolledBack = { kind: 'candidate' as const, id: `cand_${unique('rollback')}` };
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        assert.equal(await queue.enqueue(trx, 'build-cv', rolledBack), true);
        throw new Error('the cause failed');
      }),
      /the cause failed/,
    );
    const rows = await db
      .selectFrom('tasks')
      .select(['key', 'state'])
      .where('key', 'in', [
        key,
        `build-cv:${JSON.stringify(other)}`,
        `build-cv:${JSON.stringify(rolledBack)}`,
      ])
      .orderBy('key')
      .execute();
    assert.equal(rows.length, 2, JSON.stringify(rows));

    await drainAll(ctx.worker);
    assert.equal((await taskByKey(key)).state, 'done', 'a task for a missing subject just finishes');
    assert.equal(await queue.enqueue(db, 'build-cv', payload, { key }), false, 'not again after it ran');
    assert.equal((await taskByKey(key)).state, 'done');
  });

  test('the same application POSTed again with its Idempotency-Key makes one task', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api);
    const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
    const body = applicationBody(ctx.clock, upload.uploadId);
    const headers = { 'idempotency-key': unique('idem') };
    const first = await intake.api.post(`/v1/jobs/${job.id}/applications`, body, headers);
    assert.equal(first.statusCode, 201, first.body);
    const replay = await intake.api.post(`/v1/jobs/${job.id}/applications`, body, headers);
    assert.equal(replay.statusCode, 201, replay.body);
    assert.equal(replay.json().applicationId, first.json().applicationId);
    const id = first.json().applicationId as string;
    const tasks = await ctx.handle.db
      .selectFrom('tasks')
      .select('key')
      .where('key', 'like', `%${id}`)
      .execute();
    assert.deepEqual(
      tasks.map((t) => t.key),
      [`build-cv:application:${id}`],
    );
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, String(body.email))).length, 1);
  });

  test('a refused application or import enqueues no task (the tasks table is unchanged)', async () => {
    await drainAll(ctx.worker);
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api);
    const before = await taskCount();
    const post = (body: Record<string, unknown>) =>
      intake.api.post(`/v1/jobs/${job.id}/applications`, body, { 'idempotency-key': unique('idem') });

    const scan = await uploadPdf(ctx, intake.api, pdfFixture('scan-image-only.pdf'));
    const rejected = await post(applicationBody(ctx.clock, scan.uploadId));
    assert.equal(rejected.statusCode, 422, rejected.body);
    assert.equal(errorOf(rejected).code, 'cv_rejected');

    const good = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
    const consent = await post(
      applicationBody(ctx.clock, good.uploadId, {
        consent: consentReceipt(ctx.clock, { version: 'api_apply_v0' }),
      }),
    );
    assert.equal(consent.statusCode, 422, consent.body);
    assert.equal(errorOf(consent).code, 'consent_invalid');

    const attest = await post(
      applicationBody(ctx.clock, good.uploadId, { lawfulBasis: { attested: false } }),
    );
    assert.equal(attest.statusCode, 422, attest.body);
    assert.equal(errorOf(attest).code, 'attestation_required');

    const menu = await uploadPdf(ctx, intake.api, pdfFixture('not-a-cv-menu.pdf'));
    const notCv = await intake.api.post('/v1/candidates', candidateBody(menu.uploadId), {
      'idempotency-key': unique('idem'),
    });
    assert.equal(notCv.statusCode, 201, notCv.body);
    assert.equal(notCv.json().status, 'rejected');
    const scan2 = await uploadPdf(ctx, intake.api, pdfFixture('scan-image-only.pdf'));
    const scanImport = await intake.api.post('/v1/candidates', candidateBody(scan2.uploadId), {
      'idempotency-key': unique('idem'),
    });
    assert.equal(scanImport.statusCode, 422, scanImport.body);
    assert.equal(errorOf(scanImport).code, 'cv_rejected');

    assert.deepEqual(await taskCount(), before, 'no task was enqueued');
    assert.equal(await ctx.worker.drain(), 0, 'and nothing is due');
  });
});

// ---- a worker killed mid-task ----

describe('a worker that dies mid-task', () => {
  test('build-cv: worker A hangs holding the task; past its lease B runs it; exactly one CV and one mail; A’s late completion is refused', async () => {
    const applied = await applyWithCv(ctx);
    const id = applied.applicationId;
    const started = gate();
    const release = gate();
    const aLog = captureLog();
    const real = ctx.services.taskHandlers['build-cv'];
    const workerA = workerWith({
      handlers: replacing('build-cv', id, async (payload, task) => {
        started.open();
        await release.promise; // the process "died" here; nothing below runs until the test lets go
        await real(payload, task);
      }),
      log: aLog.log,
      leaseMs: 30_000,
    });
    const aDone = workerA.drain();
    await started.promise;

    const held = await taskByKey(`build-cv:application:${id}`);
    assert.equal(held.state, 'running');
    assert.equal(held.locked_by, workerA.id);
    assert.equal(held.attempts, 1);

    // Within A's lease nobody else takes it.
    await drainAll(ctx.worker);
    assert.equal((await taskByKey(held.key)).locked_by, workerA.id);
    assert.equal(await cvStatus(id), 'processing');

    // The lease runs out: B (the harness's worker) picks it up and finishes the work.
    ctx.clock.advance(30_001);
    await drainAll(ctx.worker);
    const finished = await taskByKey(held.key);
    assert.equal(finished.state, 'done');
    assert.equal(finished.locked_by, ctx.worker.id);
    assert.equal(finished.attempts, 2);
    assert.equal(await cvStatus(id), 'staged');
    assert.equal((await virtualCvs(id)).length, 1);
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1);

    // A is no longer the holder: its completion is refused.
    assert.equal(await taskRepository.complete(ctx.handle.db, held.id, workerA.id, ctx.clock.now()), false);
    // A wakes up late and runs the rest of its handler: nothing more happens.
    release.open();
    await aDone;
    await workerA.stop();
    assert.ok(
      aLog.lines.some((l) => l.level === 'warn' && /lease lost/.test(l.msg)),
      JSON.stringify(aLog.lines),
    );
    const still = await taskByKey(held.key);
    assert.equal(still.state, 'done');
    assert.equal(still.locked_by, ctx.worker.id);
    assert.equal((await virtualCvs(id)).length, 1, 'still one virtual CV');
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1, 'still one mail');
    assert.equal(await cvStatus(id), 'staged');
  });

  test('A wakes while B holds the task: A’s completion is refused, B’s counts, the effect happens once', async () => {
    const applied = await applyWithCv(ctx);
    const id = applied.applicationId;
    const real = ctx.services.taskHandlers['build-cv'];
    const hanging = (started: ReturnType<typeof gate>, release: ReturnType<typeof gate>) =>
      replacing('build-cv', id, async (payload, task) => {
        started.open();
        await release.promise;
        await real(payload, task);
      });
    const [aStarted, aRelease, bStarted, bRelease] = [gate(), gate(), gate(), gate()];
    const aLog = captureLog();
    const workerA = workerWith({
      handlers: hanging(aStarted, aRelease),
      log: aLog.log,
      leaseMs: 20_000,
    });
    const workerB = workerWith({
      handlers: hanging(bStarted, bRelease),
      log: captureLog().log,
      leaseMs: 20_000,
    });
    const key = `build-cv:application:${id}`;
    const aDone = workerA.drain();
    await aStarted.promise;
    ctx.clock.advance(20_001);
    const bDone = workerB.drain();
    await bStarted.promise;
    const heldByB = await taskByKey(key);
    assert.equal(heldByB.state, 'running');
    assert.equal(heldByB.locked_by, workerB.id);
    assert.equal(heldByB.attempts, 2);

    // A finishes its (now stale) run first: the work is done, but the completion is not A's to record.
    aRelease.open();
    await waitFor('A to give up the task', async () =>
      aLog.lines.some((l) => l.level === 'warn' && /lease lost/.test(l.msg)),
    );
    const stillB = await taskByKey(key);
    assert.equal(stillB.state, 'running', 'A did not mark B’s task done');
    assert.equal(stillB.locked_by, workerB.id);
    assert.equal(await cvStatus(id), 'staged');

    bRelease.open();
    await Promise.all([aDone, bDone]);
    await workerA.stop();
    await workerB.stop();
    await drainAll(ctx.worker);
    const done = await taskByKey(key);
    assert.equal(done.state, 'done');
    assert.equal(done.locked_by, workerB.id);
    assert.equal((await virtualCvs(id)).length, 1, 'one virtual CV');
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1, 'one mail');
  });

  test('send-claim-mail: A sends, then dies before recording it; B reruns the task; still one mail', async () => {
    const applied = await applyWithCv(ctx);
    const id = applied.applicationId;
    const sent = gate();
    const release = gate();
    const real = ctx.services.taskHandlers['send-claim-mail'];
    const workerA = workerWith({
      handlers: replacing('send-claim-mail', id, async (payload, task) => {
        await real(payload, task);
        sent.open();
        await release.promise;
      }),
      log: captureLog().log,
      leaseMs: 10_000,
    });
    const aDone = workerA.drain();
    await sent.promise;
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1);
    const held = await taskByKey(`send-claim-mail:application:${id}`);
    assert.equal(held.locked_by, workerA.id);

    ctx.clock.advance(10_001);
    await drainAll(ctx.worker);
    const finished = await taskByKey(held.key);
    assert.equal(finished.state, 'done');
    assert.equal(finished.locked_by, ctx.worker.id);
    assert.equal(finished.attempts, 2, 'B ran it again');
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1, 'the rerun sent nothing');

    release.open();
    await aDone;
    await workerA.stop();
    assert.equal((await taskByKey(held.key)).locked_by, ctx.worker.id);
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1);
  });

  test('graceful stop: stop() waits for the task in hand, which completes', async () => {
    const applied = await applyWithCv(ctx);
    const id = applied.applicationId;
    const started = gate();
    const release = gate();
    const real = ctx.services.taskHandlers['build-cv'];
    const worker = workerWith({
      handlers: replacing('build-cv', id, async (payload, task) => {
        started.open();
        await release.promise;
        await real(payload, task);
      }),
      log: captureLog().log,
      pollMs: 10,
    });
    worker.start();
    await started.promise;
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stopped, false, 'stop() waits for the running task');
    release.open();
    await stopping;
    const task = await taskByKey(`build-cv:application:${id}`);
    assert.equal(task.state, 'done');
    assert.equal(await cvStatus(id), 'staged');
    // The stopped worker claims nothing more: the mail task waits for another worker.
    const mail = await taskByKey(`send-claim-mail:application:${id}`);
    assert.equal(mail.state, 'queued');
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1);
  });
});

// ---- concurrent workers ----

describe('several workers draining at once', () => {
  test('10 applications, 3 workers: every task runs exactly once', async () => {
    await drainAll(ctx.worker);
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api);
    const ids: string[] = [];
    const emails: string[] = [];
    for (let i = 0; i < 10; i++) {
      const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
      const body = applicationBody(ctx.clock, upload.uploadId);
      const res = await intake.api.post(`/v1/jobs/${job.id}/applications`, body, {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().applicationId);
      emails.push(String(body.email));
    }

    const runs = new Map<string, string[]>();
    let deferred = 0;
    const real = ctx.services.taskHandlers;
    // Every handler the service has, each counting its runs per task.
    const counting = (name: string): TaskHandlers =>
      Object.fromEntries(
        Object.entries(real).map(([taskName, handler]) => [
          taskName,
          async (payload: never, task: TaskRow) => {
            // Give the other workers a chance to interleave.
            await new Promise((resolve) => setTimeout(resolve, 5));
            try {
              await (handler as TaskHandler<keyof TaskHandlers>)(payload, task);
            } catch (error) {
              // The checker was full: the task runs again later; only a run that did the work counts.
              if (busyDelayMs(error) !== null) deferred++;
              throw error;
            }
            runs.set(task.id, [...(runs.get(task.id) ?? []), name]);
          },
        ]),
      ) as TaskHandlers;
    const workers = ['w1', 'w2', 'w3'].map((name) =>
      workerWith({
        handlers: counting(name),
        log: captureLog().log,
        // 3 × 3 builds at once: more than one account's share of the CV checker (8, cv-check.ts);
        // a refused check is queued again without counting an attempt.
        concurrency: 3,
      }),
    );
    await Promise.all(workers.map((w) => drainAll(w)));
    await Promise.all(workers.map((w) => drainAll(w)));
    // Builds the checker deferred are due again after their Retry-After (at most 30 s).
    const pending = async () =>
      (
        await ctx.handle.db
          .selectFrom('tasks')
          .select('id')
          .where('state', '!=', 'done')
          .where(
            'key',
            'in',
            ids.map((id) => `build-cv:application:${id}`),
          )
          .execute()
      ).length;
    for (let round = 0; round < 20 && deferred > 0 && (await pending()) > 0; round++) {
      ctx.clock.advance(30_000);
      await Promise.all(workers.map((w) => drainAll(w)));
    }
    for (const w of workers) await w.stop();

    const tasks = await ctx.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where(
        'key',
        'in',
        ids.flatMap((id) => [`build-cv:application:${id}`, `send-claim-mail:application:${id}`]),
      )
      .execute();
    assert.equal(tasks.length, 20);
    for (const task of tasks) {
      assert.equal(task.state, 'done', task.key);
      assert.equal(task.attempts, 1, `${task.key} claimed once`);
      assert.equal(runs.get(task.id)?.length, 1, `${task.key} ran ${runs.get(task.id)?.length} times`);
    }
    for (const [i, id] of ids.entries()) {
      assert.equal(await cvStatus(id), 'staged');
      assert.equal((await virtualCvs(id)).length, 1);
      assert.equal((await mailTo(ctx.app, emails[i]!)).length, 1, `one mail to ${emails[i]}`);
    }
  });
});

// ---- retries and dead letters ----

describe('retries with backoff, then a dead letter an operator can retry', () => {
  test('a failing build is retried with growing delays, dead after max_attempts, listed, and requeued by the console', async () => {
    await drainAll(ctx.worker);
    const applied = await applyWithCv(ctx);
    const id = applied.applicationId;
    let calls = 0;
    let failing = true;
    const log = captureLog();
    const worker = workerWith({
      handlers: replacing('build-cv', id, async (payload, task) => {
        calls++;
        if (failing) throw new Error(`PDF pool unavailable (call ${calls})`);
        await ctx.services.taskHandlers['build-cv'](payload, task);
      }),
      log: log.log,
    });
    const key = `build-cv:application:${id}`;

    await drainAll(worker);
    let task = await taskByKey(key);
    assert.equal(calls, 1);
    assert.equal(task.state, 'queued', 'failed, queued again');
    assert.equal(task.attempts, 1);
    assert.equal(task.last_error, 'PDF pool unavailable (call 1)');
    assert.equal(task.locked_until, null);
    let delay = task.run_after.getTime() - ctx.clock.now().getTime();
    assert.ok(delay >= 4_000 && delay <= 6_000, `first retry after ~5 s, not ${delay} ms`);

    // Not due yet: nothing runs.
    await drainAll(worker);
    assert.equal(calls, 1);

    for (let attempt = 2; attempt <= task.max_attempts; attempt++) {
      ctx.clock.advance(delay + 1);
      await drainAll(worker);
      task = await taskByKey(key);
      assert.equal(calls, attempt);
      assert.equal(task.attempts, attempt);
      assert.equal(task.last_error, `PDF pool unavailable (call ${attempt})`);
      if (attempt < task.max_attempts) {
        assert.equal(task.state, 'queued');
        const expected = Math.min(HOUR, 5_000 * 2 ** (attempt - 1));
        delay = task.run_after.getTime() - ctx.clock.now().getTime();
        assert.ok(
          delay >= expected * 0.8 - 1 && delay <= expected * 1.2 + 1,
          `attempt ${attempt}: ~${expected} ms, not ${delay}`,
        );
      }
    }
    assert.equal(task.state, 'dead');
    assert.equal(task.attempts, 8);
    assert.ok(task.finished_at);
    assert.equal(calls, 8);
    assert.ok(log.lines.some((l) => l.level === 'error' && /dead-lettered/.test(l.msg)));
    assert.equal(await cvStatus(id), 'processing', 'the application waits; nothing is lost');

    // Dead letters do not run again by themselves.
    ctx.clock.advance(24 * HOUR);
    await drainAll(worker);
    assert.equal(calls, 8);

    // The operator sees it...
    const listed = await consoleCall(ctx.app, 'GET', '/tasks?state=dead');
    assert.equal(listed.statusCode, 200, listed.body);
    const dead = listed.json().tasks.find((t: { id: string }) => t.id === task.id);
    assert.ok(dead, listed.body);
    assert.equal(dead.state, 'dead');
    assert.equal(dead.name, 'build-cv');
    assert.equal(dead.key, key);
    assert.equal(dead.attempts, 8);
    assert.equal(dead.maxAttempts, 8);
    assert.equal(dead.lastError, 'PDF pool unavailable (call 8)');
    assert.ok(listed.json().counts.dead >= 1);
    const byDefault = await consoleCall(ctx.app, 'GET', '/tasks');
    assert.ok(
      byDefault.json().tasks.some((t: { id: string }) => t.id === task.id),
      'dead is the default',
    );
    const queuedList = await consoleCall(ctx.app, 'GET', '/tasks?state=queued');
    assert.ok(!queuedList.json().tasks.some((t: { id: string }) => t.id === task.id));
    const badState = await consoleCall(ctx.app, 'GET', '/tasks?state=zombie');
    assert.equal(badState.statusCode, 400, badState.body);
    const noToken = await ctx.app.inject({ method: 'GET', url: '/console/v1/tasks?state=dead' });
    assert.equal(noToken.statusCode, 401);

    // ...and retries it once the cause is fixed.
    failing = false;
    const retried = await consoleCall(ctx.app, 'POST', `/tasks/${task.id}/retry`);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.deepEqual(retried.json(), { retried: true });
    const requeued = await taskByKey(key);
    assert.equal(requeued.state, 'queued');
    assert.equal(requeued.attempts, 0);
    assert.equal(requeued.finished_at, null);
    assert.ok(requeued.run_after.getTime() <= ctx.clock.now().getTime());
    const twice = await consoleCall(ctx.app, 'POST', `/tasks/${task.id}/retry`);
    assert.equal(twice.statusCode, 404, 'only a dead task can be retried');
    const unknown = await consoleCall(ctx.app, 'POST', '/tasks/tsk_nosuchtask/retry');
    assert.equal(unknown.statusCode, 404);

    await drainAll(worker);
    assert.equal(calls, 9);
    assert.equal((await taskByKey(key)).state, 'done');
    assert.equal(await cvStatus(id), 'staged');
    assert.equal((await mailTo(ctx.app, applied.email)).length, 1);
  });

  test('a "busy" refusal (the CV checker full) is queued again after its delay, never counted, never dead-lettered', async () => {
    await drainAll(ctx.worker);
    const applied = await applyWithCv(ctx);
    const id = applied.applicationId;
    const busyCalls = 12; // more than max_attempts (8): a busy checker must not kill the task
    let calls = 0;
    const log = captureLog();
    const worker = workerWith({
      handlers: replacing('build-cv', id, async (payload, task) => {
        calls++;
        if (calls <= busyCalls) throw new CheckQueueFull('8 CV checks are already waiting', 3);
        await ctx.services.taskHandlers['build-cv'](payload, task);
      }),
      log: log.log,
    });
    const key = `build-cv:application:${id}`;
    for (let call = 1; call <= busyCalls; call++) {
      await drainAll(worker);
      const task = await taskByKey(key);
      assert.equal(calls, call, 'one run per due time: the deferred task is not due at once');
      assert.equal(task.state, 'queued');
      assert.equal(task.attempts, 0, 'the busy run is not counted');
      assert.equal(task.last_error, null, 'busy is not a failure');
      assert.equal(task.locked_until, null);
      assert.equal(task.run_after.getTime() - ctx.clock.now().getTime(), 3_000, 'after Retry-After');
      ctx.clock.advance(2_999);
      await drainAll(worker);
      assert.equal(calls, call, 'not before its delay');
      ctx.clock.advance(1);
    }
    await drainAll(worker);
    const task = await taskByKey(key);
    assert.equal(calls, busyCalls + 1);
    assert.equal(task.state, 'done');
    assert.equal(task.attempts, 1);
    assert.equal(await cvStatus(id), 'staged');
    assert.ok(log.lines.some((l) => l.level === 'info' && /deferred: busy/.test(l.msg)));
    assert.ok(
      !log.lines.some((l) => /failed|dead-lettered/.test(l.msg)),
      'busy is logged as a deferral only',
    );
  });

  test('busyDelayMs: only errors marked busy; Retry-After kept within 1–30 s', () => {
    assert.equal(busyDelayMs(new Error('PDF pool unavailable')), null);
    assert.equal(
      busyDelayMs(new ParserPoolUnavailable('pool down', 5)),
      null,
      'a pool that is down is a failure',
    );
    assert.equal(busyDelayMs(new CheckQueueFull('full', 4)), 4_000);
    assert.equal(busyDelayMs(new CheckQueueFull('full', 0)), 1_000);
    assert.equal(busyDelayMs(new CheckQueueFull('full', 600)), 30_000);
    assert.equal(busyDelayMs({ busy: true }), 1_000);
    assert.equal(busyDelayMs(null), null);
  });

  test('backoffMs: 5 s doubling with ±20% jitter, capped at an hour', () => {
    for (let attempt = 1; attempt <= 20; attempt++) {
      const base = Math.min(HOUR, 5_000 * 2 ** (attempt - 1));
      for (let i = 0; i < 20; i++) {
        const ms = backoffMs(attempt);
        assert.ok(ms >= base * 0.8 && ms <= base * 1.2, `attempt ${attempt}: ${ms}`);
      }
    }
  });
});
