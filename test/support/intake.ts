// Application intake and candidate import: PDFs, uploads, consent, bodies and shortcuts.
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import type { DbHandle } from '../../src/db/connect.ts';
import type { App } from '../../src/http/types.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { type ApiClient, intakeAccount, unique } from './accounts.ts';
import type { TestContext } from './app.ts';
import { createPublished } from './jobs.ts';

/** The bytes of a committed PDF fixture (scripts/make-pdf-fixtures.sh says how each was made). */
export function pdfFixture(name: string): Buffer {
  return fs.readFileSync(new URL(`../fixtures/pdf/${name}`, import.meta.url));
}

/** The path and query of an uploadUrl (what app.inject takes). */
export function uploadPath(uploadUrl: string): string {
  const url = new URL(uploadUrl);
  return `${url.pathname}${url.search}`;
}

/**
 * PUTs bytes to a presigned upload URL as a client would: through app.inject for the service's own
 * upload route, over real HTTP for an S3 store's URL (signed with X-Amz-Signature).
 */
export async function putUpload(
  app: App,
  uploadUrl: string,
  bytes: Buffer,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  if (new URL(uploadUrl).searchParams.has('X-Amz-Signature')) {
    const res = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...headers },
      body: new Uint8Array(bytes),
    });
    const body = await res.text();
    return { statusCode: res.status, body } as LightMyRequestResponse;
  }
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
  api: ApiClient,
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

/** Applies to `jobId` with cv-2-pages.pdf; answers the application (candidate) id and address. */
export async function applyTo(
  ctx: Pick<TestContext, 'app' | 'clock'>,
  api: ApiClient,
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
  api: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<{ candidateId: string; email: string; status: string }> {
  const upload = await uploadPdf(ctx, api, pdfFixture('cv-2-pages.pdf'));
  const body = candidateBody(upload.uploadId, overrides);
  const res = await api.post('/v1/candidates', body, { 'idempotency-key': unique('idem') });
  if (res.statusCode !== 201) throw new Error(`import: ${res.statusCode} ${res.body}`);
  return { candidateId: res.json().candidateId, email: String(body.email), status: res.json().status };
}
