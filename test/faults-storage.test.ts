// Issue 12 item 5: a full, read-only or forbidden disk answers 503 `unavailable` in the spec's body
// with a message an operator understands, counted in dependency_faults_total, and leaves nothing
// half-written; S3 failures likewise; a start-up on an unwritable DATA_DIR prints one clear line
// and exits non-zero. The disk faults are real: a small tmpfs filled up or remounted read-only
// (skipped where this process may not mount).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { S3BlobStore } from '../src/blob-store/s3-store.ts';
import { freePort, startService } from './service-process.ts';
import { intakeAccount } from './support/accounts.ts';
import { METRICS_TOKEN, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { pdfFixture, putUpload } from './support/intake.ts';

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-disk-'));
const mount = (...args: string[]) => spawnSync('mount', args, { stdio: 'pipe' }).status === 0;
const canMount = process.platform === 'linux' && mount('-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint);
const skip = canMount ? false : 'needs permission to mount a tmpfs';

let api: Awaited<ReturnType<typeof intakeAccount>>['api'];
const pdf = pdfFixture('cv-2-pages.pdf');

// The CV store on the small tmpfs (a plain temp dir when the file is skipped).
const ctx = useTestApp({ filesDir: mountPoint }, async () => {
  ({ api } = await intakeAccount(ctx.app));
});

after(() => {
  if (!skip) spawnSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

async function slot(): Promise<string> {
  const res = await api.post('/v1/uploads', { bytes: pdf.length });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().uploadUrl;
}

function blobFiles(): string[] {
  const dir = path.join(mountPoint, 'blobs');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function faultCount(reason: string): Promise<number> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = res.body
    .split('\n')
    .find((l) => l.startsWith(`dependency_faults_total{dependency="storage",reason="${reason}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('disk faults on the upload PUT', { skip }, () => {
  test('a full disk: 503 unavailable naming it, Retry-After, counted, nothing left; then it works', async () => {
    const uploadUrl = await slot();
    const before = blobFiles();
    const filler = path.join(mountPoint, 'filler');
    assert.throws(() => fs.writeFileSync(filler, Buffer.alloc(512 * 1024)), { code: 'ENOSPC' });
    const res = await putUpload(ctx.app, uploadUrl, pdf);
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(errorOf(res).code, 'unavailable');
    assert.match(errorOf(res).message, /disk .* is full/);
    assert.equal(res.headers['retry-after'], '30');
    assert.equal(await faultCount('ENOSPC'), 1);
    assert.deepEqual(blobFiles(), before, 'no partial or temporary file is left');

    fs.rmSync(filler);
    const again = await putUpload(ctx.app, uploadUrl, pdf);
    assert.equal(again.statusCode, 200, again.body);
  });

  test('a read-only disk: 503 unavailable naming it', async () => {
    const uploadUrl = await slot();
    assert.ok(mount('-o', 'remount,ro', mountPoint));
    try {
      const res = await putUpload(ctx.app, uploadUrl, pdf);
      assert.equal(res.statusCode, 503, res.body);
      assert.match(errorOf(res).message, /read-only/);
      assert.equal(await faultCount('EROFS'), 1);
    } finally {
      assert.ok(mount('-o', 'remount,rw', mountPoint));
    }
  });

  test('a directory the service may not write: 503 unavailable naming it', {
    skip: process.getuid?.() === 0 ? 'root ignores file permissions' : false,
  }, async () => {
    const uploadUrl = await slot();
    fs.chmodSync(path.join(mountPoint, 'blobs'), 0o500);
    try {
      const res = await putUpload(ctx.app, uploadUrl, pdf);
      assert.equal(res.statusCode, 503, res.body);
      assert.match(errorOf(res).message, /permission denied/);
    } finally {
      fs.chmodSync(path.join(mountPoint, 'blobs'), 0o700);
    }
  });

  test('start-up on a read-only DATA_DIR: one clear line, exit non-zero', async () => {
    assert.ok(mount('-o', 'remount,ro', mountPoint));
    try {
      await assert.rejects(startService({ DATA_DIR: mountPoint }), (error: Error) => {
        const lines = error.message.split('\n').slice(1).filter(Boolean);
        assert.equal(lines.length, 1, error.message);
        assert.match(lines[0]!, /^Cannot start: DATA_DIR .* is not writable: read-only file system/);
        return true;
      });
    } finally {
      assert.ok(mount('-o', 'remount,rw', mountPoint));
    }
  });
});

describe('S3 failures', () => {
  test('an unreachable S3 endpoint is a storage fault answered 503, not a 500', async () => {
    const { faultError } = await import('../src/plugins/fault-errors.ts');
    const store = new S3BlobStore({
      bucket: 'cvs',
      endpoint: `http://127.0.0.1:${await freePort()}`,
      region: 'us-east-1',
      accessKeyId: 'test',
      secretAccessKey: 'test-secret',
    });
    const error = await store.size('some-key').then(
      () => null,
      (e: unknown) => e,
    );
    await store.close();
    assert.ok(error, 'the S3 call failed');
    const counted: string[] = [];
    const request = { server: { faultMetrics: { fault: (d: string) => counted.push(d), up() {} } } };
    const answer = faultError(request as never, error);
    assert.equal(answer?.code, 'unavailable');
    assert.match(answer!.message, /S3/);
    assert.deepEqual(counted, ['storage']);
  });
});

describe('start-up on an unusable DATA_DIR (no mount needed)', () => {
  test('DATA_DIR under a regular file: one clear line, exit non-zero, no stack trace', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'faults-file-')), 'not-a-dir');
    fs.writeFileSync(file, '');
    try {
      await assert.rejects(startService({ DATA_DIR: path.join(file, 'data') }), (error: Error) => {
        const lines = error.message.split('\n').slice(1).filter(Boolean);
        assert.equal(lines.length, 1, error.message);
        assert.match(
          lines[0]!,
          /^Cannot start: DATA_DIR .* is not writable: a part of the path is not a directory/,
        );
        return true;
      });
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
