import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

// Node keeps what it compiled (TypeScript stripped, V8 code) in the OS temp directory, keyed by
// content: from the second start on, loading the service's modules costs ~40 % less CPU. Every
// other module is imported after this line, so that all of them are cached.
module.enableCompileCache();
// V8 compiles a WebAssembly function with its optimising compiler once it has run "13 MB" of code
// (its tiering budget): PostgreSQL's start-up inside PGlite crossed that for hundreds of functions
// that never run again, and their optimised compilation cost ~130 ms of CPU and ~45 MB of resident
// memory at idle (issue 14). Ten times the budget leaves start-up code on the baseline compiler;
// the functions a request path runs reach it within the first seconds of load as before. Set before
// PGlite compiles its module; process-wide, so a worker thread shares it.
v8.setFlagsFromString('--wasm-tiering-budget=130000000');
const { ConfigError, parseConfig } = await import('./config.ts');
const { openDatabase } = await import('./db/connect.ts');
const { drainOf } = await import('./plugins/drain.ts');

const SWEEP_INTERVAL_MS = 60_000;

type Config = ReturnType<typeof parseConfig>;
type Runtime = import('./runtime.ts').Runtime;
type App = Awaited<ReturnType<typeof import('./runtime.ts').createRuntimeApp>>;
/** What runs beside the HTTP listener and must be stopped on shutdown. */
interface Background {
  worker: ReturnType<typeof import('./runtime.ts').createRuntimeWorker>;
  webhookDeliveries: ReturnType<Runtime['services']['webhookDispatcher']>;
  timers: NodeJS.Timeout[];
}

/** Configuration, DATA_DIR, the database and the runtime, the app, the background work, the listener. */
async function main(): Promise<void> {
  const config = configOrExit();
  checkDataDirOrExit(config);
  // The database starts opening first (PGlite compiles its WebAssembly off the main thread) while
  // the rest of the service's modules load: the two were the bulk of the time to a first answer.
  const opening = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  opening.catch(() => undefined);
  const [{ createRuntime, createRuntimeApp, createRuntimeWorker }, { loggerOptions }] = await Promise.all([
    import('./runtime.ts'),
    import('./plugins/log.ts'),
  ]);
  const runtime = await runtimeOrExit(createRuntime(config, { handle: opening }), config.dataDir);
  // What /readyz and /metrics read of the background work, once it exists (it logs through the app).
  let running: Background | null = null;
  const probe = {
    worker: () => running?.worker.stats() ?? null,
    deliveries: () => running?.webhookDeliveries.stats() ?? null,
  };
  const app = await createRuntimeApp(runtime, { logger: loggerOptions(config.logLevel), background: probe });
  const background: Background = {
    worker: createRuntimeWorker(runtime, { log: app.log.child({ component: 'worker' }) }),
    webhookDeliveries: runtime.services.webhookDispatcher({ log: app.log.child({ component: 'webhooks' }) }),
    timers: [],
  };
  if (config.role !== 'api') {
    startBackground(runtime, app, background);
    running = background;
  }
  // Every role listens: a worker serves /healthz, /readyz and /metrics only (src/app.ts).
  await app.listen({ port: config.http.port, host: config.http.host });
  module.flushCompileCache();
  setTimeout(releaseStartupGarbage, STARTUP_GC_DELAY_MS).unref();
  app.log.info(
    { baseUrl: config.http.publicBaseUrl, role: config.role, database: runtime.handle.kind },
    `Service ready at ${config.http.publicBaseUrl}; console token in ${runtime.consoleTokenSource}`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void shutdown(signal, config, runtime, app, background);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** The configuration, or exit 78 (EX_CONFIG) with its one-line error. */
function configOrExit(): Config {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}

/**
 * DATA_DIR holds the embedded database, the local CV store and the generated console token: when
 * any of them is used, a DATA_DIR the service cannot write stops it here with one clear line (73).
 */
function checkDataDirOrExit(config: Config): void {
  if (config.databaseUrl !== null && config.s3 !== null && config.consoleToken !== null) return;
  try {
    probeDataDir(config.dataDir);
  } catch (error) {
    console.error(
      startupFault(error, config.dataDir) ?? `Cannot start: DATA_DIR ${config.dataDir}: ${String(error)}`,
    );
    process.exit(73);
  }
}

/** The runtime, or exit 73 with one line when it failed on DATA_DIR. */
async function runtimeOrExit(creating: Promise<Runtime>, dataDir: string): Promise<Runtime> {
  try {
    return await creating;
  } catch (error) {
    const line = startupFault(error, dataDir);
    if (line === null) throw error;
    console.error(line);
    process.exit(73);
  }
}

/** The task worker, webhook deliveries and the retention sweep (now, then every minute). */
function startBackground(runtime: Runtime, app: App, background: Background): void {
  background.worker.start();
  background.webhookDeliveries.start();
  const sweep = async () => {
    try {
      const swept = await runtime.services.maintenance();
      if (runtime.files.kind === 'local') await runtime.files.removeAbandonedTempFiles();
      if (Object.values(swept).some((n) => n > 0)) app.log.info(swept, 'retention sweep');
    } catch (err) {
      app.log.error({ err }, 'retention sweep failed');
    }
  };
  void sweep();
  background.timers.push(setInterval(sweep, SWEEP_INTERVAL_MS).unref());
}

/**
 * SIGTERM (a deploy, docker stop) and SIGINT: stop accepting, finish what is in flight, hand
 * back unfinished tasks, close the pools, exit 0 — all within SHUTDOWN_GRACE_MS.
 */
async function shutdown(signal: string, config: Config, runtime: Runtime, app: App, background: Background) {
  const grace = config.shutdownGraceMs;
  const deadline = Date.now() + grace;
  // What the last steps (releasing tasks, closing pools) are kept for, out of the grace.
  const reserve = Math.min(1_500, grace / 4);
  app.log.info({ signal, graceMs: grace }, 'shutting down: finishing in-flight requests');
  for (const timer of background.timers) clearInterval(timer);
  const force = setTimeout(() => {
    app.log.error({ graceMs: grace }, 'shutdown did not finish within the grace; exiting');
    process.exit(1);
  }, grace);
  force.unref();
  const closing = closeListener(app);
  const stoppingWorker = background.worker.stop(deadline - reserve - Date.now());
  const stoppingDeliveries = background.webhookDeliveries.stop();
  if (!(await within(closing, deadline - reserve - Date.now()))) {
    app.log.warn('shutdown: requests still running at the end of the grace are cut off');
    app.server.closeAllConnections();
    await within(closing, 200);
  }
  await within(stoppingWorker, deadline - Date.now() - reserve / 2);
  await within(stoppingDeliveries, deadline - Date.now() - reserve / 2);
  await within(runtime.services.idempotency.stop(), 200);
  // The runtime closes what it opened; the database was opened here, so it is closed here, last.
  const closeAll = async () => {
    await runtime.close();
    await runtime.handle.close();
  };
  await within(closeAll(), deadline - Date.now() - 100);
  clearTimeout(force);
  app.log.info({ signal, tookMs: grace - (deadline - Date.now()) }, 'stopped');
  process.exit(0);
}

/**
 * The drain (src/plugins/drain.ts): the listener closes once what the kernel accepted is taken;
 * each connection's first request is served (it was sent before the signal), a later one on a
 * kept-alive connection is answered 503; then Fastify's own close runs its hooks.
 */
async function closeListener(app: App): Promise<undefined> {
  await drainOf(app).start();
  await app.close();
  return undefined;
}

/** Whether `promise` settled within `ms` (it goes on either way). */
function within<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), sleep(Math.max(0, ms)).then(() => false)]);
}

const STARTUP_GC_DELAY_MS = 1_000;

/**
 * One memory-reducing collection once the start is over: module loading, schema building and the
 * template's unpacking leave ~35 MB of garbage and a young generation grown to 32 MB, which V8's
 * own memory reducer did not give back at idle (the service sat at ~225 MB RSS; after this ~185 MB,
 * issue 14). Costs one full collection (tens of ms) a second after the first answer could be given.
 */
function releaseStartupGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  // The collector is exposed in a new context only: the service's global scope stays as it was.
  const gc = vm.runInNewContext('gc') as (options: object) => void;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

function probeDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const probe = path.join(dir, `.write-probe-${process.pid}`);
  fs.writeFileSync(probe, '');
  fs.rmSync(probe);
}

const DISK_FAULTS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'a part of the path cannot be created',
};

/** One line an operator can act on for a start-up that failed on DATA_DIR; null for other errors. */
function startupFault(error: unknown, dataDir: string): string | null {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code !== 'string' || !(e.code in DISK_FAULTS)) return null;
  const where = e.path ? ` (${e.syscall ?? 'access'} ${e.path})` : '';
  return `Cannot start: DATA_DIR ${dataDir} is not writable: ${DISK_FAULTS[e.code]}${where}. Make it writable by this user, or set DATA_DIR to a writable directory.`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

await main();
