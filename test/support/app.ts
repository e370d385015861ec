// The test app: built through the production runtime (src/runtime.ts createRuntime and
// createRuntimeApp) from a test configuration, with only the outside world replaced: a manual
// clock, one database per test file, a warm PDF pool shared by the file, the CV builder in process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { LocalBlobStore } from '../../src/blob-store/index.ts';
import { parseConfig } from '../../src/config.ts';
import { buildVirtualCv } from '../../src/cv-builder/index.ts';
import { type DbHandle, openDatabase } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { VirtualCvBuilder } from '../../src/domain/cv/build-step.ts';
import type { CvInspector } from '../../src/domain/ports.ts';
import type { Services } from '../../src/domain/services.ts';
import type { HttpSettings } from '../../src/http/context.ts';
import type { App } from '../../src/http/types.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import type { Mailer } from '../../src/mail/mailer.ts';
import { createCvChecker } from '../../src/pdf/cv-check.ts';
import type { RateLimitStore } from '../../src/rate-limit/store.ts';
import {
  createRuntime,
  createRuntimeApp,
  createRuntimeWorker,
  type RuntimeOverrides,
} from '../../src/runtime.ts';
import type { Worker } from '../../src/tasks/worker.ts';
import type { Resolver } from '../../src/webhooks/sender.ts';
import { freePort } from './net.ts';

export { freePort };

export const CONSOLE_TOKEN = 'test-console-token-0123456789';
export const BASE_URL = 'https://careers.test';
/** The METRICS_TOKEN test apps are built with (`metricsToken: null` turns /metrics off). */
export const METRICS_TOKEN = 'test-metrics-token-0123456789';
const CLAIM_LINK_KEY = 'test-claim-link-key-0123456789abcdef';
/** The test run's environment: DATABASE_URL and REDIS_URL switch the harness to those servers. */
export const testConfig = parseConfig(process.env);
/** The CV limits tests run with: console.md's defaults. */
export const CV_LIMITS = { maxBytes: 10_485_760, maxPages: 10 };

export interface TestContext {
  app: App;
  handle: DbHandle;
  clock: ManualClock;
  /** The services the app was built with (same database and clock). */
  services: Services;
  /** The app's CV store (local, in a temp dir). */
  files: LocalBlobStore;
  /** A task worker over the same database and clock; not started: call `drain()` to run what is due. */
  worker: Worker;
  /** The app's public base URL: its own address when it listens, BASE_URL otherwise. */
  baseUrl: string;
  /** Stops the worker, closes the app and what the runtime opened (idempotent). */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: ManualClock;
  /** The rate-limit store; the app takes it over and closes it on close(). */
  rateLimits?: RateLimitStore;
  /** A database of the test's own (used as it is, not migrated); the file's shared one by default. */
  handle?: DbHandle;
  /** A logger for the app (e.g. `{ stream }` to read its log lines); silent when absent. */
  logger?: HttpSettings['logger'];
  /** Changes the services before the app is built (e.g. to make one method fail). */
  wrapServices?: (services: Services) => Services;
  /** The PDF checker; the file's warm pool by default. */
  inspector?: CvInspector;
  /** The mail transport; the outbox by default. */
  mailer?: Mailer;
  /** The virtual-CV builder; buildVirtualCv in this process by default. */
  build?: VirtualCvBuilder;
  stagedTtlSeconds?: number;
  /** The address the app's links and presigned upload URLs point at; BASE_URL by default. */
  publicBaseUrl?: string;
  /** The guard's budget of requests without a valid credential per client address and minute. */
  authFailuresPerMinute?: number;
  /** The local CV store's DATA_DIR; a fresh temp dir by default. */
  filesDir?: string;
  /** The hosted apply page's abuse limits. */
  applyPage?: HttpSettings['applyPage'];
  /** Whose X-Forwarded-For to believe (TRUST_PROXY's value). */
  trustProxy?: false | number | string;
  /** METRICS_TOKEN (METRICS_TOKEN above by default); null: /metrics is off. */
  metricsToken?: string | null;
  /** The claim links' HMAC key. */
  claimLinkKey?: string;
  /** Webhook delivery: private addresses allowed, and a resolver in place of DNS. */
  webhooks?: { allowPrivate: boolean; resolve?: Resolver };
  /** Listen on a free port of 127.0.0.1 and make that the public base URL (for a real browser). */
  listen?: boolean;
  /** More configuration variables, as a deployment would set them (e.g. HTTP_BODY_TIMEOUT_MS). */
  env?: Record<string, string>;
  /** Matching's embedding provider, as EMBEDDINGS_URL, EMBEDDINGS_MODEL, EMBEDDINGS_TIMEOUT_MS set it. */
  embeddings?: { url: string; model: string; timeoutMs?: number };
}

let sharedHandle: Promise<DbHandle> | null = null;
let sharedChecker: ReturnType<typeof createCvChecker> | null = null;
const tempDirs: string[] = [];
const openContexts = new Set<TestContext>();

/** One warm PDF-checking pool per test file, started on first use. */
export function cvChecker(): CvInspector {
  sharedChecker ??= createCvChecker(CV_LIMITS);
  return sharedChecker;
}

/** A fresh temp dir, removed by closeDatabase(). */
export function tempDir(prefix = 'careers-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** One database per test file: PGlite in memory, or the PostgreSQL server CI gives (migrated once). */
export async function database(): Promise<DbHandle> {
  sharedHandle ??= (async () => {
    const handle = await openDatabase({ databaseUrl: testConfig.databaseUrl, dataDir: null });
    await migrate(handle);
    return handle;
  })();
  return sharedHandle;
}

/** The configuration a test app runs with, as parsed from the environment a deployment would set. */
function configFor(options: StartOptions, publicBaseUrl: string) {
  const metricsToken = options.metricsToken === undefined ? METRICS_TOKEN : options.metricsToken;
  return parseConfig({
    DATA_DIR: options.filesDir ?? tempDir(),
    PUBLIC_BASE_URL: publicBaseUrl,
    CONSOLE_TOKEN,
    CLAIM_LINK_KEY: options.claimLinkKey ?? CLAIM_LINK_KEY,
    STAGED_CV_TTL_SECONDS: String(options.stagedTtlSeconds ?? 2_592_000),
    WEBHOOK_ALLOW_PRIVATE: String(options.webhooks?.allowPrivate ?? false),
    ...(metricsToken === null ? {} : { METRICS_TOKEN: metricsToken }),
    ...(options.trustProxy === undefined ? {} : { TRUST_PROXY: String(options.trustProxy) }),
    // A listening test app shares its event loop with the test's own client: a test that blocks it
    // (spawnSync of tsc for seconds) let the service's 5 s keep-alive timer close a pooled
    // connection in the same tick as the client reused it (ECONNRESET in sdk.test.ts). Tests keep
    // Fastify's former 72 s; test/connections.test.ts sets its own.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '72000',
    ...options.env,
    ...(options.embeddings
      ? {
          EMBEDDINGS_URL: options.embeddings.url,
          EMBEDDINGS_MODEL: options.embeddings.model,
          ...(options.embeddings.timeoutMs
            ? { EMBEDDINGS_TIMEOUT_MS: String(options.embeddings.timeoutMs) }
            : {}),
        }
      : {}),
  });
}

/** Builds an app (and a worker) for a test; prefer useTestApp, which also closes it. */
export async function startApp(options: StartOptions = {}): Promise<TestContext> {
  const port = options.listen ? await freePort() : null;
  const publicBaseUrl = port === null ? (options.publicBaseUrl ?? BASE_URL) : `http://127.0.0.1:${port}`;
  const clock = options.clock ?? new ManualClock(new Date());
  const overrides: RuntimeOverrides = {
    clock,
    handle: options.handle ?? database(),
    migrate: false,
    inspector: options.inspector ?? cvChecker(),
    build: options.build ?? (buildVirtualCv as VirtualCvBuilder),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.webhooks?.resolve ? { resolve: options.webhooks.resolve } : {}),
    ...(options.wrapServices ? { wrapServices: options.wrapServices } : {}),
  };
  const runtime = await createRuntime(configFor(options, publicBaseUrl), overrides);
  const app = await createRuntimeApp(runtime, {
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.authFailuresPerMinute === undefined
      ? {}
      : { authFailuresPerMinute: options.authFailuresPerMinute }),
    ...(options.applyPage ? { applyPage: options.applyPage } : {}),
  });
  const worker = createRuntimeWorker(runtime, { log: SILENT_LOG, pollMs: 50 });
  if (port !== null) await app.listen({ port, host: '127.0.0.1' });
  let closing: Promise<void> | null = null;
  const ctx: TestContext = {
    app,
    handle: runtime.handle,
    clock,
    services: runtime.services,
    files: runtime.files as LocalBlobStore,
    worker,
    baseUrl: publicBaseUrl,
    close() {
      closing ??= (async () => {
        openContexts.delete(ctx);
        await worker.stop();
        await app.close();
        await runtime.close();
        await options.rateLimits?.close();
      })();
      return closing;
    },
  };
  openContexts.add(ctx);
  return ctx;
}

/** startApp listening on 127.0.0.1, its public base URL its own address (for a real browser). */
export function startListeningApp(options: Omit<StartOptions, 'listen' | 'publicBaseUrl'> = {}) {
  return startApp({ ...options, listen: true });
}

const SILENT_LOG = { info() {}, warn() {}, error() {} };

/**
 * Closes what a test file shared: every app still open, the database, the PDF pool, the temp dirs.
 */
export async function closeDatabase(): Promise<void> {
  for (const ctx of [...openContexts]) await ctx.close();
  if (sharedHandle) await (await sharedHandle).close();
  sharedHandle = null;
  if (sharedChecker) await sharedChecker.close();
  sharedChecker = null;
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

let users = 0;

/**
 * One app for the tests of a file (or of the describe() it is called in): registers the hooks that
 * build it before the first test and close it after the last, and answers its context, readable
 * inside tests and hooks. `options` may be a function, called in the before hook (for what must be
 * made first, e.g. a server the app talks to). `setup` runs right after the app starts, in the same
 * hook: put a file's seeding there, not in a before() of its own, because node:test runs the
 * before() hooks of a file's top level concurrently (one of them cannot wait for the app). When the
 * last app of the file closes, the shared database, PDF pool and temp dirs close with it (and any
 * app a test started and left open).
 */
export function useTestApp(
  options: StartOptions | (() => StartOptions | Promise<StartOptions>) = {},
  setup?: (ctx: TestContext) => Promise<void> | void,
): TestContext {
  let ctx: TestContext | null = null;
  before(async () => {
    users += 1;
    ctx = await startApp(typeof options === 'function' ? await options() : options);
    await setup?.(ctx);
  });
  after(async () => {
    await ctx?.close();
    users -= 1;
    if (users === 0) await closeDatabase();
  });
  return new Proxy({} as TestContext, {
    get(_target, key) {
      if (ctx === null) throw new Error(`useTestApp: ctx.${String(key)} is read before the app started`);
      return ctx[key as keyof TestContext];
    },
  });
}

/** Listens on an ephemeral port of 127.0.0.1 (real sockets) and answers the base URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}
