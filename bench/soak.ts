// Soak (issue 12 item 6): mixed traffic (reads, job writes, applications with PDFs, screenings) on
// two API instances and a worker over PostgreSQL and a private Redis, with faults injected: the
// service's backends terminated every minute, Redis killed and restarted once, one API instance
// deployed (SIGTERM, then started again). Prints lost / doubled / 5xx / heap / handles / queue, and
// resident memory by process and role (from each one's /metrics, the worker's included): start,
// end and the growth trend in MB/hour by least squares, over the run and over its second half.
//
//   npm run soak                 10 minutes
//   SOAK_MINUTES=3 npm run soak  shorter
//   SOAK_SAMPLE_SECONDS=10       memory sampled every 10 s (default 30)
//   SOAK_DATABASE_URL=postgres://…  (default: the careers_faults database on 127.0.0.1)
//
// Not part of `npm test`. Needs redis-server on PATH and a PostgreSQL it may create tables in.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, type ServiceProcess, startService } from '../test/service-process.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const DURATION_MS = MINUTES * 60_000;
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 6);
const APP_NAME = 'careers-soak';
/** /metrics answers only with its token (METRICS_TOKEN). */
const SOAK_METRICS_TOKEN = 'soak-metrics-token-0123456789';
const baseDb = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/careers_faults';
const dbUrl = (() => {
  const u = new URL(baseDb);
  u.searchParams.set('application_name', APP_NAME);
  return u.toString();
})();
const PDF = fs.readFileSync(new URL('../test/fixtures/pdf/cv-2-pages.pdf', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string, extra: object = {}) =>
  console.log(
    `[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${message}`,
    Object.keys(extra).length ? extra : '',
  );
let t0 = Date.now();

// ---- the private Redis ----
let redisPort = 0;
let redis: ChildProcess | null = null;
async function startRedis(): Promise<void> {
  redis = spawn('redis-server', ['--port', String(redisPort), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if (
      spawnSync('redis-cli', ['-p', String(redisPort), 'ping'])
        .stdout?.toString()
        .includes('PONG')
    )
      return;
    await sleep(50);
  }
  throw new Error('redis-server did not start');
}
async function killRedis(): Promise<void> {
  const child = redis;
  redis = null;
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

const spawned: ServiceProcess[] = [];

// ---- the figures ----
const statuses: Record<string, number> = {};
const figures = {
  requests: 0,
  networkErrors: 0,
  unavailable503: 0,
  other5xx: 0,
  lost: 0,
  retriesToSuccess: 0,
  writes: { jobs: 0, applications: 0, screenings: 0 },
};
const other5xxSamples: string[] = [];
const refusalSamples: string[] = [];

// ---- a client with failover between the two API instances (what a load balancer does) ----
const instances: { name: string; service: ServiceProcess | null }[] = [];
let turn = 0;
async function call(
  secret: string | null,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string } | null> {
  const live = instances.filter((i) => i.service !== null);
  if (live.length === 0) return null;
  const target = live[turn++ % live.length]!.service!;
  return send(target.baseUrl, secret, method, url, body, headers);
}
async function send(
  base: string,
  secret: string | null,
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; text: string } | null> {
  figures.requests += 1;
  try {
    const res = await fetch(url.startsWith('http') ? url : `${base}${url}`, {
      method,
      headers: {
        ...(secret ? { authorization: `Bearer ${secret}` } : {}),
        ...(body === undefined || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status === 429 && refusalSamples.length < 3)
      refusalSamples.push(`${method} ${url} ${text.slice(0, 200)}`);
    if (res.status === 503) figures.unavailable503 += 1;
    else if (res.status >= 500) {
      figures.other5xx += 1;
      if (other5xxSamples.length < 5)
        other5xxSamples.push(`${method} ${url} ${res.status} ${text.slice(0, 200)}`);
    }
    return { status: res.status, text };
  } catch {
    figures.networkErrors += 1;
    return null;
  }
}

/** A keyed write retried with the same Idempotency-Key until it is answered 2xx (or gives up: lost). */
async function keyedWrite(
  secret: string,
  url: string,
  body: unknown,
  notYet: number[] = [],
): Promise<Record<string, unknown> | 'not-yet' | null> {
  const key = `soak-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const giveUpAt = Date.now() + 90_000;
  let attempts = 0;
  while (Date.now() < giveUpAt) {
    attempts += 1;
    const res = await call(secret, 'POST', url, body, { 'idempotency-key': key });
    if (res && res.status >= 200 && res.status < 300) {
      if (attempts > 1) figures.retriesToSuccess += 1;
      return JSON.parse(res.text);
    }
    if (res && notYet.includes(res.status)) return 'not-yet';
    if (res && res.status >= 400 && res.status < 500 && ![409, 429].includes(res.status)) {
      log('a write was refused', { url, status: res.status, body: res.text.slice(0, 300) });
      figures.lost += 1;
      return null;
    }
    await sleep(300);
  }
  figures.lost += 1;
  return null;
}

// ---- the scenario ----
interface Setup {
  secret: string;
  accountId: string;
  jobId: string;
  /** The managed jobs applications are spread over (a job takes 200 a day: 100 take 20,000). */
  jobIds: string[];
  templateId: string;
}

async function consoleCall(service: ServiceProcess, method: string, url: string, body?: unknown) {
  const res = await service.console(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  // biome-ignore lint/suspicious/noExplicitAny: console answers read loosely by the soak
  return res.json() as Promise<Record<string, any>>;
}

async function setUp(service: ServiceProcess): Promise<Setup> {
  const { account } = await consoleCall(service, 'POST', '/accounts', {
    name: 'Soak Co',
    companyName: 'Soak Company',
    companyAddress: `soak-${Date.now().toString(36)}`,
  });
  await consoleCall(service, 'PATCH', `/accounts/${account.id}`, {
    dpaAccepted: true,
    limits: {
      requestsPerMinute: 1_000_000,
      dailyApplications: 1_000_000,
      managedAdSlots: 100,
      includedScreeningsPerManagedAd: 1_000_000,
      monthlyOverageCapCents: 100_000_000,
    },
  });
  const { secret } = await consoleCall(service, 'POST', `/accounts/${account.id}/keys`, {
    scopes: ['applications:write', 'jobs:read', 'jobs:write', 'screening'],
    name: 'soak',
  });
  const template = await consoleCall(service, 'POST', `/accounts/${account.id}/screening-templates`, {
    name: 'Phone screen',
    priceCents: 1500,
    currency: 'AUD',
  });
  const job = await send(service.baseUrl, secret, 'POST', '/v1/jobs', jobBody('Soak role'), {});
  const jobId = JSON.parse(job!.text).job.id;
  const jobIds: string[] = [];
  for (let i = 0; i < 100; i++) {
    const id =
      i === 0
        ? jobId
        : JSON.parse(
            (await send(service.baseUrl, secret, 'POST', '/v1/jobs', jobBody(`Soak role ${i}`), {}))!.text,
          ).job.id;
    await send(service.baseUrl, secret, 'POST', `/v1/jobs/${id}/publish`, {}, {});
    await consoleCall(service, 'POST', `/accounts/${account.id}/jobs/${id}/manage`);
    jobIds.push(id);
  }
  return { secret, accountId: account.id, jobId, jobIds, templateId: (template.template ?? template).id };
}

function jobBody(title: string) {
  return { title, category: 'engineering', description: '<p>Soak.</p>' };
}

const made = {
  jobTitles: new Map<string, string>(),
  applicationEmails: new Map<string, string>(),
  screenings: 0,
};

let applied = 0;
async function apply(setup: Setup): Promise<{ id: string; jobId: string } | null> {
  const jobId = setup.jobIds[Math.floor(applied++ / 190) % setup.jobIds.length]!;
  const slot = await keyedWrite(setup.secret, '/v1/uploads', { bytes: PDF.length });
  if (!slot || slot === 'not-yet') return null;
  const uploadUrl = String(slot.uploadUrl);
  // The PUT goes to the instance that signed the URL; if that one is being deployed, the other
  // instance has the same DATA_DIR and signing key: a client would retry the same URL.
  for (let attempt = 0; attempt < 100; attempt++) {
    const live = instances.filter((i) => i.service !== null);
    const base = live[attempt % Math.max(1, live.length)]?.service?.baseUrl;
    const url = new URL(uploadUrl);
    const res = base
      ? await send(base, null, 'PUT', `${url.pathname}${url.search}`, PDF, {
          'content-type': 'application/pdf',
        })
      : null;
    if (res && (res.status === 200 || res.status === 409)) break;
    await sleep(300);
  }
  const email = `soak-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await keyedWrite(setup.secret, `/v1/jobs/${jobId}/applications`, {
    name: 'Soak Candidate',
    email,
    cv: { uploadId: slot.uploadId },
    consent: {
      consentTextId: 'console_api_apply',
      version: 'api_apply_v1',
      locale: 'en',
      acceptedAt: new Date().toISOString(),
      ip: '203.0.113.7',
      userAgent: 'Soak/1.0',
    },
    lawfulBasis: { attested: true },
  });
  if (!created || created === 'not-yet') return null;
  figures.writes.applications += 1;
  made.applicationEmails.set(email, String(created.candidateId));
  return { id: String(created.candidateId), jobId };
}

async function traffic(setup: Setup, until: number): Promise<void> {
  const candidates: { id: string; jobId: string; at: number }[] = [];
  while (Date.now() < until) {
    const dice = Math.random();
    if (dice < 0.5) {
      await call(setup.secret, 'GET', '/v1/jobs?limit=10');
    } else if (dice < 0.75) {
      const title = `Soak ${Date.now().toString(36)} ${Math.random().toString(36).slice(2, 8)}`;
      const created = await keyedWrite(setup.secret, '/v1/jobs', jobBody(title));
      if (created && created !== 'not-yet') {
        figures.writes.jobs += 1;
        made.jobTitles.set(title, String((created.job as { id: string }).id));
      }
    } else if (dice < 0.93 || candidates.length === 0 || candidates[0]!.at > Date.now() - 10_000) {
      const candidate = await apply(setup);
      if (candidate) candidates.push({ ...candidate, at: Date.now() });
    } else {
      // A candidate can be screened once the worker has built its CV: 404 until then.
      const candidate = candidates.shift()!;
      const created = await keyedWrite(
        setup.secret,
        `/v1/jobs/${candidate.jobId}/candidates/${candidate.id}/screening`,
        { templateId: setup.templateId },
        [404],
      );
      if (created === 'not-yet') candidates.push({ ...candidate, at: Date.now() });
      else if (created) {
        figures.writes.screenings += 1;
        made.screenings += 1;
      }
    }
  }
}

// ---- resources ----
/** Seconds between two samples of every process's /metrics (heap, handles, resident memory). */
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
interface Sample {
  /** Seconds since the traffic started. */
  t: number;
  role: string;
  /** The process's start (process_start_time_seconds): a restarted instance is a new series. */
  startedAt: number;
  heapMb: number;
  handles: number;
  rssMb: number;
}
const samples: Record<string, Sample[]> = {};
/** Every process with its /metrics: the two API instances and, since issue 29, the worker. */
const sampled: { name: string; service: () => ServiceProcess | null }[] = [];

/** A sample's value: `name` with or without labels (the process metrics carry `role`). */
function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? Number.NaN);
}

async function sample(): Promise<void> {
  for (const { name, service: current } of sampled) {
    const service = current();
    if (!service) continue;
    try {
      const text = await (
        await fetch(`${service.baseUrl}/metrics`, {
          headers: { authorization: `Bearer ${SOAK_METRICS_TOKEN}` },
          signal: AbortSignal.timeout(5000),
        })
      ).text();
      const role = /^service_info\{role="([a-z]+)"\}/m.exec(text)?.[1] ?? 'unknown';
      samples[name] ??= [];
      samples[name].push({
        t: Math.round((Date.now() - t0) / 1000),
        role,
        startedAt: metricValue(text, 'process_start_time_seconds'),
        heapMb: Math.round(metricValue(text, 'nodejs_heap_size_used_bytes') / 1e6),
        handles: metricValue(text, 'nodejs_active_handles_total'),
        rssMb: Math.round(metricValue(text, 'process_resident_memory_bytes') / 1e5) / 10,
      });
    } catch {}
  }
}

/** The least-squares slope of `y` over `x` (seconds), in units per hour; null under 3 points. */
function slopePerHour(points: { x: number; y: number }[]): number | null {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  return Math.round((sxy / sxx) * 3600 * 10) / 10;
}

/**
 * Resident memory by process and role: start, end, min, max, and the growth trend (MB/hour, least
 * squares) over the whole run and over its second half (after the warm-up). A restarted instance
 * (the deploy) is reported as a series of its own.
 */
function memoryReport() {
  const report: Record<string, unknown>[] = [];
  for (const [name, list] of Object.entries(samples)) {
    const generations = new Map<number, Sample[]>();
    for (const s of list) {
      if (!Number.isFinite(s.rssMb)) continue;
      const series = generations.get(s.startedAt) ?? [];
      series.push(s);
      generations.set(s.startedAt, series);
    }
    let generation = 0;
    for (const series of generations.values()) {
      generation += 1;
      const rss = series.map((s) => s.rssMb);
      const first = series[0]!;
      const last = series[series.length - 1]!;
      const half = first.t + (last.t - first.t) / 2;
      report.push({
        process: generations.size > 1 ? `${name} (${generation})` : name,
        role: first.role,
        samples: series.length,
        fromS: first.t,
        toS: last.t,
        startMb: first.rssMb,
        endMb: last.rssMb,
        minMb: Math.min(...rss),
        maxMb: Math.max(...rss),
        slopeMbPerHour: slopePerHour(series.map((s) => ({ x: s.t, y: s.rssMb }))),
        secondHalfSlopeMbPerHour: slopePerHour(
          series.filter((s) => s.t >= half).map((s) => ({ x: s.t, y: s.rssMb })),
        ),
        heapMb: { start: first.heapMb, end: last.heapMb },
        // Every sample's resident MB, in order, for a look at the curve.
        rssMb: rss,
        handles: { start: first.handles, end: last.handles },
      });
    }
  }
  return report;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseDb });
  await admin.connect();
  redisPort = await freePort();
  await startRedis();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-soak-'));
  const env = {
    DATABASE_URL: dbUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '10000',
    METRICS_TOKEN: SOAK_METRICS_TOKEN,
  };
  log('starting two API instances and a worker');
  const [a, b, worker] = await Promise.all([
    startService({ ...env, ROLE: 'api' }),
    startService({ ...env, ROLE: 'api' }),
    startService({ ...env, ROLE: 'worker' }),
  ]);
  spawned.push(a, b, worker);
  instances.push({ name: 'api-a', service: a }, { name: 'api-b', service: b });
  sampled.push(
    { name: 'api-a', service: () => instances[0]!.service },
    { name: 'api-b', service: () => instances[1]!.service },
    { name: 'worker', service: () => worker },
  );
  const setup = await setUp(a);
  t0 = Date.now();
  const until = t0 + DURATION_MS;
  await sample();
  log(`traffic for ${MINUTES} min, ${CONCURRENCY} clients`);

  const faults = (async () => {
    const at = (fraction: number) => t0 + DURATION_MS * fraction;
    const events: { at: number; name: string; run: () => Promise<void> }[] = [];
    for (let m = 1; m * 60_000 < DURATION_MS; m++) {
      events.push({
        at: t0 + m * 60_000 - 30_000,
        name: 'terminate backends',
        run: async () => {
          const { rows } = await admin.query(
            `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
              WHERE application_name = $1 AND datname = current_database()`,
            [APP_NAME],
          );
          log('terminated the service backends', { backends: rows[0].n });
        },
      });
    }
    events.push({
      at: at(0.4),
      name: 'redis restart',
      run: async () => {
        await killRedis();
        log('Redis killed');
        await sleep(5_000);
        await startRedis();
        log('Redis started again');
      },
    });
    events.push({
      at: at(0.6),
      name: 'deploy api-b',
      run: async () => {
        const old = instances[1]!.service!;
        instances[1]!.service = null;
        const signalled = Date.now();
        old.kill('SIGTERM');
        const exit = await old.exited;
        deploy.exitCode = exit.code;
        deploy.stopMs = exit.atMs - signalled;
        log('api-b stopped', { code: exit.code, tookMs: deploy.stopMs });
        instances[1]!.service = await startService({ ...env, ROLE: 'api' });
        log('api-b started again');
      },
    });
    events.sort((x, y) => x.at - y.at);
    for (const event of events) {
      if (event.at > until) continue;
      await sleep(Math.max(0, event.at - Date.now()));
      await event.run();
    }
  })();
  const deploy: { exitCode: number | null; stopMs: number } = { exitCode: null, stopMs: 0 };
  const sampler = setInterval(() => void sample(), SAMPLE_SECONDS * 1000);
  await Promise.all([...Array.from({ length: CONCURRENCY }, () => traffic(setup, until)), faults]);
  clearInterval(sampler);
  await sample();
  log('traffic stopped; waiting for the task queue to drain');

  const drainStart = Date.now();
  let open = -1;
  while (Date.now() - drainStart < 300_000) {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM tasks t WHERE state IN ('queued', 'running')
         AND created_at >= to_timestamp($1 / 1000.0)`,
      [t0 - 120_000],
    );
    open = rows[0].n;
    if (open === 0) break;
    await sleep(1_000);
  }
  const { rows: dead } = await admin.query(
    `SELECT count(*)::int AS n FROM tasks WHERE state = 'dead' AND created_at >= to_timestamp($1 / 1000.0)`,
    [t0 - 120_000],
  );

  // Lost or doubled, read from the database.
  const { rows: jobRows } = await admin.query(
    `SELECT content->>'title' AS title, count(*)::int AS n FROM jobs WHERE account_id = $1 GROUP BY 1`,
    [setup.accountId],
  );
  const byTitle = new Map(jobRows.map((r) => [r.title as string, r.n as number]));
  let lostJobs = 0;
  for (const title of made.jobTitles.keys()) if (!byTitle.has(title)) lostJobs += 1;
  const doubledJobs = jobRows.filter((r) => r.n > 1).length;
  const { rows: appRows } = await admin.query(
    'SELECT email, count(*)::int AS n FROM applications WHERE job_id = ANY($1) GROUP BY 1',
    [setup.jobIds],
  );
  const byEmail = new Map(appRows.map((r) => [r.email as string, r.n as number]));
  let lostApplications = 0;
  for (const email of made.applicationEmails.keys()) if (!byEmail.has(email)) lostApplications += 1;
  const doubledApplications = appRows.filter((r) => r.n > 1).length;
  const { rows: scrRows } = await admin.query(
    'SELECT candidate_id, count(*)::int AS n FROM screenings WHERE job_id = ANY($1) GROUP BY 1',
    [setup.jobIds],
  );
  const doubledScreenings = scrRows.filter((r) => r.n > 1).length;

  const summary = {
    minutes: MINUTES,
    requests: figures.requests,
    statuses,
    writes: figures.writes,
    writesRetriedToSuccess: figures.retriesToSuccess,
    lost: figures.lost + lostJobs + lostApplications,
    doubled: doubledJobs + doubledApplications + doubledScreenings,
    screeningsInDb: scrRows.length,
    documented503: figures.unavailable503,
    other5xx: figures.other5xx,
    other5xxSamples,
    refusalSamples,
    networkErrors: figures.networkErrors,
    deploy,
    memory: memoryReport(),
    queue: { drained: open === 0, open, dead: dead[0].n, drainMs: Date.now() - drainStart },
  };
  console.log(JSON.stringify(summary, null, 2));

  for (const instance of instances) instance.service?.kill('SIGTERM');
  worker.kill('SIGTERM');
  await Promise.all([...instances.map((i) => i.service?.exited), worker.exited]);
  await killRedis();
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ok = summary.lost === 0 && summary.doubled === 0 && summary.other5xx === 0 && summary.queue.drained;
  console.log(ok ? 'SOAK PASSED' : 'SOAK FAILED');
  process.exit(ok ? 0 : 1);
}

const children = () => [redis, ...instances.map((i) => i.service?.child)].filter(Boolean) as ChildProcess[];
await main().catch((error: unknown) => {
  console.error(error);
  for (const child of children()) child.kill('SIGKILL');
  for (const service of spawned) service.kill('SIGKILL');
  process.exit(1);
});
