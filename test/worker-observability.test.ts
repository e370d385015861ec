import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { workerLoopRunning } from '../src/http/ops/probes.ts';
import type { ManualClock } from '../src/lib/clock.ts';
import { createTaskQueue } from '../src/tasks/queue.ts';
import { taskRepository } from '../src/tasks/task-repository.ts';
import { type ServiceProcess, startService } from './service-process.ts';
import { consoleCall, jobsAccount, unique } from './support/accounts.ts';
import { startApp, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { createPublished } from './support/jobs.ts';

/**
 * Issue 29, item 4: every role listens on PORT with /healthz, /readyz and /metrics (METRICS_TOKEN),
 * a worker serves nothing else, and /metrics reports the task queue, webhook deliveries, the PDF
 * pool and the sweeps, labelled by role. In process (a ROLE=worker app over the test database,
 * the clock moved by hand) and as a real ROLE=worker process (src/main.ts).
 */

const METRICS_TOKEN = 'worker-metrics-token-0123456789';
// The API side (role all) writes through /v1 and the console; the worker app reads the same database.
const api = useTestApp({ metricsToken: METRICS_TOKEN, webhooks: { allowPrivate: true } });
const worker = useTestApp({ metricsToken: METRICS_TOKEN, env: { ROLE: 'worker' } });

async function scrape(app = worker.app): Promise<string> {
  const res = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.body;
}

/** The value of one sample (`name{labels}` exactly as printed), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('a ROLE=worker app (in process)', () => {
  test('serves /healthz, /readyz and /metrics; every other path is the 404 error body', async () => {
    assert.equal((await worker.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    const ready = await worker.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200, ready.body);
    for (const url of ['/v1/jobs', '/console/v1/accounts', '/v1/openapi.json', '/', '/jobs/x']) {
      const res = await worker.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assert.equal(errorOf(res).code, 'not_found', url);
    }
    const post = await worker.app.inject({ method: 'POST', url: '/v1/jobs', payload: {} });
    assert.equal(post.statusCode, 404);
    // The same token rule as the API: none or a wrong one is 401, no token configured is 404.
    assert.equal((await worker.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 401);
    const wrong = await worker.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer not-the-metrics-token' },
    });
    assert.equal(wrong.statusCode, 401);
    const off = await startApp({ metricsToken: null, env: { ROLE: 'worker' } });
    try {
      assert.equal((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
    } finally {
      await off.close();
    }
  });

  test('the queue depth by task and state and the oldest ready age move with the queue', async () => {
    const clock = worker.clock as ManualClock;
    const queue = createTaskQueue({ clock });
    const ready = 'tasks_open{role="worker",task="send-account-notice",state="ready"}';
    const delayed = 'tasks_open{role="worker",task="send-account-notice",state="delayed"}';
    const oldest = 'tasks_oldest_ready_age_seconds{role="worker"}';
    // What the database held before (on PostgreSQL, earlier runs' tasks may still wait their retry).
    await worker.worker.drain();
    const before = await scrape();
    assert.equal(sample(before, ready), 0);
    assert.equal(sample(before, oldest), 0);
    const delayedBefore = sample(before, delayed) ?? 0;

    const run = unique('cnd');
    for (const id of ['a', 'b', 'c'])
      await queue.enqueue(worker.handle.db, 'send-account-notice', { candidateId: `${run}_${id}` });
    await queue.enqueue(
      worker.handle.db,
      'send-account-notice',
      { candidateId: `${run}_later` },
      { runAfter: new Date(clock.now().getTime() + 3_600_000) },
    );
    clock.advance(90_000);
    const queued = await scrape();
    assert.equal(sample(queued, ready), 3);
    assert.equal(sample(queued, delayed), delayedBefore + 1);
    assert.equal(sample(queued, 'tasks_open{role="worker",task="build-cv",state="ready"}'), 0);
    assert.equal(sample(queued, oldest), 90);

    clock.advance(30_000);
    assert.equal(sample(await scrape(), oldest), 120);

    // The worker takes them (the candidates do not exist: the notice has nothing to send).
    await worker.worker.drain();
    const drained = await scrape();
    assert.equal(sample(drained, ready), 0);
    assert.equal(sample(drained, delayed), delayedBefore + 1);
    assert.equal(sample(drained, oldest), 0);
  });

  test('a task whose last attempt failed is counted dead, by name, until it is retried', async () => {
    const clock = worker.clock as ManualClock;
    const db = worker.handle.db;
    // A name of its own per run: on PostgreSQL the database outlives the run.
    const name = unique('no-such-task');
    const id = unique('tsk_dead');
    await taskRepository.insert(db, {
      id,
      name,
      key: id,
      payload: {},
      maxAttempts: 1,
      runAfter: clock.now(),
      now: clock.now(),
    });
    const series = `tasks_dead{role="worker",task="${name}"}`;
    assert.equal(sample(await scrape(), series), undefined);
    await worker.worker.drain();
    const text = await scrape();
    assert.equal(sample(text, series), 1);
    assert.notEqual(sample(text, 'tasks_dead{role="worker",task="build-cv"}'), undefined);
    assert.ok(await taskRepository.retry(db, id, clock.now()));
    // A name the worker does not know has no series once none of its tasks is dead.
    assert.equal(sample(await scrape(), series), undefined);
  });

  test('pending webhook deliveries and the oldest one’s age', async () => {
    const clock = worker.clock as ManualClock;
    const before = await scrape();
    const readyBefore = sample(before, 'webhook_deliveries_pending{role="worker",state="ready"}') ?? 0;
    const { account, api: client } = await jobsAccount(api.app);
    // An endpoint nobody listens on: the delivery stays pending until the deliverer tries it.
    await consoleCall(api.app, 'POST', `/accounts/${account.id}/webhooks`, {
      url: 'http://127.0.0.1:9/hooks',
      types: ['job.published'],
    });
    await createPublished(client);
    clock.advance(45_000);
    const text = await scrape();
    assert.equal(sample(text, 'webhook_deliveries_pending{role="worker",state="ready"}'), readyBefore + 1);
    assert.ok((sample(text, 'webhook_deliveries_oldest_pending_age_seconds{role="worker"}') ?? 0) >= 45);
    assert.ok((sample(text, 'webhook_deliveries_oldest_ready_age_seconds{role="worker"}') ?? 0) >= 45);
  });

  test('the PDF pool, resident memory and the role are reported; no id or token in the text', async () => {
    const text = await scrape();
    for (const state of ['starting', 'idle', 'busy', 'stopping'])
      assert.notEqual(sample(text, `pdf_pool_children{role="worker",state="${state}"}`), undefined, state);
    assert.equal(sample(text, 'pdf_pool_queue_length{role="worker"}'), 0);
    assert.equal(sample(text, 'pdf_checks_waiting{role="worker"}'), 0);
    assert.equal(sample(text, 'pdf_pool_children_stopped_total{role="worker",cause="timeout"}'), 0);
    assert.equal(sample(text, 'pdf_checks_refused_total{role="worker",reason="queue_full"}'), 0);
    assert.equal(sample(text, 'service_info{role="worker"}'), 1);
    assert.ok((sample(text, 'process_resident_memory_bytes{role="worker"}') ?? 0) > 10_000_000);
    assert.ok(!text.includes(METRICS_TOKEN));
    assert.ok(!/\b(cnd|acc|tsk|job|key|whk)_[0-9a-z]{8,}/.test(text), 'an id in the metrics');
  });

  test('an API process reports its role and PDF pool but leaves the fleet backlog to the workers', async () => {
    const text = await scrape(api.app);
    assert.equal(sample(text, 'service_info{role="all"}'), 1);
    assert.ok(text.includes('tasks_open{role="all"'), 'role all runs a worker: it reports the queue');
    const apiOnly = await startApp({ metricsToken: METRICS_TOKEN, env: { ROLE: 'api' } });
    try {
      const apiText = await scrape(apiOnly.app);
      assert.equal(sample(apiText, 'service_info{role="api"}'), 1);
      assert.ok(!apiText.includes('tasks_open'), 'ROLE=api reads no backlog');
      assert.ok(apiText.includes('pdf_pool_children{role="api"'));
      assert.equal((await apiOnly.app.inject({ method: 'GET', url: '/v1/openapi.json' })).statusCode, 200);
    } finally {
      await apiOnly.close();
    }
  });

  test('the sweeps: last run, duration and rows per sweep', async () => {
    await worker.services.maintenance();
    const text = await scrape();
    for (const sweep of ['idempotency_records', 'uploads', 'finished_tasks', 'finished_deliveries']) {
      const at = sample(text, `sweep_last_run_timestamp_seconds{role="worker",sweep="${sweep}"}`);
      assert.ok(at !== undefined && Math.abs(at - Date.now() / 1000) < 60, `${sweep} ran just now`);
      assert.ok((sample(text, `sweep_last_duration_seconds{role="worker",sweep="${sweep}"}`) ?? -1) >= 0);
      assert.notEqual(sample(text, `sweep_rows_total{role="worker",sweep="${sweep}"}`), undefined);
    }
  });
});

describe('the worker loop as /readyz sees it', () => {
  const stats = (over: object) => ({
    worker: () => ({
      running: true,
      lastPollAt: 1_000_000,
      polling: false,
      inHand: 0,
      concurrency: 2,
      pollMs: 500,
      outcomes: {},
      ...over,
    }),
    deliveries: () => null,
  });
  test('running when started and polled within the last minute, or while a poll waits for its tasks', () => {
    assert.equal(workerLoopRunning(undefined), null);
    assert.equal(workerLoopRunning(stats({}), 1_030_000), true);
    assert.equal(workerLoopRunning(stats({}), 1_070_000), false);
    assert.equal(workerLoopRunning(stats({ polling: true }), 1_900_000), true);
    assert.equal(workerLoopRunning(stats({ running: false }), 1_000_100), false);
    assert.equal(workerLoopRunning(stats({ lastPollAt: null }), 1_000_100), false);
  });
});

describe('a ROLE=worker process (src/main.ts)', () => {
  let service: ServiceProcess | null = null;
  after(async () => {
    service?.kill('SIGTERM');
    await service?.exited;
  });

  test('listens on PORT: /healthz and /readyz 200, /metrics with the queue, webhook and PDF-pool figures behind its token, /v1/jobs 404', {
    timeout: 120_000,
  }, async () => {
    service = await startService({ ROLE: 'worker', METRICS_TOKEN });
    const health = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    const ready = await fetch(`${service.baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { worker: string }).worker, 'running');
    const jobs = await fetch(`${service.baseUrl}/v1/jobs`);
    assert.equal(jobs.status, 404);
    assert.equal(((await jobs.json()) as { error: { code: string } }).error.code, 'not_found');
    assert.equal((await fetch(`${service.baseUrl}/metrics`)).status, 401);
    const metrics = await fetch(`${service.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assert.equal(metrics.status, 200);
    const text = await metrics.text();
    for (const series of [
      'service_info{role="worker"}',
      'tasks_open{role="worker",task="build-cv",state="ready"}',
      'tasks_oldest_ready_age_seconds{role="worker"}',
      'tasks_dead{role="worker",task="build-cv"}',
      'webhook_deliveries_pending{role="worker",state="ready"}',
      'webhook_delivery_attempts_total{role="worker",outcome="failed"}',
      'background_loop_running{role="worker",loop="tasks"}',
      'background_loop_running{role="worker",loop="webhooks"}',
      'pdf_pool_queue_length{role="worker"}',
      'pdf_pool_children_stopped_total{role="worker",cause="killed"}',
      'process_resident_memory_bytes{role="worker"}',
    ])
      assert.notEqual(sample(text, series), undefined, `${series} missing`);
    assert.equal(sample(text, 'background_loop_running{role="worker",loop="tasks"}'), 1);

    // SIGTERM: the loop stops and the process exits 0.
    service.kill('SIGTERM');
    const { code } = await service.exited;
    assert.equal(code, 0, service.lines.slice(-10).join('\n'));
    service = null;
  });
});
