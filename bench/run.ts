/**
 * `npm run bench`: the service against a fair baseline, on the embedded default (PGlite, counters in
 * process) and on PostgreSQL + Redis (a database of its own, created and dropped here).
 *
 * Three kinds of process, never sharing an event loop: the service (`node src/main.ts`, as
 * `npm start` runs it, ROLE=api), the baseline (bench/baseline-server.ts: bare Fastify, the same
 * driver, exactly the SQL the service must run, no code of the service), and the load generator
 * (bench/load.ts, autocannon). Rounds alternate baseline and service; each figure is the median of
 * the rounds, and each ratio is taken between figures of the same run. It also measures cold start
 * (first answer after start, empty and existing DATA_DIR), resident memory at idle and under load,
 * and, on PostgreSQL, the database round trips a 429 costs.
 *
 *   npm run bench                          everything (about 12 minutes)
 *   npm run bench -- --quick               2 rounds of 3 s (about 5 minutes)
 *   npm run bench -- --only=embedded       or --only=postgres; --scenarios=consent,list
 *   npm run bench -- --cold-start          only the embedded first answer after start and idle RSS
 *   BENCH_DATABASE_URL=postgres://…/postgres BENCH_REDIS_URL=redis://… (defaults: the local servers)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { countStatements } from './count.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = process.execPath;
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const QUICK = process.argv.includes('--quick');
const COLD_ONLY = process.argv.includes('--cold-start');
const ROUNDS = Number(arg('rounds') ?? (QUICK ? 2 : 3));
const SECONDS = Number(arg('seconds') ?? (QUICK ? 3 : 5));
const CONNECTIONS = 16;
const ONLY = arg('only');
const SCENARIOS = arg('scenarios')?.split(',') ?? ['consent', 'list', 'read', 'create', 'limited', 'intake'];
const CONSOLE_TOKEN = 'bench-console-token-0123456789abcdef';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PDF = path.join(ROOT, 'test/fixtures/pdf/cv-2-pages.pdf');

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return process.env.BENCH_PIN !== '0';
  } catch {
    return false;
  }
})();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Servers on core 0, the load generator on core 1 (when taskset exists), as the research note advises. */
function spawnNode(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cpu: number,
  ipc = false,
  nodeArgs: string[] = [],
): ChildProcess {
  const command = hasTaskset ? 'taskset' : NODE;
  const argv = hasTaskset
    ? ['-c', String(cpu), NODE, ...nodeArgs, script, ...args]
    : [...nodeArgs, script, ...args];
  return spawn(command, argv, {
    cwd: ROOT,
    env,
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  const start = performance.now();
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  while (performance.now() - start < timeoutMs) {
    if (child.exitCode !== null)
      throw new Error(`process exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.status < 500) {
        await res.arrayBuffer();
        return performance.now() - start;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** CPU time (user + system, ms) a process has used so far: a start-up figure less at the mercy of a loaded machine than wall time. */
function cpuTime(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * The round under load, with the CPU time the server (and its PDF children) spent on it: on a
 * machine shared with other work, CPU per request is the figure the other work moves least.
 */
async function measured(pid: number, spec: object): Promise<LoadOutcome> {
  const children = () => rss(pid).pids.reduce((sum, child) => sum + cpuTime(child), 0);
  const [self, kids] = [cpuTime(pid), children()];
  const outcome = await load(spec);
  const [selfSpent, kidsSpent] = [cpuTime(pid) - self, children() - kids];
  const per = (ms: number) => (outcome.count > 0 ? ms / outcome.count : Number.NaN);
  return { ...outcome, cpuPerRequest: per(selfSpent + kidsSpent), childCpuPerRequest: per(kidsSpent) };
}

/** Resident memory (MB) of a process and, separately, of its child processes. */
function rss(pid: number): { self: number; children: number[]; pids: number[] } {
  const kb = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  const descendants: number[] = [];
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  // taskset execs node in place, so the pid is node's; prlimit wrappers also exec in place.
  for (const [child, parent] of parents) if (parent === pid) descendants.push(child);
  return { self: kb(pid), children: descendants.map(kb), pids: descendants };
}

interface LoadOutcome {
  rps: number;
  count: number;
  /** CPU (ms) the server and its child processes spent per answered request in this round. */
  cpuPerRequest?: number;
  /** The part of it spent in the child processes (the PDF parsers). */
  childCpuPerRequest?: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
}

function load(spec: object): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawnNode(path.join(ROOT, 'bench/load.ts'), [JSON.stringify(spec)], process.env, 1);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator failed: ${err.slice(-2000)}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as LoadOutcome);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const report: string[] = [];
function line(mode: string, figure: string, value: string, target: string, met: boolean | null): void {
  const verdict = met === null ? '' : met ? 'target met' : 'target MISSED';
  const text = `[${mode.padEnd(8)}] ${figure.padEnd(44)} ${value.padEnd(34)} ${target.padEnd(14)} ${verdict}`;
  report.push(text);
  console.log(text);
}

async function api(base: string, method: string, url: string, auth: string, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: {
      authorization: `Bearer ${auth}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

interface Seed {
  secret: string;
  limitedSecret: string;
  jobId: string;
}

/** Through the service's own API: an account with 60 published jobs, a key with a huge limit, and a key limited to 1/min. */
async function seed(base: string): Promise<Seed> {
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const account = (
    await api(base, 'POST', '/console/v1/accounts', CONSOLE_TOKEN, {
      name: 'Bench',
      companyName: 'Bench Company',
      companyAddress: `bench-${suffix}`,
    })
  ).account;
  await api(base, 'PATCH', `/console/v1/accounts/${account.id}`, CONSOLE_TOKEN, {
    dpaAccepted: true,
    limits: {
      requestsPerMinute: 1_000_000_000,
      dailyApplications: 1_000_000_000,
      jobDailyApplications: 1_000_000_000,
    },
  });
  const scopes = ['jobs:read', 'jobs:write', 'applications:write'];
  const { secret } = await api(base, 'POST', `/console/v1/accounts/${account.id}/keys`, CONSOLE_TOKEN, {
    scopes,
  });
  let jobId = '';
  for (let i = 0; i < 60; i++) {
    const { job } = await api(base, 'POST', '/v1/jobs', secret, {
      title: `Role ${i}`,
      description: `<p>Work on things number ${i}.</p>`,
      category: 'engineering',
      responsibilities: ['Build', 'Ship'],
      skills: [{ name: 'TypeScript', level: 'required' }],
    });
    await api(base, 'POST', `/v1/jobs/${job.id}/publish`, secret);
    jobId = job.id;
  }
  const limited = (
    await api(base, 'POST', '/console/v1/accounts', CONSOLE_TOKEN, {
      name: 'Limited',
      companyAddress: `limited-${suffix}`,
    })
  ).account;
  await api(base, 'PATCH', `/console/v1/accounts/${limited.id}`, CONSOLE_TOKEN, {
    dpaAccepted: true,
    limits: { requestsPerMinute: 1 },
  });
  const limitedSecret = (
    await api(base, 'POST', `/console/v1/accounts/${limited.id}/keys`, CONSOLE_TOKEN, {
      scopes: ['applications:write'],
    })
  ).secret;
  return { secret, limitedSecret, jobId };
}

interface Servers {
  service: ChildProcess;
  servicePort: number;
  baseline: ChildProcess;
  baselinePort: number;
}

/** The service's environment: as an operator would start it, ROLE=api, nothing inherited but PATH and HOME. */
function serviceEnvironment(port: number, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    CONSOLE_TOKEN,
    ROLE: 'api',
    ...extra,
  };
}

/**
 * What a server writes is dropped, or appended to `file`: BENCH_SERVICE_STDOUT and
 * BENCH_BASELINE_STDOUT (with --trace-gc-nvp in the NODE_ARGS, V8's GC lines go there).
 */
function keepStdout(child: ChildProcess, file: string | undefined): void {
  if (file) child.stdout?.pipe(fs.createWriteStream(file, { flags: 'a' }));
  else child.stdout?.resume();
}

/** `node src/main.ts` as `npm start` runs it; resolves at its first answer of /healthz (wall and CPU ms). */
async function startServiceProcess(env: NodeJS.ProcessEnv) {
  // BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service under the load.
  const nodeArgs = process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnNode(path.join(ROOT, 'src/main.ts'), [], env, 0, false, nodeArgs);
  keepStdout(child, process.env.BENCH_SERVICE_STDOUT);
  const ms = await waitForHttp(`http://127.0.0.1:${env.PORT}/healthz`, child);
  return { child, ms, cpuMs: cpuTime(child.pid!) };
}

/**
 * `--cold-start`: only the first answer after start, on an empty DATA_DIR and again on the one just
 * made, and the idle RSS 2 s later, ROUNDS times (5 by default), with nothing else running; the
 * medians are judged, every sample is printed (a loaded machine makes single starts jump).
 */
async function coldStartOnly(): Promise<void> {
  const samples = { empty: [] as number[], emptyCpu: [] as number[], existing: [] as number[] };
  const existingCpu: number[] = [];
  const rssSelf: number[] = [];
  const rssChildren: string[] = [];
  for (let round = 0; round < Number(arg('rounds') ?? 5); round++) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cold-'));
    const env = serviceEnvironment(await freePort(), path.join(work, 'data'));
    try {
      const empty = await startServiceProcess(env);
      await stop(empty.child);
      const existing = await startServiceProcess(env);
      await new Promise((r) => setTimeout(r, 2000));
      const idle = rss(existing.child.pid!);
      await stop(existing.child);
      samples.empty.push(empty.ms);
      samples.emptyCpu.push(empty.cpuMs);
      samples.existing.push(existing.ms);
      existingCpu.push(existing.cpuMs);
      rssSelf.push(idle.self);
      rssChildren.push(idle.children.map((c) => c.toFixed(0)).join('+') || 'none');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  const emptyMs = median(samples.empty);
  const existingMs = median(samples.existing);
  const idle = median(rssSelf);
  line(
    'embedded',
    'cold start: first answer, empty DATA_DIR',
    `${emptyMs.toFixed(0)} ms (CPU ${median(samples.emptyCpu).toFixed(0)} ms)`,
    '≤ 2000 ms',
    emptyMs <= 2000,
  );
  line(
    'embedded',
    'cold start: first answer, existing DATA_DIR',
    `${existingMs.toFixed(0)} ms (CPU ${median(existingCpu).toFixed(0)} ms)`,
    '≤ 1000 ms',
    existingMs <= 1000,
  );
  line('embedded', 'RSS idle: service', `${idle.toFixed(0)} MB`, '≤ 212 MB', idle <= 212);
  console.log(`  empty DATA_DIR, wall ms: ${list(samples.empty)}; CPU ms: ${list(samples.emptyCpu)}`);
  console.log(`  existing DATA_DIR, wall ms: ${list(samples.existing)}; CPU ms: ${list(existingCpu)}`);
  console.log(`  RSS idle MB: ${list(rssSelf)}; PDF children MB: ${rssChildren.join(', ')}`);
}

async function runMode(mode: 'embedded' | 'postgres'): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${mode}-`));
  const dataDir = path.join(work, 'data');
  let databaseUrl: string | null = null;
  let admin: pg.Client | null = null;
  const dbName = `careers_bench_${process.pid}`;
  if (mode === 'postgres') {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const servicePort = await freePort();
  const base = `http://127.0.0.1:${servicePort}`;
  const serviceEnv = serviceEnvironment(
    servicePort,
    dataDir,
    databaseUrl ? { DATABASE_URL: databaseUrl, REDIS_URL } : {},
  );
  const startService = async (override: NodeJS.ProcessEnv = {}) => {
    // The counting phase starts a second instance beside nothing else, on a port of its own.
    const port = Object.keys(override).length > 0 ? await freePort() : servicePort;
    return { ...(await startServiceProcess({ ...serviceEnv, ...override, PORT: String(port) })), port };
  };

  const cold = await startService();
  const seeded = await seed(base);
  await stop(cold.child);
  const warm = await startService();
  const coldTarget = mode === 'embedded';
  line(
    mode,
    'cold start: first answer, empty DATA_DIR',
    `${cold.ms.toFixed(0)} ms (CPU ${cold.cpuMs.toFixed(0)} ms)`,
    '≤ 2000 ms',
    coldTarget ? cold.ms <= 2000 : null,
  );
  line(
    mode,
    'cold start: first answer, existing DATA_DIR',
    `${warm.ms.toFixed(0)} ms (CPU ${warm.cpuMs.toFixed(0)} ms)`,
    '≤ 1000 ms',
    coldTarget ? warm.ms <= 1000 : null,
  );
  await new Promise((r) => setTimeout(r, 2000));
  const idle = rss(warm.child.pid!);
  line(
    mode,
    'RSS idle: service',
    `${idle.self.toFixed(0)} MB`,
    '≤ 212 MB',
    mode === 'embedded' ? idle.self <= 212 : null,
  );
  line(
    mode,
    'RSS idle: PDF children',
    idle.children.map((c) => `${c.toFixed(0)} MB`).join(' + ') || 'none',
    'report',
    null,
  );

  // The baseline reads the same data: the same server database, or a copy of the PGlite directory.
  let baselineDb = databaseUrl ?? '';
  if (mode === 'embedded') {
    baselineDb = path.join(work, 'baseline-pgdata');
    fs.cpSync(path.join(dataDir, 'pgdata'), baselineDb, { recursive: true });
  }
  const consentFile = path.join(work, 'consent.json');
  fs.writeFileSync(
    consentFile,
    await (
      await fetch(`${base}/v1/consent-text`, { headers: { authorization: `Bearer ${seeded.secret}` } })
    ).text(),
  );
  const startBaseline = async (db: string, redis: string) => {
    const port = await freePort();
    const child = spawnNode(
      path.join(ROOT, 'bench/baseline-server.ts'),
      [],
      {
        ...process.env,
        BASELINE_PORT: String(port),
        BASELINE_DATABASE: db,
        BASELINE_REDIS: redis,
        BASELINE_BASE_URL: base,
        BASELINE_CONSENT_FILE: consentFile,
        BASELINE_BLOB_DIR: fs.mkdtempSync(path.join(work, 'blobs-')),
      },
      0,
      false,
      process.env.BENCH_BASELINE_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    );
    keepStdout(child, process.env.BENCH_BASELINE_STDOUT);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, child);
    return { child, port };
  };
  const first = await startBaseline(baselineDb, databaseUrl ? REDIS_URL : '');
  const baseline = first.child;
  const baselinePort = first.port;
  const servers: Servers = { service: warm.child, servicePort, baseline, baselinePort };

  const auth = `Bearer ${seeded.secret}`;
  // Same bytes: the read scenarios must answer identically from both.
  for (const url of ['/v1/consent-text', '/v1/jobs?limit=50', `/v1/jobs/${seeded.jobId}`]) {
    const [a = '', b = ''] = await Promise.all(
      [servicePort, baselinePort].map(async (port) =>
        (await fetch(`http://127.0.0.1:${port}${url}`, { headers: { authorization: auth } })).text(),
      ),
    );
    if (a !== b) {
      line(mode, `same bytes ${url}`, 'DIFFERENT', 'identical', false);
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      console.log(
        `  from character ${at}:\n  service:  ${a.slice(at, at + 200)}\n  baseline: ${b.slice(at, at + 200)}`,
      );
    }
  }

  const jobBody = JSON.stringify({
    title: 'Bench role',
    description: '<p>Bench.</p>',
    category: 'engineering',
  });
  const httpSpec = (
    port: number,
    method: 'GET' | 'POST',
    url: string,
    secret: string,
    extra: object = {},
  ) => ({
    kind: 'http',
    url: `http://127.0.0.1:${port}${url}`,
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    connections: CONNECTIONS,
    seconds: SECONDS,
    ...extra,
  });
  const scenarios: Record<string, { label: string; expect: string; spec: (port: number) => object }> = {
    consent: {
      label: 'GET /v1/consent-text',
      expect: '200',
      spec: (p) => httpSpec(p, 'GET', '/v1/consent-text', seeded.secret),
    },
    list: {
      label: 'GET /v1/jobs?limit=50',
      expect: '200',
      spec: (p) => httpSpec(p, 'GET', '/v1/jobs?limit=50', seeded.secret),
    },
    read: {
      label: 'GET /v1/jobs/{jobId}',
      expect: '200',
      spec: (p) => httpSpec(p, 'GET', `/v1/jobs/${seeded.jobId}`, seeded.secret),
    },
    create: {
      label: 'POST /v1/jobs with Idempotency-Key',
      expect: '201',
      spec: (p) => httpSpec(p, 'POST', '/v1/jobs', seeded.secret, { body: jobBody, uniqueKey: true }),
    },
    limited: {
      label: 'a key over its limit (429)',
      expect: '429',
      spec: (p) => httpSpec(p, 'GET', '/v1/consent-text', seeded.limitedSecret),
    },
    intake: {
      label: 'application with a 2-page PDF (slot+PUT+POST)',
      expect: '201',
      spec: (p) => ({
        kind: 'intake',
        base: `http://127.0.0.1:${p}`,
        auth,
        jobId: seeded.jobId,
        pdf: PDF,
        connections: 4,
        seconds: Math.max(SECONDS, 5),
      }),
    },
  };
  // Exhaust the limited key before measuring it.
  for (let i = 0; i < 3; i++)
    await fetch(`${base}/v1/consent-text`, { headers: { authorization: `Bearer ${seeded.limitedSecret}` } });

  const results: Record<string, { service: LoadOutcome[]; baseline: LoadOutcome[] }> = {};
  let peak = { self: 0, children: [] as number[] };
  const acceptedBeside: LoadOutcome[] = [];
  for (const name of SCENARIOS) {
    const scenario = scenarios[name];
    if (!scenario) continue;
    // Warm-up, both sides, not counted.
    await load({ ...scenario.spec(servers.baselinePort), seconds: 1 });
    await load({ ...scenario.spec(servers.servicePort), seconds: 1 });
    const runs = { service: [] as LoadOutcome[], baseline: [] as LoadOutcome[] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.baseline.push(await measured(servers.baseline.pid!, scenario.spec(servers.baselinePort)));
      const sampler = setInterval(() => {
        const now = rss(servers.service.pid!);
        if (now.self > peak.self) peak = now;
      }, 500);
      runs.service.push(await measured(servers.service.pid!, scenario.spec(servers.servicePort)));
      clearInterval(sampler);
      // The 429 ratio compares refusals with accepted requests measured right beside them.
      if (name === 'limited')
        acceptedBeside.push(
          await measured(servers.service.pid!, scenarios.consent!.spec(servers.servicePort)),
        );
    }
    results[name] = runs;
    for (const [side, outcomes] of Object.entries(runs)) {
      for (const o of outcomes) {
        const unexpected = Object.entries(o.statuses).filter(
          ([code]) => code !== scenario.expect && !(name === 'limited' && code === '200'),
        );
        if (unexpected.length > 0 || o.errors > 0) {
          line(
            mode,
            `${scenario.label}: ${side} unexpected answers`,
            JSON.stringify(o.statuses),
            `only ${scenario.expect}`,
            false,
          );
          break;
        }
      }
    }
    const svc = median(runs.service.map((o) => o.rps));
    const bl = median(runs.baseline.map((o) => o.rps));
    const p99s = median(runs.service.map((o) => o.p99));
    const p99b = median(runs.baseline.map((o) => o.p99));
    const cpuS = median(runs.service.map((o) => o.cpuPerRequest ?? Number.NaN));
    const cpuB = median(runs.baseline.map((o) => o.cpuPerRequest ?? Number.NaN));
    if (name === 'limited') {
      line(
        mode,
        `${scenario.label}: 429/s, service vs baseline`,
        `${svc.toFixed(0)} vs ${bl.toFixed(0)} /s = ${(svc / bl).toFixed(2)}`,
        'report',
        null,
      );
      line(
        mode,
        `${scenario.label}: CPU per 429`,
        `${cpuS.toFixed(3)} vs ${cpuB.toFixed(3)} ms`,
        'report',
        null,
      );
      continue;
    }
    // Throughput equivalent: what the throughput ratio would be if CPU were the only limit.
    line(
      mode,
      `${scenario.label}: CPU per request`,
      `${cpuS.toFixed(3)} vs ${cpuB.toFixed(3)} ms = ${(cpuB / cpuS).toFixed(2)} as throughput`,
      'report',
      null,
    );
    if (name === 'intake') {
      const kidS = median(runs.service.map((o) => o.childCpuPerRequest ?? Number.NaN));
      const kidB = median(runs.baseline.map((o) => o.childCpuPerRequest ?? Number.NaN));
      line(
        mode,
        `${scenario.label}: of which PDF children`,
        `${kidS.toFixed(1)} vs ${kidB.toFixed(1)} ms`,
        'report',
        null,
      );
    }
    line(
      mode,
      `${scenario.label}: throughput`,
      `${svc.toFixed(0)} vs ${bl.toFixed(0)} /s = ${(svc / bl).toFixed(2)}`,
      '≥ 0.80',
      svc / bl >= 0.8,
    );
    line(
      mode,
      `${scenario.label}: p99`,
      `${p99s.toFixed(1)} vs ${p99b.toFixed(1)} ms = ${(p99s / p99b).toFixed(2)}`,
      '≤ 1.50',
      p99s / p99b <= 1.5,
    );
    line(
      mode,
      `${scenario.label}: p50`,
      `${median(runs.service.map((o) => o.p50)).toFixed(1)} vs ${median(runs.baseline.map((o) => o.p50)).toFixed(1)} ms`,
      'report',
      null,
    );
  }
  if (results.limited && acceptedBeside.length > 0) {
    const refused = median(results.limited.service.map((o) => o.rps));
    const accepted = median(acceptedBeside.map((o) => o.rps));
    const cpuRefused = median(results.limited.service.map((o) => o.cpuPerRequest ?? Number.NaN));
    const cpuAccepted = median(acceptedBeside.map((o) => o.cpuPerRequest ?? Number.NaN));
    line(
      mode,
      'CPU per accepted ÷ CPU per 429 (consent-text)',
      `${cpuAccepted.toFixed(3)} ÷ ${cpuRefused.toFixed(3)} ms = ${(cpuAccepted / cpuRefused).toFixed(2)}`,
      'report',
      null,
    );
    line(
      mode,
      '429/s ÷ accepted/s (consent-text)',
      `${refused.toFixed(0)} ÷ ${accepted.toFixed(0)} = ${(refused / accepted).toFixed(2)}`,
      '≥ 3',
      refused / accepted >= 3,
    );
  }
  if (peak.self > 0) {
    line(mode, 'RSS under load: service (peak)', `${peak.self.toFixed(0)} MB`, 'report', null);
    line(
      mode,
      'RSS under load: PDF children',
      peak.children.map((c) => `${c.toFixed(0)} MB`).join(' + ') || 'none',
      'report',
      null,
    );
  }

  if (admin && SCENARIOS.includes('limited')) {
    // Round trips per 429, from the server's own count of this database's transactions (every
    // statement outside a transaction is one). Backends flush these counters within ~10 s of idling.
    const count = async () =>
      Number(
        (
          await admin!.query(
            'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
            [dbName],
          )
        ).rows[0].n,
      );
    await new Promise((r) => setTimeout(r, 11_000));
    const before = await count();
    const burst = await load({ ...scenarios.limited!.spec(servers.servicePort), seconds: 3 });
    await new Promise((r) => setTimeout(r, 11_000));
    const after = await count();
    const refused = (burst.statuses['429'] ?? 0) || 1;
    // The bench's own statistics queries run in the postgres database, not this one.
    const perRefusal = Math.max(0, after - before) / refused;
    line(
      mode,
      'database round trips per 429',
      `${perRefusal.toFixed(3)} (${Math.max(0, after - before)} for ${refused})`,
      '0',
      perRefusal < 0.01,
    );
  }

  await stop(servers.service);
  await stop(servers.baseline);
  if (databaseUrl && !process.argv.includes('--no-count')) {
    // Both again, behind counting relays: the statements each runs per request, side by side.
    await countStatements({
      databaseUrl,
      redisUrl: REDIS_URL,
      startService: async (db, redis) => {
        const { child, port } = await startService({ DATABASE_URL: db, REDIS_URL: redis });
        return { port, stop: () => stop(child) };
      },
      startBaseline: async (db, redis) => {
        const { child, port } = await startBaseline(db, redis);
        return { port, stop: () => stop(child) };
      },
      ...seeded,
      pdf: PDF,
      scenarios: SCENARIOS,
      line: (figure, value, target, met) => line(mode, figure, value, target, met),
    });
  }
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  fs.rmSync(work, { recursive: true, force: true });
}

async function reachable(): Promise<string | null> {
  try {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    await client.connect();
    await client.end();
  } catch (error) {
    return `PostgreSQL at ${PG_URL}: ${(error as Error).message}`;
  }
  const redis = new URL(REDIS_URL);
  const ok = await new Promise<boolean>((resolve) => {
    const socket = net.connect(Number(redis.port || 6379), redis.hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
  return ok ? null : `Redis at ${REDIS_URL} is not reachable`;
}

const started = new Date();
const cpus = os.cpus();
console.log(
  `bench ${started.toISOString()} on ${os.hostname()}: ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, Node ${process.versions.node}; ` +
    `load average at start ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections` +
    (hasTaskset ? '; servers on core 0, load generator on core 1' : ''),
);
if (COLD_ONLY) await coldStartOnly();
else if (ONLY !== 'postgres') await runMode('embedded');
if (ONLY !== 'embedded' && !COLD_ONLY) {
  const why = await reachable();
  if (why === null) await runMode('postgres');
  else console.log(`[postgres] skipped: ${why}`);
}
console.log(
  `load average at end ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}; took ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s`,
);
const missed = report.filter((l) => l.endsWith('target MISSED')).length;
console.log(missed === 0 ? 'every target met' : `${missed} target(s) missed`);
