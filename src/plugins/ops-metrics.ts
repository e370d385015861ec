import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type * as PromClient from 'prom-client';
import type { Role } from '../config.ts';
import type { Backlog, OpsStatsService, SweepRecord } from '../domain/ops/ops-stats-service.ts';
import type { BackgroundProbe } from '../http/context.ts';
import type { CvCheckerStats } from '../pdf/cv-check.ts';

/** What the operational metrics read, each at scrape time. */
export interface OpsMetricsSources {
  role: Role;
  /** The task names the worker knows: their series exist (at 0) before any task ran. */
  taskNames: readonly string[];
  opsStats: Pick<OpsStatsService, 'backlog' | 'sweeps'>;
  background?: BackgroundProbe | undefined;
  pdfChecker?: (() => CvCheckerStats) | undefined;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

const BUCKETS = ['ready', 'delayed', 'running'] as const;
const TASK_OUTCOMES = ['completed', 'failed', 'dead', 'deferred'] as const;
const DELIVERY_OUTCOMES = ['delivered', 'retry', 'failed'] as const;
const CHILD_STATES = ['starting', 'idle', 'busy', 'stopping'] as const;

type Collect<T> = (this: T) => void | Promise<void>;

/**
 * The queue, webhook, PDF-pool and sweep metrics (issue 29, item 4), every series labelled with
 * this process's `role`. Read when /metrics is scraped, never on a timer: the database backlog
 * (only in processes that run the worker: `worker` and `all`) with three grouped reads of the open
 * rows (partial indexes), the rest from in-process counters. A backlog read that fails leaves its
 * series out of that scrape (and counts `ops_metrics_failures_total`): /metrics still answers.
 */
export function registerOpsMetrics(registry: PromClient.Registry, sources: OpsMetricsSources): void {
  const { Counter, Gauge } = createRequire(import.meta.url)('prom-client') as typeof PromClient;
  const { role } = sources;
  const registers = [registry];
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: Collect<PromClient.Gauge<L | 'role'>>,
  ) => new Gauge({ name, help, labelNames: ['role', ...labelNames], registers, collect });
  const counter = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: Collect<PromClient.Counter<L | 'role'>>,
  ) => new Counter({ name, help, labelNames: ['role', ...labelNames], registers, collect });

  gauge('service_info', 'Always 1: the ROLE this process runs (api, worker or all)', [], function () {
    this.set({ role }, 1);
  });

  const failures = new Counter({
    name: 'ops_metrics_failures_total',
    help: 'Scrapes whose database backlog read failed (its series were left out of that scrape)',
    labelNames: ['role'],
    registers,
  });
  failures.inc({ role }, 0);
  if (role !== 'api') registerBacklog(sources, gauge, failures);
  registerBackground(sources, gauge, counter);
  registerPdfPool(sources, gauge, counter);
  registerSweeps(sources, gauge, counter);
}

type GaugeOf = <L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: Collect<PromClient.Gauge<L | 'role'>>,
) => PromClient.Gauge<L | 'role'>;
type CounterOf = <L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: Collect<PromClient.Counter<L | 'role'>>,
) => PromClient.Counter<L | 'role'>;

/** The database's open tasks and pending deliveries: the whole fleet's, read by each worker. */
function registerBacklog(sources: OpsMetricsSources, gauge: GaugeOf, failures: PromClient.Counter<'role'>) {
  const { role, taskNames } = sources;
  // The gauges of one scrape collect side by side (prom-client starts them together): they share
  // the read in flight; the next scrape reads again.
  let inFlight: Promise<Backlog | null> | null = null;
  const backlog = (): Promise<Backlog | null> => {
    inFlight ??= sources.opsStats
      .backlog()
      .catch((err: unknown) => {
        failures.inc({ role });
        sources.log.warn({ err }, 'metrics: the backlog could not be read');
        return null;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  gauge(
    'tasks_open',
    'Open tasks by name and state: ready (due, unclaimed), delayed (waiting for a retry), running',
    ['task', 'state'],
    async function () {
      this.reset();
      const read = await backlog();
      if (!read) return;
      for (const task of taskNames) for (const state of BUCKETS) this.set({ role, task, state }, 0);
      for (const t of read.tasks) this.set({ role, task: t.name, state: t.bucket }, t.count);
    },
  );
  gauge(
    'tasks_oldest_ready_age_seconds',
    'How long the longest-waiting ready task has been due (0: none waiting)',
    [],
    async function () {
      this.reset();
      const read = await backlog();
      if (!read) return;
      const ready = read.tasks.filter((t) => t.bucket === 'ready').map((t) => t.dueSeconds);
      this.set({ role }, Math.max(0, ...ready));
    },
  );
  gauge(
    'tasks_dead',
    'Dead tasks (every attempt failed) waiting for an operator, by name',
    ['task'],
    async function () {
      this.reset();
      const read = await backlog();
      if (!read) return;
      for (const task of taskNames) this.set({ role, task }, 0);
      for (const d of read.dead) this.set({ role, task: d.name }, d.count);
    },
  );
  gauge(
    'webhook_deliveries_pending',
    'Webhook deliveries not yet delivered or failed, by state: ready, delayed (retry later), running',
    ['state'],
    async function () {
      this.reset();
      const read = await backlog();
      if (!read) return;
      for (const state of BUCKETS) this.set({ role, state }, 0);
      for (const w of read.webhooks) this.set({ role, state: w.bucket }, w.count);
    },
  );
  gauge(
    'webhook_deliveries_oldest_pending_age_seconds',
    'Age of the oldest pending webhook delivery since its event (retries last up to 27.6 hours)',
    [],
    async function () {
      this.reset();
      const read = await backlog();
      if (read) this.set({ role }, Math.max(0, ...read.webhooks.map((w) => w.oldestSeconds)));
    },
  );
  gauge(
    'webhook_deliveries_oldest_ready_age_seconds',
    'How long the longest-waiting due webhook delivery has waited for a sender (0: none)',
    [],
    async function () {
      this.reset();
      const read = await backlog();
      if (!read) return;
      const ready = read.webhooks.filter((w) => w.bucket === 'ready').map((w) => w.dueSeconds);
      this.set({ role }, Math.max(0, ...ready));
    },
  );
}

/** This process's task worker and webhook deliverer: loops, attempts by outcome. */
function registerBackground(sources: OpsMetricsSources, gauge: GaugeOf, counter: CounterOf) {
  const { role, background } = sources;
  if (!background) return;
  gauge(
    'background_loop_running',
    '1 while this process runs the loop (tasks: the task worker; webhooks: the deliverer)',
    ['loop'],
    function () {
      this.reset();
      const worker = background.worker();
      const deliveries = background.deliveries();
      if (worker) this.set({ role, loop: 'tasks' }, worker.running ? 1 : 0);
      if (deliveries) this.set({ role, loop: 'webhooks' }, deliveries.running ? 1 : 0);
    },
  );
  counter(
    'task_attempts_total',
    'Task attempts this process ran, by name and outcome (dead: its last attempt failed)',
    ['task', 'outcome'],
    function () {
      this.reset();
      const worker = background.worker();
      if (!worker) return;
      for (const task of sources.taskNames)
        for (const outcome of TASK_OUTCOMES) this.inc({ role, task, outcome }, 0);
      for (const [task, counts] of Object.entries(worker.outcomes))
        for (const outcome of TASK_OUTCOMES) this.inc({ role, task, outcome }, counts[outcome]);
    },
  );
  gauge('tasks_in_hand', 'Tasks this process is running now', [], function () {
    this.reset();
    const worker = background.worker();
    if (worker) this.set({ role }, worker.inHand);
  });
  counter(
    'webhook_delivery_attempts_total',
    'Webhook delivery attempts this process made, by outcome: delivered, retry (failed, tried again later), failed (for good)',
    ['outcome'],
    function () {
      this.reset();
      const deliveries = background.deliveries();
      if (!deliveries) return;
      for (const outcome of DELIVERY_OUTCOMES) this.inc({ role, outcome }, deliveries.attempts[outcome]);
    },
  );
  gauge('webhook_deliveries_in_flight', 'Webhook deliveries this process is sending now', [], function () {
    this.reset();
    const deliveries = background.deliveries();
    if (deliveries) this.set({ role }, deliveries.inFlight);
  });
}

/** The PDF checker: the pool of parser children and the queue in front of it. */
function registerPdfPool(sources: OpsMetricsSources, gauge: GaugeOf, counter: CounterOf) {
  const { role, pdfChecker } = sources;
  if (!pdfChecker) return;
  gauge(
    'pdf_pool_children',
    'PDF parser child processes by state (alive: starting, idle or busy)',
    ['state'],
    function () {
      const { pool } = pdfChecker();
      for (const state of CHILD_STATES) this.set({ role, state }, pool.children[state]);
    },
  );
  gauge('pdf_pool_queue_length', 'Parses waiting for a free parser child', [], function () {
    this.set({ role }, pdfChecker().pool.queued);
  });
  gauge(
    'pdf_checks_waiting',
    'CV checks waiting their turn in front of the pool (refused after 20 s or past 400)',
    [],
    function () {
      this.set({ role }, pdfChecker().waiting);
    },
  );
  gauge('pdf_checks_running', 'CV checks holding a turn (pre-scan or parse)', [], function () {
    this.set({ role }, pdfChecker().running);
  });
  counter('pdf_pool_parses_total', 'Parses sent to a parser child (a retry counts again)', [], function () {
    this.reset();
    this.inc({ role }, pdfChecker().pool.parses);
  });
  counter(
    'pdf_pool_children_stopped_total',
    'Parser children stopped, by cause: recycled (retired after 200 documents or 320 MB), timeout and out_of_memory (killed over a file), killed (from outside), crash, ipc_broken, startup_failed, closed',
    ['cause'],
    function () {
      this.reset();
      const { stopped } = pdfChecker().pool;
      for (const cause of ['recycled', 'timeout', 'out_of_memory', 'killed', 'crash'])
        this.inc({ role, cause }, 0);
      for (const [cause, n] of Object.entries(stopped)) this.inc({ role, cause }, n ?? 0);
    },
  );
  counter(
    'pdf_checks_refused_total',
    'CV checks refused with 503 because the checker was busy: queue_full at admission, wait_expired after waiting',
    ['reason'],
    function () {
      this.reset();
      const stats = pdfChecker();
      this.inc({ role, reason: 'queue_full' }, stats.refused);
      this.inc({ role, reason: 'wait_expired' }, stats.expired);
    },
  );
}

/** The minute's retention sweeps this process ran. */
function registerSweeps(sources: OpsMetricsSources, gauge: GaugeOf, counter: CounterOf) {
  const { role, opsStats } = sources;
  const each = (set: (record: SweepRecord) => void) => {
    for (const record of opsStats.sweeps()) if (record.runs > 0) set(record);
  };
  gauge(
    'sweep_last_run_timestamp_seconds',
    'When each retention sweep last ran in this process (Unix time)',
    ['sweep'],
    function () {
      this.reset();
      each((r) => this.set({ role, sweep: r.name }, r.lastRunAt / 1000));
    },
  );
  gauge('sweep_last_duration_seconds', 'How long each sweep took when it last ran', ['sweep'], function () {
    this.reset();
    each((r) => this.set({ role, sweep: r.name }, r.lastDurationMs / 1000));
  });
  counter('sweep_rows_total', 'Rows (or files) each sweep removed or queued', ['sweep'], function () {
    this.reset();
    each((r) => this.inc({ role, sweep: r.name }, r.rowsTotal));
  });
  counter('sweep_failures_total', 'Sweep runs that failed', ['sweep'], function () {
    this.reset();
    each((r) => this.inc({ role, sweep: r.name }, r.failures));
  });
}
