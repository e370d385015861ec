import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { LocalBlobStore } from '../src/blob-store/index.ts';
import type { CvInspector } from '../src/domain/intake/ports.ts';
import { createCvChecker } from '../src/pdf/cv-check.ts';
import { buildVirtualCv } from '../src/cv-builder/index.ts';
import type { VirtualCvBuilder } from '../src/domain/cv/cv-service.ts';
import { type Mailer, outboxMailer } from '../src/mail/mailer.ts';
import { type Worker, createWorker } from '../src/tasks/worker.ts';
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
/** The METRICS_TOKEN test apps are built with (`metricsToken: null` turns /metrics off). */
export const METRICS_TOKEN = 'test-metrics-token-0123456789';
/** The test run's environment: DATABASE_URL and REDIS_URL switch the harness to those servers. */
export const testConfig = parseConfig(process.env);

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
  close(): Promise<void>;
}

let sharedHandle: Promise<DbHandle> | null = null;
let sharedChecker: ReturnType<typeof createCvChecker> | null = null;
const tempDirs: string[] = [];

/** The CV limits tests run with: console.md's defaults. */
export const CV_LIMITS = { maxBytes: 10_485_760, maxPages: 10 };

/** One warm PDF-checking pool per test file, started on first use. */
export function cvChecker(): CvInspector {
  sharedChecker ??= createCvChecker(CV_LIMITS);
  return sharedChecker;
}

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

export async function startApp(
  options: {
    clock?: ManualClock;
    rateLimits?: RateLimitStore;
    handle?: DbHandle;
    /** A logger for the app (e.g. `{ stream }` to read its log lines); silent when absent. */
    logger?: AppOptions['logger'];
    /** Changes the services before the app is built (e.g. to make one method fail). */
    wrapServices?: (services: Services) => Services;
    /** The PDF checker; the shared warm pool by default. */
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
    applyPage?: AppOptions['applyPage'];
    /** Whose X-Forwarded-For to believe (TRUST_PROXY as parsed). */
    trustProxy?: AppOptions['trustProxy'];
    /** METRICS_TOKEN (METRICS_TOKEN above by default); null: /metrics is off. */
    metricsToken?: string | null;
    /** The claim links' HMAC key. */
    claimLinkKey?: string;
    /** Webhook delivery: private addresses allowed, and a resolver in place of DNS. */
    webhooks?: { allowPrivate: boolean; resolve?: import('../src/webhooks/sender.ts').Resolver };
  } = {},
): Promise<TestContext> {
  const publicBaseUrl = options.publicBaseUrl ?? BASE_URL;
  const handle = options.handle ?? (await database());
  const clock = options.clock ?? new ManualClock(new Date());
  const rateLimits = options.rateLimits ?? memoryStore();
  const files = new LocalBlobStore({
    dataDir: options.filesDir ?? tempDir(),
    publicBaseUrl,
    signingSecret: 'test-signing-secret-0123456789abcdef',
    clock,
  });
  const mailer = options.mailer ?? outboxMailer({ db: handle.db, clock });
  const created = createServices({
    handle,
    clock: clock as Clock,
    publicBaseUrl,
    files,
    inspector: options.inspector ?? cvChecker(),
    cvLimits: CV_LIMITS,
    mailer,
    build: options.build ?? (buildVirtualCv as VirtualCvBuilder),
    stagedTtlSeconds: options.stagedTtlSeconds ?? 2_592_000,
    claimLinkKey: options.claimLinkKey ?? 'test-claim-link-key-0123456789abcdef',
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });
  const services = options.wrapServices ? options.wrapServices(created) : created;
  const app = await buildApp({
    services,
    files,
    rateLimits,
    clock,
    consoleToken: CONSOLE_TOKEN,
    publicBaseUrl,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.authFailuresPerMinute === undefined
      ? {}
      : { authFailuresPerMinute: options.authFailuresPerMinute }),
    ...(options.applyPage ? { applyPage: options.applyPage } : {}),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    metricsToken: options.metricsToken === undefined ? METRICS_TOKEN : options.metricsToken,
  });
  const worker = createWorker({
    db: handle.db,
    clock,
    handlers: services.taskHandlers,
    log: SILENT_LOG,
    pollMs: 50,
  });
  return {
    app,
    handle,
    clock,
    services,
    files,
    worker,
    async close() {
      await worker.stop();
      await app.close();
      await rateLimits.close();
    },
  };
}

const SILENT_LOG = { info() {}, warn() {}, error() {} };

/** Closes what a test file shared: the database, the PDF pool, the temp dirs. */
export async function closeDatabase(): Promise<void> {
  if (sharedHandle) await (await sharedHandle).close();
  sharedHandle = null;
  if (sharedChecker) await sharedChecker.close();
  sharedChecker = null;
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
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

// ---- Application intake: keys, uploads, bodies ----

/** The bytes of a committed PDF fixture (scripts/make-pdf-fixtures.sh says how each was made). */
export function pdfFixture(name: string): Buffer {
  return fs.readFileSync(new URL(`./fixtures/pdf/${name}`, import.meta.url));
}

/**
 * An account that accepted the DPA, with a key holding applications:write and the job scopes, and
 * a high per-minute limit so a test's many calls are not rate limited; `limits` add or override.
 */
export async function intakeAccount(app: App, fields: Parameters<typeof newAccount>[1] = {}) {
  const account = await newAccount(app, {
    ...fields,
    dpa: true,
    limits: { requestsPerMinute: 100_000, ...fields.limits },
  });
  const key = await newKey(app, account.id, ['applications:write', 'jobs:read', 'jobs:write']);
  return { account, key, api: client(app, key.secret) };
}

/** The path and query of an uploadUrl (what app.inject takes). */
export function uploadPath(uploadUrl: string): string {
  const url = new URL(uploadUrl);
  return `${url.pathname}${url.search}`;
}

/** PUTs bytes to a presigned upload URL through app.inject, as a client would. */
export async function putUpload(
  app: App,
  uploadUrl: string,
  bytes: Buffer,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'PUT',
    url: uploadPath(uploadUrl),
    headers: { 'content-type': 'application/pdf', ...headers },
    payload: bytes,
  });
}

/** POST /v1/uploads for `bytes` (and PUTs them unless `put: false`); answers the slot. */
export async function uploadPdf(
  ctx: Pick<TestContext, 'app'>,
  api: ReturnType<typeof client>,
  bytes: Buffer,
  options: { put?: boolean; fileName?: string } = {},
): Promise<{ uploadId: string; uploadUrl: string; expiresAt: string }> {
  const res = await api.post('/v1/uploads', {
    bytes: bytes.length,
    ...(options.fileName === undefined ? {} : { fileName: options.fileName }),
  });
  if (res.statusCode !== 201) throw new Error(`upload slot: ${res.statusCode} ${res.body}`);
  const slot = res.json() as { uploadId: string; uploadUrl: string; expiresAt: string };
  if (options.put !== false) {
    const put = await putUpload(ctx.app, slot.uploadUrl, bytes);
    if (put.statusCode !== 200) throw new Error(`upload PUT: ${put.statusCode} ${put.body}`);
  }
  return slot;
}

/** A ConsentReceipt accepted at the clock's now; `overrides` replace or add fields. */
export function consentReceipt(
  clock: Clock,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    consentTextId: 'console_api_apply',
    version: 'api_apply_v1',
    locale: 'en',
    acceptedAt: clock.now().toISOString(),
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Test/1.0',
    ...overrides,
  };
}

/** An ApplicationWrite naming `uploadId`; `overrides` replace or add top-level fields. */
export function applicationBody(
  clock: Clock,
  uploadId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Marisol Quintero-Ávila',
    email: `${unique('applicant').toLowerCase()}@example.com`,
    cv: { uploadId },
    consent: consentReceipt(clock),
    lawfulBasis: { attested: true },
    ...overrides,
  };
}

/** A CandidateWrite naming `uploadId`; `overrides` replace or add top-level fields. */
export function candidateBody(
  uploadId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Ana Beatriz Souza',
    email: `${unique('candidate').toLowerCase()}@example.com`,
    cv: { uploadId },
    lawfulBasis: { attested: true },
    ...overrides,
  };
}

/** The uploads table's row for an upload id, or undefined. */
export async function uploadRow(handle: DbHandle, uploadId: string) {
  return handle.db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirst();
}

// ---- Virtual CVs and candidate mail: the worker, the outbox, claim links ----

/** Runs the worker until nothing is due (one `drain()` stops after its rounds); answers how many ran. */
export async function drainAll(worker: Pick<Worker, 'drain'>): Promise<number> {
  let total = 0;
  for (;;) {
    const ran = await worker.drain();
    total += ran;
    if (ran === 0) return total;
  }
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  locale: string;
  sentAt: string;
}

/** GET /console/v1/mail?to=: what the outbox transport sent to one address, oldest first. */
export async function mailTo(app: App, address: string): Promise<OutboxMessage[]> {
  const res = await consoleCall(app, 'GET', `/mail?to=${encodeURIComponent(address)}`);
  if (res.statusCode !== 200) throw new Error(`mail list: ${res.statusCode} ${res.body}`);
  return res.json().messages;
}

/** Every claim-link URL (`…/cv/<token>`) in a text or an HTML body. */
export function claimLinksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s"'<>]+\/cv\/[^\s"'<>]+/g) ?? [];
}

/** The path of a link under BASE_URL, which is what app.inject takes. */
export function linkPath(link: string): string {
  if (!link.startsWith(`${BASE_URL}/`)) throw new Error(`not a link of ${BASE_URL}: ${link}`);
  return link.slice(BASE_URL.length);
}

/** POSTs an empty HTML form to `path`, as a browser's button does. */
export function postForm(app: App, path: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
}

/**
 * A one-page CV made by PDFKit (a dev dependency) for a made-up person, so that tests can tell one
 * candidate's virtual CV from another's.
 */
export async function cvPdf(person: {
  name: string;
  email: string;
  employer: string;
  title: string;
}): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { CreationDate: new Date('2026-01-01T00:00:00Z') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.font('Helvetica-Bold').fontSize(22).text(person.name);
  doc.font('Helvetica').fontSize(11).text(`${person.email} · +44 20 7946 0018 · Leeds, UK`);
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(13).text('Experience');
  doc.font('Helvetica-Bold').fontSize(11).text(`${person.title} — ${person.employer}`);
  doc.font('Helvetica-Oblique').text('March 2020 – Present');
  doc.font('Helvetica').text('• Ran the warehouse systems team and halved picking errors.');
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(13).text('Education');
  doc.font('Helvetica').fontSize(11).text('BSc Computer Science — University of Leeds');
  doc.text('2012 – 2015');
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(13).text('Skills');
  doc.font('Helvetica').fontSize(11).text('Go, PostgreSQL, Kubernetes');
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * A fresh intake account (company `companyName`) with a published job titled `title`, and one
 * application to it with `cv` (cv-2-pages.pdf by default) whose consent receipt is in `locale`.
 * Answers the POST's response and what a test needs to follow the application.
 */
export async function applyWithCv(
  ctx: Pick<TestContext, 'app' | 'clock'>,
  options: {
    locale?: 'en' | 'es' | 'fr' | 'pt';
    companyName?: string;
    title?: string;
    cv?: Buffer;
    /** ApplicationWrite fields to add or replace (e.g. `name`, `phone`, `answers`). */
    body?: Record<string, unknown>;
  } = {},
) {
  const intake = await intakeAccount(ctx.app, { companyName: options.companyName ?? 'Test Company' });
  const job = await createPublished(intake.api, { title: options.title ?? 'Backend Engineer' });
  const bytes = options.cv ?? pdfFixture('cv-2-pages.pdf');
  const upload = await uploadPdf(ctx, intake.api, bytes);
  const body = applicationBody(ctx.clock, upload.uploadId, {
    consent: consentReceipt(ctx.clock, { locale: options.locale ?? 'en' }),
    ...options.body,
  });
  const res = await intake.api.post(`/v1/jobs/${job.id}/applications`, body, {
    'idempotency-key': unique('idem'),
  });
  return {
    ...intake,
    job,
    res,
    uploadId: upload.uploadId,
    email: String(body.email),
    applicationId: res.statusCode === 201 ? (res.json().applicationId as string) : '',
  };
}

// ---- Screening: accounts, templates, managed ads and the role's candidates ----

/**
 * An account that accepted the DPA, with one key holding every scope (`screening` included) and a
 * high per-minute limit; `limits` add or override (e.g. `includedScreeningsPerManagedAd`).
 */
export async function screeningAccount(app: App, fields: Parameters<typeof newAccount>[1] = {}) {
  const account = await newAccount(app, {
    ...fields,
    dpa: true,
    limits: { requestsPerMinute: 100_000, ...fields.limits },
  });
  const key = await newKey(app, account.id, ['applications:write', 'jobs:read', 'jobs:write', 'screening']);
  return { account, key, api: client(app, key.secret) };
}

/** POST /console/v1/accounts/{id}/screening-templates; answers the template (throws unless 201). */
export async function newTemplate(
  app: App,
  accountId: string,
  fields: { name?: string; priceCents?: number | null; currency?: 'AUD' | 'USD'; active?: boolean } = {},
): Promise<{
  id: string;
  name: string;
  priceCents: number | null;
  currency: 'AUD' | 'USD';
  active: boolean;
}> {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/screening-templates`, {
    name: fields.name ?? 'Phone screen',
    priceCents: fields.priceCents === undefined ? 1500 : fields.priceCents,
    currency: fields.currency ?? 'AUD',
    ...(fields.active === undefined ? {} : { active: fields.active }),
  });
  if (res.statusCode !== 201) throw new Error(`template: ${res.statusCode} ${res.body}`);
  return res.json().template;
}

/** POST /console/v1/accounts/{id}/jobs/{jobId}/manage (throws unless 200). */
export async function manageJob(app: App, accountId: string, jobId: string): Promise<void> {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/jobs/${jobId}/manage`);
  if (res.statusCode !== 200) throw new Error(`manage: ${res.statusCode} ${res.body}`);
}

/** A published job that the console made a managed ad. */
export async function managedJob(
  app: App,
  api: JobsClient,
  accountId: string,
  overrides: Record<string, unknown> = {},
): Promise<AuthoredJob> {
  const job = await createPublished(api, overrides);
  await manageJob(app, accountId, job.id);
  return job;
}

/** Applies to `jobId` with cv-2-pages.pdf; answers the application (candidate) id and address. */
export async function applyTo(
  ctx: Pick<TestContext, 'app' | 'clock'>,
  api: JobsClient,
  jobId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ candidateId: string; email: string }> {
  const upload = await uploadPdf(ctx, api, pdfFixture('cv-2-pages.pdf'));
  const body = applicationBody(ctx.clock, upload.uploadId, overrides);
  const res = await api.post(`/v1/jobs/${jobId}/applications`, body, { 'idempotency-key': unique('idem') });
  if (res.statusCode !== 201) throw new Error(`apply: ${res.statusCode} ${res.body}`);
  return { candidateId: res.json().candidateId, email: String(body.email) };
}

/** Imports a person into the account's pool with cv-2-pages.pdf; answers the candidate id and address. */
export async function importCandidate(
  ctx: Pick<TestContext, 'app'>,
  api: JobsClient,
  overrides: Record<string, unknown> = {},
): Promise<{ candidateId: string; email: string; status: string }> {
  const upload = await uploadPdf(ctx, api, pdfFixture('cv-2-pages.pdf'));
  const body = candidateBody(upload.uploadId, overrides);
  const res = await api.post('/v1/candidates', body, { 'idempotency-key': unique('idem') });
  if (res.statusCode !== 201) throw new Error(`import: ${res.statusCode} ${res.body}`);
  return { candidateId: res.json().candidateId, email: String(body.email), status: res.json().status };
}

/** POST /v1/jobs/{jobId}/candidates/{candidateId}/screening. */
export function triggerScreening(
  api: JobsClient,
  jobId: string,
  candidateId: string,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return api.post(`/v1/jobs/${jobId}/candidates/${candidateId}/screening`, body, headers);
}

/** The screenings table's row, or undefined. */
export async function screeningRow(handle: DbHandle, screeningId: string) {
  return handle.db.selectFrom('screenings').selectAll().where('id', '=', screeningId).executeTakeFirst();
}

/** Every screening row of one account, oldest first. */
export async function screeningRows(handle: DbHandle, accountId: string) {
  return handle.db
    .selectFrom('screenings')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('requested_at')
    .orderBy('id')
    .execute();
}

// ---- Hosted pages: an app a real browser can reach ----

/** A free TCP port of 127.0.0.1 (closed again at once, so the app can take it). */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * An app listening on 127.0.0.1 whose public base URL is its own address, so `url`, `applyLink`
 * and presigned upload URLs work from a browser. Answers the context and the base URL.
 */
export async function startListeningApp(
  options: Omit<NonNullable<Parameters<typeof startApp>[0]>, 'publicBaseUrl'> = {},
): Promise<TestContext & { baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const ctx = await startApp({ ...options, publicBaseUrl: baseUrl });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  return { ...ctx, baseUrl };
}
