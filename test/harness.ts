import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { type DbHandle, openDatabase } from '../src/db/connect.ts';
import { migrate } from '../src/db/migrate.ts';
import { type Services, createServices } from '../src/deps.ts';
import type { App } from '../src/http/types.ts';
import { type Clock, ManualClock } from '../src/lib/clock.ts';
import { type RateLimitStore, memoryStore } from '../src/rate-limit/store.ts';

export const CONSOLE_TOKEN = 'test-console-token-0123456789';
export const BASE_URL = 'https://careers.test';
/** The test run's environment: DATABASE_URL and REDIS_URL switch the harness to those servers. */
export const testConfig = parseConfig(process.env);

export interface TestContext {
  app: App;
  handle: DbHandle;
  clock: ManualClock;
  /** The services the app was built with (same database and clock). */
  services: Services;
  close(): Promise<void>;
}

let sharedHandle: Promise<DbHandle> | null = null;

/** One database per test file: PGlite in memory, or the PostgreSQL server CI gives (migrated once). */
export async function database(): Promise<DbHandle> {
  sharedHandle ??= (async () => {
    const handle = await openDatabase({ databaseUrl: testConfig.databaseUrl, dataDir: null });
    await migrate(handle);
    return handle;
  })();
  return sharedHandle;
}

export async function startApp(
  options: {
    clock?: ManualClock;
    rateLimits?: RateLimitStore;
    handle?: DbHandle;
    /** A logger for the app (e.g. `{ stream }` to read its log lines); silent when absent. */
    logger?: AppOptions['logger'];
    /** Changes the services before the app is built (e.g. to make one method fail). */
    wrapServices?: (services: Services) => Services;
  } = {},
): Promise<TestContext> {
  const handle = options.handle ?? (await database());
  const clock = options.clock ?? new ManualClock(new Date());
  const rateLimits = options.rateLimits ?? memoryStore();
  const created = createServices({ handle, clock: clock as Clock, publicBaseUrl: BASE_URL });
  const services = options.wrapServices ? options.wrapServices(created) : created;
  const app = await buildApp({
    services,
    rateLimits,
    clock,
    consoleToken: CONSOLE_TOKEN,
    publicBaseUrl: BASE_URL,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  return {
    app,
    handle,
    clock,
    services,
    async close() {
      await app.close();
      await rateLimits.close();
    },
  };
}

export async function closeDatabase(): Promise<void> {
  if (sharedHandle) await (await sharedHandle).close();
  sharedHandle = null;
}

type Body = Record<string, unknown> | unknown[] | undefined;

export async function consoleCall(
  app: App,
  method: InjectOptions['method'],
  url: string,
  body?: Body,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/console/v1${url}`,
    headers: { authorization: `Bearer ${CONSOLE_TOKEN}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

let seq = 0;
export function unique(prefix: string): string {
  seq += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq}`;
}

export async function newAccount(
  app: App,
  fields: {
    companyAddress?: string | null;
    dpa?: boolean;
    limits?: Record<string, number>;
    companyName?: string;
  } = {},
): Promise<{ id: string; companyAddress: string | null }> {
  const address = fields.companyAddress === undefined ? unique('co') : fields.companyAddress;
  const created = await consoleCall(app, 'POST', '/accounts', {
    name: 'Test Co',
    companyName: fields.companyName ?? 'Test Company',
    companyAddress: address,
  });
  if (created.statusCode !== 201) throw new Error(`account: ${created.body}`);
  const account = created.json().account;
  if (fields.dpa || fields.limits) {
    const patched = await consoleCall(app, 'PATCH', `/accounts/${account.id}`, {
      ...(fields.dpa ? { dpaAccepted: true } : {}),
      ...(fields.limits ? { limits: fields.limits } : {}),
    });
    if (patched.statusCode !== 200) throw new Error(`account patch: ${patched.body}`);
  }
  return { id: account.id, companyAddress: address };
}

export async function newKey(
  app: App,
  accountId: string,
  scopes: string[],
): Promise<{ id: string; secret: string }> {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/keys`, { scopes, name: 'test' });
  if (res.statusCode !== 201) throw new Error(`key: ${res.body}`);
  return { id: res.json().key.id, secret: res.json().secret };
}

/** A client for one API key. */
export function client(app: App, secret: string) {
  const call = (
    method: InjectOptions['method'],
    url: string,
    body?: Body,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${secret}`, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, body?: Body, headers?: Record<string, string>) => call('POST', url, body, headers),
    patch: (url: string, body?: Body, headers?: Record<string, string>) => call('PATCH', url, body, headers),
  };
}

/** An account with a key holding every job scope, ready to write and read jobs. */
export async function jobsAccount(app: App, fields: Parameters<typeof newAccount>[1] = {}) {
  const account = await newAccount(app, fields);
  const key = await newKey(app, account.id, ['jobs:read', 'jobs:write']);
  return { account, key, api: client(app, key.secret) };
}

export function errorOf(res: LightMyRequestResponse): {
  code: string;
  message: string;
  requestId: string;
  [k: string]: unknown;
} {
  return res.json().error;
}

/** Listens on an ephemeral port of 127.0.0.1 (real sockets) and answers the base URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

// ---- Jobs: bodies, shortcuts and the stored row ----

/** A JobWrite body with everything a first publish needs; `overrides` replace or add fields. */
export function jobBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Backend Engineer',
    category: 'engineering',
    description: '<p>Build the careers service.</p>',
    ...overrides,
  };
}

type JobsClient = ReturnType<typeof client>;
type AuthoredJob = import('../src/contract/job.ts').AuthoredJob;

/** Creates a draft through POST /v1/jobs and answers the AuthoredJob. */
export async function createDraft(
  api: JobsClient,
  overrides: Record<string, unknown> = {},
): Promise<AuthoredJob> {
  const res = await api.post('/v1/jobs', jobBody(overrides));
  if (res.statusCode !== 201) throw new Error(`create job: ${res.statusCode} ${res.body}`);
  return res.json().job;
}

/** Creates and publishes a job; answers the published AuthoredJob. */
export async function createPublished(
  api: JobsClient,
  overrides: Record<string, unknown> = {},
  publish: Record<string, unknown> = {},
): Promise<AuthoredJob> {
  const draft = await createDraft(api, overrides);
  const res = await api.post(`/v1/jobs/${draft.id}/publish`, publish);
  if (res.statusCode !== 200) throw new Error(`publish job: ${res.statusCode} ${res.body}`);
  return res.json().job;
}

/** The jobs table's row for a job, read straight from the database. */
export async function jobRow(handle: DbHandle, jobId: string) {
  return handle.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
}
