import { buildApp } from './app.ts';
import { type ConfiguredBlobStore, createBlobStore } from './blob-store/index.ts';
import type { Config } from './config.ts';
import { createCvBuildRunner } from './cv-builder/runner.ts';
import { type DbHandle, openDatabase } from './db/connect.ts';
import { migrate } from './db/migrate.ts';
import type { VirtualCvBuilder } from './domain/cv/build-step.ts';
import { httpEmbeddings } from './domain/matches/embeddings.ts';
import type { CvInspector } from './domain/ports.ts';
import type { Services } from './domain/services.ts';
import { type HttpSettings, httpContext } from './http/context.ts';
import type { App } from './http/types.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { type Mailer, outboxMailer, smtpMailer } from './mail/mailer.ts';
import { type CvChecker, createCvChecker } from './pdf/cv-check.ts';
import { memoryStore, type RateLimitStore, redisStore } from './rate-limit/store.ts';
import { createServices, resolveClaimLinkKey, resolveConsoleToken, type ServiceDeps } from './services.ts';
import { createWorker, type WorkerLog } from './tasks/worker.ts';
import type { Resolver } from './webhooks/sender.ts';

/**
 * The running service, built from its configuration: the outside world (database, blob store, PDF
 * checker, mailer, rate-limit store, clock), the services over it (src/services.ts), and the HTTP
 * app and task worker over those. The only importer of src/app.ts: main.ts, the test harness,
 * tools and benchmarks all build their app here.
 */
export interface Runtime {
  /** The configuration the runtime was built from. */
  config: Config;
  handle: DbHandle;
  /** What the services were built from; tools rebuild services with one part replaced. */
  serviceDeps: ServiceDeps;
  files: ConfiguredBlobStore;
  services: Services;
  rateLimits: RateLimitStore;
  clock: Clock;
  consoleToken: string;
  consoleTokenSource: string;
  /** Closes what the runtime created (never what was passed in as an override), newest first. */
  close(): Promise<void>;
}

/**
 * The outside world a runtime may be given instead of building it from the configuration: tests
 * pass a manual clock, a shared database, a warm PDF pool, an in-process CV builder, a stand-in for
 * DNS; tools replace one part. What is passed in, its owner closes.
 */
export interface RuntimeOverrides {
  clock?: Clock;
  handle?: DbHandle | Promise<DbHandle>;
  /** false: the database is used as it is (its migrations are the caller's business). */
  migrate?: boolean;
  files?: ConfiguredBlobStore;
  inspector?: CvInspector;
  mailer?: Mailer;
  build?: VirtualCvBuilder;
  rateLimits?: RateLimitStore;
  /** The webhook sender's resolver in place of DNS. */
  resolve?: Resolver;
  /** Changes the services once built (a test makes one method fail). */
  wrapServices?: (services: Services) => Services;
}

type Own = <T extends { close(): Promise<void> | void }>(thing: T) => T;

/**
 * The service's runtime from its configuration: the clock, the database (migrated), the rate-limit
 * store, the console token, what the services are built from, and the services.
 */
export async function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const owned: { close(): Promise<void> | void }[] = [];
  const own: Own = (thing) => {
    owned.push(thing);
    return thing;
  };
  const clock = overrides.clock ?? systemClock;
  const handle = await (overrides.handle ??
    openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).then(own));
  if (overrides.migrate !== false) await migrate(handle);
  // Without Redis, only the embedded database (one process) lets the store vouch for every instance.
  const rateLimits =
    overrides.rateLimits ??
    own(
      config.redisUrl
        ? redisStore(config.redisUrl)
        : memoryStore({ generations: config.databaseUrl === null }),
    );
  const { token, source } = resolveConsoleToken(config);
  const { files, serviceDeps } = await serviceDepsFor(config, overrides, handle, clock, own);
  const services = createServices(serviceDeps);
  return {
    config,
    handle,
    serviceDeps,
    files,
    services: overrides.wrapServices ? overrides.wrapServices(services) : services,
    rateLimits,
    clock,
    consoleToken: token,
    consoleTokenSource: source,
    async close() {
      for (const thing of owned.splice(0).reverse()) await thing.close();
    },
  };
}

/** What the services are built from: the blob store, the PDF checker, the CV builder, the mailer, settings. */
async function serviceDepsFor(
  config: Config,
  overrides: RuntimeOverrides,
  handle: DbHandle,
  clock: Clock,
  own: Own,
): Promise<{ files: ConfiguredBlobStore; serviceDeps: ServiceDeps }> {
  const files =
    overrides.files ??
    own(
      await createBlobStore(config, {
        publicBaseUrl: config.http.publicBaseUrl,
        dataDir: config.dataDir,
        clock,
      }),
    );
  const cvLimits = { maxBytes: config.cv.maxBytes, maxPages: config.cv.maxPages };
  const inspector = overrides.inspector ?? own(createCvChecker(cvLimits));
  const build = overrides.build ?? (own(createCvBuildRunner()).build as VirtualCvBuilder);
  const mailer =
    overrides.mailer ??
    own(
      config.mail.smtpUrl
        ? smtpMailer({ db: handle.db, clock, url: config.mail.smtpUrl, from: config.mail.from })
        : outboxMailer({ db: handle.db, clock }),
    );
  const serviceDeps: ServiceDeps = {
    handle,
    clock,
    publicBaseUrl: config.http.publicBaseUrl,
    files,
    inspector,
    cvLimits,
    mailer,
    build,
    stagedTtlSeconds: config.cv.stagedTtlSeconds,
    claimLinkKey: resolveClaimLinkKey(config),
    webhooks: {
      allowPrivate: config.webhooks.allowPrivate,
      ...(overrides.resolve ? { resolve: overrides.resolve } : {}),
    },
    embeddings: config.embeddings ? httpEmbeddings(config.embeddings) : null,
  };
  return { files, serviceDeps };
}

/**
 * The runtime's HTTP app, set up as its configuration says; `extra` for what the config does not
 * hold. The app's one context (src/http/context.ts) is built here, from the runtime.
 */
export function createRuntimeApp(
  runtime: Pick<Runtime, 'config' | 'services' | 'files' | 'rateLimits' | 'clock' | 'consoleToken'> &
    Partial<Pick<Runtime, 'serviceDeps'>>,
  extra: Pick<HttpSettings, 'logger' | 'authFailuresPerMinute' | 'applyPage' | 'background'> = {},
): Promise<App> {
  const { config } = runtime;
  // The pooled PDF checker reports its pool to /metrics; a stand-in (tests, tools) has nothing to say.
  const inspector = runtime.serviceDeps?.inspector as Partial<CvChecker> | undefined;
  const pdfChecker = typeof inspector?.stats === 'function' ? inspector.stats.bind(inspector) : undefined;
  const context = httpContext({
    services: runtime.services,
    files: runtime.files,
    rateLimits: runtime.rateLimits,
    clock: runtime.clock,
    consoleToken: runtime.consoleToken,
    publicBaseUrl: config.http.publicBaseUrl,
    bodyLimitBytes: config.http.bodyLimitBytes,
    trustProxy: config.http.trustProxy,
    metricsToken: config.metricsToken,
    connections: config.http.connections,
    role: config.role,
    ...(pdfChecker ? { pdfChecker } : {}),
    ...extra,
  });
  return buildApp(context);
}

/** The runtime's task worker (not started). */
export function createRuntimeWorker(runtime: Runtime, options: { log: WorkerLog; pollMs?: number }) {
  return createWorker({
    db: runtime.handle.db,
    clock: runtime.clock,
    handlers: runtime.services.taskHandlers,
    concurrency: runtime.config.workerConcurrency,
    ...options,
  });
}
