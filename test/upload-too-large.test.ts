import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { LocalBlobStore } from '../src/blob-store/index.ts';
import { rejectionMessage } from '../src/pdf/cv-check.ts';
import { intakeAccount, unique } from './support/accounts.ts';
import { CV_LIMITS, tempDir, useTestApp } from './support/app.ts';
import { applicationBody, candidateBody, putUpload, uploadRow } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

/**
 * Issue 25.5: api.md validates nothing at POST /v1/uploads and answers a CV over CV_MAX_BYTES with
 * 422 cv_rejected `too_large` when an application names it. The slot is accepted (only absurd
 * sizes, over 100 MiB, are refused at once), the PUT is taken as S3 takes it (200), and the disk
 * never holds more than CV_MAX_BYTES for it: the body is read and dropped.
 */

const ctx = useTestApp();
const OVER = CV_LIMITS.maxBytes + 1;

/** `bytes` bytes that start like a PDF (the check refuses them on size before it reads them). */
function oversizePdf(bytes: number): Buffer {
  const body = Buffer.alloc(bytes, 0x20);
  body.write('%PDF-1.4\n');
  return body;
}

/** Bytes held under the local store's directory (files and temporary files alike). */
function storedBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const name of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, name)).size;
  return total;
}

describe('25.5 a CV over CV_MAX_BYTES is answered too_large when named, never stored', () => {
  test('the slot is accepted, the PUT answers 200 storing nothing, the application answers 422 cv_rejected too_large', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Large File Clerk' });
    const slotRes = await intake.api.post('/v1/uploads', { bytes: OVER, fileName: 'huge.pdf' });
    assert.equal(slotRes.statusCode, 201, slotRes.body);
    const slot = slotRes.json() as { uploadId: string; uploadUrl: string };

    const before = storedBytes(ctx.files.directory);
    const put = await putUpload(ctx.app, slot.uploadUrl, oversizePdf(OVER));
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().stored, false, 'the answer says the file was not kept');
    assert.ok(
      (await ctx.files.size(slot.uploadId)) === null,
      'nothing is stored under the upload (at most CV_MAX_BYTES would be allowed; none is needed)',
    );
    assert.ok(
      storedBytes(ctx.files.directory) - before <= CV_LIMITS.maxBytes,
      'the disk grew by at most CV_MAX_BYTES',
    );
    assert.ok((await uploadRow(ctx.handle, slot.uploadId))?.received_at, 'the upload reads as sent');

    const res = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, slot.uploadId),
      {
        'idempotency-key': unique('idem'),
      },
    );
    assert.equal(res.statusCode, 422, res.body);
    const error = res.json().error;
    const words = rejectionMessage('too_large', 'en', CV_LIMITS);
    assert.equal(error.code, 'cv_rejected');
    assert.equal(error.reason, 'too_large');
    assert.equal(error.detail, words.detail);
    assert.equal(error.fix, words.fix);
    assert.ok(error.detail.length > 0 && error.fix.length > 0);
    assert.ok((await uploadRow(ctx.handle, slot.uploadId))?.used_at, 'the refused upload is spent');
  });

  test('an import naming an oversize upload answers 422 cv_rejected too_large as well', async () => {
    const intake = await intakeAccount(ctx.app);
    const slot = (await intake.api.post('/v1/uploads', { bytes: OVER })).json() as {
      uploadId: string;
      uploadUrl: string;
    };
    assert.equal((await putUpload(ctx.app, slot.uploadUrl, oversizePdf(OVER))).statusCode, 200);
    const res = await intake.api.post('/v1/candidates', candidateBody(slot.uploadId), {
      'idempotency-key': unique('idem'),
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error.reason, 'too_large');
  });

  test('an oversize slot never PUT answers 400 upload_invalid, not too_large', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Unsent Clerk' });
    const slot = (await intake.api.post('/v1/uploads', { bytes: OVER })).json() as { uploadId: string };
    const res = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, slot.uploadId),
      {
        'idempotency-key': unique('idem'),
      },
    );
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.code, 'upload_invalid');
  });

  test('absurd sizes (over 100 MiB) are refused at once, naming bytes', async () => {
    const intake = await intakeAccount(ctx.app);
    const res = await intake.api.post('/v1/uploads', { bytes: 104_857_601 });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().error.message, /bytes/);
  });

  test('the local store reads and drops a body over its limit, still held to the declared length', async () => {
    const dir = tempDir();
    const store = new LocalBlobStore({
      dataDir: dir,
      publicBaseUrl: 'https://careers.test',
      signingSecret: 'x'.repeat(40),
      maxStoredBytes: 1024,
    });
    const key = 'upl_oversize';
    const url = new URL(
      await store.presignPut(key, { bytes: 4096, expiresAt: new Date(Date.now() + 60_000) }),
    );
    const query = Object.fromEntries(url.searchParams);
    const headers = { 'content-type': 'application/pdf', 'content-length': '4096' };
    const answer = await store.receive(key, query, headers, Readable.from([Buffer.alloc(4096)]));
    assert.deepEqual(answer, { stored: false });
    assert.equal(await store.size(key), null);
    assert.equal(storedBytes(store.directory), 0, 'no file and no temporary file');
    // A body longer than declared is still refused.
    await assert.rejects(
      store.receive(key, query, headers, Readable.from([Buffer.alloc(5000)])),
      (error: Error) => error.name === 'UploadRefusedError',
    );
  });
});
