import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  BlobNotFoundError,
  createBlobStore,
  LocalBlobStore,
  loadOrCreateSigningSecret,
  UploadRefusedError,
} from '../src/blob-store/index.ts';
import { S3BlobStore } from '../src/blob-store/s3-store.ts';
import { registerLocalUploadRoute, type UploadReceiver } from '../src/http/uploads/receive-upload.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { registerErrorHandling } from '../src/plugins/error-handler.ts';
import { S3_KEY, S3_SECRET, S3rver, type S3rverServer } from './support/s3.ts';

const PUBLIC_BASE_URL = 'https://careers.test';
const PDF = 'application/pdf';
const FIVE_MINUTES = 5 * 60_000;

const soon = () => new Date(Date.now() + FIVE_MINUTES);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A PUT written by hand, so that headers and body can disagree with the URL in any way. `rawPath`
 * is sent as is (the URL class would resolve `..` segments before they reach the server).
 */
function rawPut(
  url: string,
  headers: Record<string, string | number>,
  body: Buffer,
  rawPath?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port, pathname, search } = new URL(url);
    const options = { method: 'PUT', hostname, port, path: rawPath ?? `${pathname}${search}`, headers };
    const request = http.request(options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function assertRefused(answer: Answer, status: number, code: string, message?: RegExp): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const { error } = JSON.parse(answer.body) as {
    error: { code: string; message: string; requestId: string };
  };
  assert.equal(error.code, code);
  assert.match(error.requestId, /^req-/);
  if (message) assert.match(error.message, message);
}

/** Deleting removes the blob, a second delete is quiet, and reading it after is BlobNotFoundError. */
async function assertDeletes(store: LocalBlobStore | S3BlobStore, key: string): Promise<void> {
  await store.delete(key);
  assert.equal(await store.size(key), null);
  await store.delete(key);
  await assert.rejects(
    store.withLocalFile(key, async () => 1),
    BlobNotFoundError,
  );
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('local blob store', () => {
  let root: string;
  let dataDir: string;
  let store: LocalBlobStore;
  let app: FastifyInstance;
  let origin: string;
  const received: string[] = [];
  /** How every receive the route started ended (null: stored), for tests to wait on and read. */
  const receiving: Promise<unknown>[] = [];

  /** The store signs for the public base URL; the test server listens elsewhere. */
  const onServer = (presigned: string): string => {
    const url = new URL(presigned);
    return `${origin}${url.pathname}${url.search}`;
  };
  const blobsDir = () => path.join(dataDir, 'blobs');
  /** A new key with 10 bytes PUT through its presigned URL (200). */
  const storeTenBytes = async (): Promise<string> => {
    const key = newId('upl');
    const url = onServer(await store.presignPut(key, { bytes: 10, expiresAt: soon() }));
    assert.equal(
      (await rawPut(url, { 'content-type': PDF, 'content-length': 10 }, randomBytes(10))).status,
      200,
    );
    return key;
  };
  const storedNames = async (): Promise<string[]> => (await fsp.readdir(blobsDir()).catch(() => [])).sort();

  before(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'blob-store-local-'));
    dataDir = path.join(root, 'data');
    store = new LocalBlobStore({
      dataDir,
      publicBaseUrl: `${PUBLIC_BASE_URL}/`,
      signingSecret: loadOrCreateSigningSecret(dataDir),
    });
    const watched: UploadReceiver = {
      receive(...args) {
        const pending = store.receive(...args);
        receiving.push(
          pending.then(
            () => null,
            (error: unknown) => error,
          ),
        );
        return pending;
      },
    };
    let requestSeq = 0;
    app = Fastify({ genReqId: () => `req-${++requestSeq}` });
    registerErrorHandling(app, async () => {});
    registerLocalUploadRoute(app, watched, async (key) => {
      received.push(key);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await app.close();
    await fsp.rm(root, { recursive: true, force: true });
  });

  test('the signing key is generated once, private to the owner', async () => {
    const file = path.join(dataDir, 'upload-signing-key');
    assert.equal((await fsp.stat(file)).mode & 0o777, 0o600);
    assert.equal(loadOrCreateSigningSecret(dataDir), loadOrCreateSigningSecret(dataDir));
    assert.ok(loadOrCreateSigningSecret(dataDir).length >= 32);
  });

  test('a presigned URL points at the upload route and carries expiry, size and signature', async () => {
    const key = newId('upl');
    const expiresAt = new Date('2030-01-01T00:00:00.900Z');
    const url = new URL(await store.presignPut(key, { bytes: 1234, expiresAt }));
    assert.equal(url.origin, PUBLIC_BASE_URL);
    assert.equal(url.pathname, `/uploads/${key}`);
    assert.equal(url.searchParams.get('expires'), String(Math.floor(expiresAt.getTime() / 1000)));
    assert.equal(url.searchParams.get('bytes'), '1234');
    assert.match(url.searchParams.get('sig') ?? '', /^[0-9a-f]{64}$/);
  });

  test('a PUT over a real socket stores exactly the bytes sent', async () => {
    const key = newId('upl');
    const file = randomBytes(3000);
    const url = onServer(await store.presignPut(key, { bytes: file.length, expiresAt: soon() }));
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': PDF }, body: file });
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), { stored: true });
    assert.equal(await store.size(key), file.length);
    const read = await store.withLocalFile(key, async (p) => fsp.readFile(p));
    assert.ok(read.equals(file));
    assert.ok(received.includes(key));
    assert.deepEqual(
      (await storedNames()).filter((n) => n.startsWith('.')),
      [],
      'no temporary file is left',
    );
    assert.equal((await fsp.stat(path.join(blobsDir(), key))).mode & 0o777, 0o600);
  });

  test('a wrong Content-Type is refused with 415 and stores nothing', async () => {
    const key = newId('upl');
    const file = randomBytes(100);
    const url = onServer(await store.presignPut(key, { bytes: file.length, expiresAt: soon() }));
    for (const type of ['application/octet-stream', 'application/pdf; charset=utf-8', 'text/plain']) {
      const answer = await rawPut(url, { 'content-type': type, 'content-length': file.length }, file);
      assertRefused(answer, 415, 'unsupported_media_type', /application\/pdf/);
      assert.equal(answer.headers.connection, 'close', 'a refused body is not read to its end');
    }
    const untyped = await rawPut(url, { 'content-length': file.length }, file);
    assertRefused(untyped, 415, 'unsupported_media_type');
    assert.equal(await store.size(key), null);
    assert.ok(!received.includes(key));
  });

  test('a Content-Length other than the signed size is refused and stores nothing', async () => {
    const key = newId('upl');
    const url = onServer(await store.presignPut(key, { bytes: 100, expiresAt: soon() }));
    const shorter = await rawPut(url, { 'content-type': PDF, 'content-length': 99 }, randomBytes(99));
    assertRefused(shorter, 400, 'bad_request', /Content-Length is 99 .* exactly 100 bytes/);
    const longer = await rawPut(url, { 'content-type': PDF, 'content-length': 101 }, randomBytes(101));
    assertRefused(longer, 400, 'bad_request', /Content-Length is 101/);
    const chunked = await rawPut(
      url,
      { 'content-type': PDF, 'transfer-encoding': 'chunked' },
      randomBytes(100),
    );
    assertRefused(chunked, 400, 'bad_request', /Send Content-Length: 100/);
    assert.equal(await store.size(key), null);
    assert.deepEqual(
      (await storedNames()).filter((n) => n.includes(key)),
      [],
    );
  });

  test('a body longer or shorter than declared fails the stream and leaves nothing', async () => {
    const existing = await storedNames();
    for (const sent of [110, 90]) {
      const key = newId('upl');
      const url = new URL(await store.presignPut(key, { bytes: 100, expiresAt: soon() }));
      const query = Object.fromEntries(url.searchParams);
      // HTTP framing cannot carry more bytes than Content-Length, so the store's own count is
      // checked directly with a stream that lies about its length.
      const lying = Readable.from([randomBytes(60), randomBytes(sent - 60)]);
      await assert.rejects(
        store.receive(key, query, { 'content-type': PDF, 'content-length': '100' }, lying),
        (error: unknown) => error instanceof UploadRefusedError && error.kind === 'malformed',
      );
      assert.equal(await store.size(key), null);
    }
    assert.deepEqual(await storedNames(), existing);
  });

  test('a client that hangs up mid-body leaves nothing behind', async () => {
    const key = newId('upl');
    const url = onServer(await store.presignPut(key, { bytes: 200_000, expiresAt: soon() }));
    const started = receiving.length;
    const request = http.request(url, {
      method: 'PUT',
      headers: { 'content-type': PDF, 'content-length': 200_000 },
    });
    request.on('error', () => {});
    request.write(randomBytes(100_000));
    await waitFor('the partial upload on disk', async () => {
      const names = await storedNames();
      return names.some((n) => n.startsWith('.tmp-') && n.includes(key)) ? true : null;
    });
    request.destroy();
    await waitFor('the server to start receiving', async () => (receiving.length > started ? true : null));
    const outcome = await receiving[started];
    assert.ok(outcome instanceof UploadRefusedError && outcome.kind === 'malformed', String(outcome));
    assert.match(outcome.message, /stopped before all 200000 bytes/);
    assert.equal(await store.size(key), null);
    assert.deepEqual(
      (await storedNames()).filter((n) => n.includes(key)),
      [],
    );
  });

  test('an expired URL is refused with 403', async () => {
    const key = newId('upl');
    const file = randomBytes(50);
    const presigned = await store.presignPut(key, { bytes: 50, expiresAt: new Date(Date.now() - 1000) });
    const res = await rawPut(onServer(presigned), { 'content-type': PDF, 'content-length': 50 }, file);
    assertRefused(res, 403, 'forbidden', /expired/);
    assert.equal(await store.size(key), null);
  });

  test('a URL whose signature, key, size or expiry was altered is refused with 403', async () => {
    const key = newId('upl');
    const other = newId('upl');
    const file = randomBytes(64);
    const url = new URL(onServer(await store.presignPut(key, { bytes: 64, expiresAt: soon() })));
    const sig = url.searchParams.get('sig')!;
    const headers = { 'content-type': PDF, 'content-length': 64 };

    const forged = new URL(url);
    forged.searchParams.set('sig', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
    assertRefused(await rawPut(forged.href, headers, file), 403, 'forbidden', /signature/);

    const moved = new URL(url);
    moved.pathname = `/uploads/${other}`;
    assertRefused(await rawPut(moved.href, headers, file), 403, 'forbidden', /signature/);

    const resized = new URL(url);
    resized.searchParams.set('bytes', '65');
    assertRefused(
      await rawPut(resized.href, { ...headers, 'content-length': 65 }, randomBytes(65)),
      403,
      'forbidden',
      /signature/,
    );

    const extended = new URL(url);
    extended.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    assertRefused(await rawPut(extended.href, headers, file), 403, 'forbidden', /signature/);

    for (const name of ['sig', 'bytes', 'expires']) {
      const missing = new URL(url);
      missing.searchParams.delete(name);
      assertRefused(await rawPut(missing.href, headers, file), 403, 'forbidden', /malformed/);
    }
    const doubled = new URL(url);
    doubled.searchParams.append('sig', sig);
    assertRefused(await rawPut(doubled.href, headers, file), 403, 'forbidden');

    const otherSecret = new LocalBlobStore({
      dataDir,
      publicBaseUrl: PUBLIC_BASE_URL,
      signingSecret: randomBytes(32).toString('hex'),
    });
    const foreign = onServer(await otherSecret.presignPut(key, { bytes: 64, expiresAt: soon() }));
    assertRefused(await rawPut(foreign, headers, file), 403, 'forbidden', /signature/);

    assert.equal(await store.size(key), null);
    assert.equal(await store.size(other), null);
    // The untouched URL still works: the refusals spent nothing.
    assert.equal((await rawPut(url.href, headers, file)).status, 200);
  });

  test('a second PUT to the same URL is refused with 409 and keeps the first file', async () => {
    const key = newId('upl');
    const first = randomBytes(80);
    const url = onServer(await store.presignPut(key, { bytes: 80, expiresAt: soon() }));
    const headers = { 'content-type': PDF, 'content-length': 80 };
    assert.equal((await rawPut(url, headers, first)).status, 200);
    assertRefused(await rawPut(url, headers, randomBytes(80)), 409, 'conflict', /already uploaded/);
    assert.ok((await store.withLocalFile(key, (p) => fsp.readFile(p))).equals(first));
  });

  test('concurrent PUTs to one URL: exactly one is stored', async () => {
    const key = newId('upl');
    const url = onServer(await store.presignPut(key, { bytes: 4096, expiresAt: soon() }));
    const headers = { 'content-type': PDF, 'content-length': 4096 };
    const bodies = Array.from({ length: 5 }, () => randomBytes(4096));
    const answers = await Promise.all(bodies.map((b) => rawPut(url, headers, b)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 409, 409, 409, 409]);
    const stored = await store.withLocalFile(key, (p) => fsp.readFile(p));
    assert.ok(bodies[answers.findIndex((a) => a.status === 200)]!.equals(stored));
    assert.deepEqual(
      (await storedNames()).filter((n) => n.startsWith('.')),
      [],
    );
  });

  test('keys that could leave the store directory are refused everywhere', async () => {
    const escapes = ['../escape', '..', '.hidden', 'a/b', 'a\\b', '', 'x'.repeat(200), 'upl_é'];
    for (const key of escapes) {
      await assert.rejects(store.presignPut(key, { bytes: 1, expiresAt: soon() }), RangeError);
      await assert.rejects(store.size(key), RangeError);
      await assert.rejects(store.delete(key), RangeError);
      await assert.rejects(
        store.withLocalFile(key, async () => 1),
        RangeError,
      );
    }
    const key = newId('upl');
    const url = new URL(onServer(await store.presignPut(key, { bytes: 10, expiresAt: soon() })));
    const headers = { 'content-type': PDF, 'content-length': 10 };
    for (const segment of ['..%2F..%2Fescape', '%2E%2E', '.tmp-x']) {
      const answer = await rawPut(origin, headers, randomBytes(10), `/uploads/${segment}${url.search}`);
      assertRefused(answer, 400, 'bad_request', /valid upload/);
    }
    assert.ok(!fs.existsSync(path.join(root, 'escape')));
    assert.ok(!fs.existsSync(path.join(dataDir, 'escape')));
  });

  test('a 5 MB upload is streamed to disk while it arrives', async () => {
    const key = newId('upl');
    const size = 5 * 1024 * 1024;
    const file = randomBytes(size);
    const url = onServer(await store.presignPut(key, { bytes: size, expiresAt: soon() }));
    const rssBefore = process.memoryUsage().rss;
    const answer = new Promise<number>((resolve, reject) => {
      const request = http.request(url, {
        method: 'PUT',
        headers: { 'content-type': PDF, 'content-length': size },
      });
      request.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      request.on('error', reject);
      // Half now; the rest only once the first half is seen on disk, which a server that buffered
      // the whole body before writing could never show.
      request.write(file.subarray(0, size / 2));
      waitFor('half the upload on disk', async () => {
        for (const name of await storedNames()) {
          if (!name.startsWith('.tmp-') || !name.includes(key)) continue;
          const stat = await fsp.stat(path.join(blobsDir(), name)).catch(() => null);
          if (stat !== null && stat.size >= 1024 * 1024) return true;
        }
        return null;
      }).then(() => request.end(file.subarray(size / 2)), reject);
    });
    assert.equal(await answer, 200);
    assert.equal(await store.size(key), size);
    assert.ok((await store.withLocalFile(key, (p) => fsp.readFile(p))).equals(file));
    // A loose bound: the body must not be held in memory (twice) on top of the client's copy.
    assert.ok(process.memoryUsage().rss - rssBefore < 4 * size, 'memory grew by more than the upload');
  });

  test('delete removes the file and is quiet about absent ones', async () => {
    const key = await storeTenBytes();
    await assertDeletes(store, key);
  });

  test('abandoned temporary files are swept; live objects are not', async () => {
    const key = await storeTenBytes();
    const stale = path.join(blobsDir(), `.tmp-${newId('upl')}-0000`);
    await fsp.writeFile(stale, 'partial');
    const old = new Date(Date.now() - 2 * 3_600_000);
    await fsp.utimes(stale, old, old);
    assert.equal(await store.removeAbandonedTempFiles(), 1);
    assert.ok(!fs.existsSync(stale));
    assert.equal(await store.size(key), 10);
  });

  test('the store follows the clock it is given', async () => {
    const clock = new ManualClock(new Date());
    const timed = new LocalBlobStore({
      dataDir,
      publicBaseUrl: PUBLIC_BASE_URL,
      signingSecret: 'k'.repeat(32),
      clock,
    });
    const key = newId('upl');
    const url = new URL(
      await timed.presignPut(key, { bytes: 3, expiresAt: new Date(clock.now().getTime() + 60_000) }),
    );
    clock.advance(61_000);
    await assert.rejects(
      timed.receive(
        key,
        Object.fromEntries(url.searchParams),
        { 'content-type': PDF, 'content-length': '3' },
        Readable.from([Buffer.from('abc')]),
      ),
      (error: unknown) =>
        error instanceof UploadRefusedError && error.kind === 'url_refused' && /expired/.test(error.message),
    );
  });
});

// ---- S3 ----

const BUCKET = 'cvs';

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Recomputes a presigned SigV4 URL's signature from the request as it arrived, written from the
 * AWS specification rather than with the SDK. s3rver checks only the access key and the expiry
 * of V4 requests, so this stands in for S3's own check of the signed headers.
 */
function presignedSignatureHolds(request: http.IncomingMessage): boolean {
  const url = new URL(request.url ?? '/', 'http://s3.invalid');
  const query = url.searchParams;
  const provided = query.get('X-Amz-Signature');
  const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';');
  const [, date, region, service] = (query.get('X-Amz-Credential') ?? '').split('/');
  if (!provided || !date || !region || !service) return false;
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalHeaders = signedHeaders
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    query.get('X-Amz-Date'),
    `${date}/${region}/${service}/aws4_request`,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${S3_SECRET}`, date), region), service), 'aws4_request');
  return hmac(signingKey, stringToSign).toString('hex') === provided;
}

describe('S3 blob store (against s3rver)', () => {
  let root: string;
  let s3: S3rverServer;
  let endpoint: string;
  let store: S3BlobStore;
  let downloads: string;

  before(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'blob-store-s3-'));
    downloads = path.join(root, 'downloads');
    await fsp.mkdir(downloads);
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(root, 's3rver'),
      vhostBuckets: false,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    // Presigned requests must pass the SigV4 check s3rver lacks before s3rver sees them.
    const server = s3.httpServer;
    const [handler] = server.listeners('request') as ((
      req: http.IncomingMessage,
      res: http.ServerResponse,
    ) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (
        new URL(req.url ?? '/', endpoint).searchParams.has('X-Amz-Signature') &&
        !presignedSignatureHolds(req)
      ) {
        res.writeHead(403, { 'content-type': 'application/xml', connection: 'close' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
      handler!(req, res);
    });
    store = new S3BlobStore({
      bucket: BUCKET,
      endpoint,
      region: 'us-east-1',
      accessKeyId: S3_KEY,
      secretAccessKey: S3_SECRET,
      tempDir: downloads,
    });
  });

  after(async () => {
    await store?.close();
    s3.httpServer.closeAllConnections();
    await s3.close();
    await fsp.rm(root, { recursive: true, force: true });
  });

  test('createBlobStore picks S3 when a bucket is configured, local disk otherwise', async () => {
    const s3Config = {
      s3: { bucket: BUCKET, endpoint, region: 'us-east-1', accessKeyId: S3_KEY, secretAccessKey: S3_SECRET },
    };
    const dataDir = path.join(root, 'data');
    const fromS3 = await createBlobStore(s3Config, { publicBaseUrl: PUBLIC_BASE_URL, dataDir });
    assert.equal(fromS3.kind, 's3');
    assert.ok(fromS3 instanceof S3BlobStore);
    await fromS3.close();
    const local = await createBlobStore({ s3: null }, { publicBaseUrl: PUBLIC_BASE_URL, dataDir });
    assert.equal(local.kind, 'local');
    assert.ok(local instanceof LocalBlobStore);
    assert.ok(fs.existsSync(path.join(dataDir, 'upload-signing-key')));
  });

  test('the presigned URL signs Content-Length, Content-Type and the expiry, path-style', async () => {
    const key = newId('upl');
    const url = new URL(
      await store.presignPut(key, { bytes: 2048, expiresAt: new Date(Date.now() + 300_500) }),
    );
    assert.equal(url.origin, endpoint);
    assert.equal(url.pathname, `/${BUCKET}/${key}`);
    assert.equal(url.searchParams.get('X-Amz-SignedHeaders'), 'content-length;content-type;host');
    assert.equal(url.searchParams.get('X-Amz-Expires'), '300');
    assert.ok(![...url.searchParams.keys()].some((k) => /checksum/i.test(k)), url.href);
    await assert.rejects(
      store.presignPut(key, { bytes: 1, expiresAt: new Date(Date.now() - 1000) }),
      RangeError,
    );
    await assert.rejects(
      store.presignPut('../x', { bytes: 1, expiresAt: new Date(Date.now() + 60_000) }),
      RangeError,
    );
  });

  test('presign, PUT with fetch, size, read back through a local file, delete', async () => {
    const key = newId('upl');
    const file = randomBytes(10_000);
    const url = await store.presignPut(key, {
      bytes: file.length,
      expiresAt: new Date(Date.now() + FIVE_MINUTES),
    });
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': PDF }, body: file });
    assert.equal(res.status, 200, await res.text());
    assert.equal(await store.size(key), file.length);

    let seenPath = '';
    const read = await store.withLocalFile(key, async (p) => {
      seenPath = p;
      assert.equal((await fsp.stat(p)).mode & 0o777, 0o600);
      return fsp.readFile(p);
    });
    assert.ok(read.equals(file));
    assert.ok(!fs.existsSync(seenPath), 'the downloaded copy is removed');
    assert.deepEqual(await fsp.readdir(downloads), []);

    await assertDeletes(store, key);
    assert.deepEqual(await fsp.readdir(downloads), [], 'a failed download leaves no directory');
  });

  test('withLocalFile removes the download when the reader fails', async () => {
    const key = newId('upl');
    const file = randomBytes(500);
    const url = await store.presignPut(key, { bytes: 500, expiresAt: new Date(Date.now() + FIVE_MINUTES) });
    assert.equal(
      (await fetch(url, { method: 'PUT', headers: { 'content-type': PDF }, body: file })).status,
      200,
    );
    await assert.rejects(
      store.withLocalFile(key, async () => {
        throw new Error('reader failed');
      }),
      /reader failed/,
    );
    assert.deepEqual(await fsp.readdir(downloads), []);
    await store.delete(key);
  });

  test('a PUT whose Content-Type, Content-Length or signature differ from the URL fails the signature', async () => {
    const key = newId('upl');
    const file = randomBytes(300);
    const url = await store.presignPut(key, { bytes: 300, expiresAt: new Date(Date.now() + FIVE_MINUTES) });
    const wrongType = await rawPut(
      url,
      { 'content-type': 'application/octet-stream', 'content-length': 300 },
      file,
    );
    assert.equal(wrongType.status, 403, wrongType.body);
    const withCharset = await rawPut(
      url,
      { 'content-type': `${PDF}; charset=utf-8`, 'content-length': 300 },
      file,
    );
    assert.equal(withCharset.status, 403, withCharset.body);
    const shorter = await rawPut(url, { 'content-type': PDF, 'content-length': 299 }, file.subarray(0, 299));
    assert.equal(shorter.status, 403, shorter.body);
    const forged = new URL(url);
    const sig = forged.searchParams.get('X-Amz-Signature')!;
    forged.searchParams.set('X-Amz-Signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
    const tampered = await rawPut(forged.href, { 'content-type': PDF, 'content-length': 300 }, file);
    assert.equal(tampered.status, 403, tampered.body);
    assert.equal(await store.size(key), null);
    assert.equal((await rawPut(url, { 'content-type': PDF, 'content-length': 300 }, file)).status, 200);
    await store.delete(key);
  });

  test('s3rver itself refuses an expired URL', async () => {
    // Signed ten minutes in the past for five minutes: well formed, validly signed, expired.
    const past = new ManualClock(new Date(Date.now() - 2 * FIVE_MINUTES));
    const late = new S3BlobStore({
      bucket: BUCKET,
      endpoint,
      region: 'us-east-1',
      accessKeyId: S3_KEY,
      secretAccessKey: S3_SECRET,
      clock: past,
    });
    const key = newId('upl');
    const url = await late.presignPut(key, {
      bytes: 20,
      expiresAt: new Date(past.now().getTime() + FIVE_MINUTES),
    });
    await late.close();
    const answer = await rawPut(url, { 'content-type': PDF, 'content-length': 20 }, randomBytes(20));
    assert.equal(answer.status, 403, answer.body);
    assert.match(answer.body, /AccessDenied|expired/);
    assert.equal(await store.size(key), null);
  });
});
