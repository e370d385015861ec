import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Clock, systemClock } from '../lib/clock.ts';
import {
  assertValidBytes,
  assertValidKey,
  BlobNotFoundError,
  type BlobStore,
  isValidKey,
  PDF_CONTENT_TYPE,
  UploadRefusedError,
} from './blob-store.ts';

const SECRET_FILE = 'upload-signing-key';
const MIN_SECRET_LENGTH = 32;
const TEMP_PREFIX = '.tmp-';
/** Versioned so that a change to what is signed can never be confused with the old format. */
const SIGNATURE_CONTEXT = 'careers-upload-v1';

/**
 * The key that signs local upload URLs: generated once into DATA_DIR/upload-signing-key (0600), so
 * URLs issued before a restart stay valid, the same way the console token is kept.
 */
export function loadOrCreateSigningSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`${file} does not hold a usable signing key; delete it to have a new one generated.`);
  }
  return secret;
}

export interface LocalBlobStoreOptions {
  /** Files live under `${dataDir}/blobs/`. */
  dataDir: string;
  /** The origin (and optional path prefix) the upload route is reached at. */
  publicBaseUrl: string;
  signingSecret: string;
  clock?: Clock;
  /**
   * A PUT declaring more than this is read and dropped, never stored (CV_MAX_BYTES: such a CV is
   * answered `too_large` when named, so the disk never holds more than this for one upload).
   */
  maxStoredBytes?: number;
}

/** The query of a presigned local URL as the HTTP layer parsed it (repeated names give arrays). */
export type UploadQuery = Readonly<Record<string, unknown>>;

function signature(secret: string, method: string, key: string, bytes: number, expires: number): string {
  return createHmac('sha256', secret)
    .update([SIGNATURE_CONTEXT, method, key, String(bytes), PDF_CONTENT_TYPE, String(expires)].join('\n'))
    .digest('hex');
}

function single(query: UploadQuery, name: string): string | null {
  const value = query[name];
  return typeof value === 'string' ? value : null;
}

function wholeNumber(text: string | null): number | null {
  if (text === null || !/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

const AS_ISSUED = 'send the PUT to uploadUrl exactly as it was issued';

function alreadyUploaded(): UploadRefusedError {
  return new UploadRefusedError(
    'already_received',
    'A file was already uploaded to this upload URL; request a new upload to send another file.',
  );
}

/** Passes exactly `bytes` bytes; a body that runs over or stops short fails the pipeline. */
function exactly(bytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > bytes) {
        callback(
          new UploadRefusedError(
            'malformed',
            `The body is longer than the ${bytes} bytes this upload URL was issued for.`,
          ),
        );
        return;
      }
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (seen < bytes) {
        callback(
          new UploadRefusedError(
            'malformed',
            `The body ended after ${seen} of the ${bytes} bytes this upload URL was issued for.`,
          ),
        );
        return;
      }
      callback();
    },
  });
}

/** The client went away mid-body; anything else (a full disk) is the service's failure. */
const CLIENT_GONE = new Set(['ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'EPIPE']);

function uploadFailure(error: unknown, bytes: number): unknown {
  if (error instanceof UploadRefusedError) return error;
  if (CLIENT_GONE.has((error as NodeJS.ErrnoException).code ?? '')) {
    return new UploadRefusedError('malformed', `The upload stopped before all ${bytes} bytes arrived.`);
  }
  return error;
}

async function fileSize(file: string): Promise<number | null> {
  try {
    const stat = await fsp.lstat(file);
    return stat.isFile() ? stat.size : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * CV files on the service's own disk. The service is its own S3: it signs PUT URLs with an HMAC
 * over what S3 would bind (method, key, length, type, expiry) and receives the PUT itself.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly #dir: string;
  readonly #publicBaseUrl: string;
  readonly #secret: string;
  readonly #clock: Clock;
  readonly #maxStoredBytes: number;

  constructor(options: LocalBlobStoreOptions) {
    if (options.signingSecret.length < MIN_SECRET_LENGTH) {
      throw new RangeError(`signingSecret must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    this.#dir = path.join(path.resolve(options.dataDir), 'blobs');
    this.#publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.#secret = options.signingSecret;
    this.#clock = options.clock ?? systemClock;
    this.#maxStoredBytes = options.maxStoredBytes ?? Number.POSITIVE_INFINITY;
  }

  /** The directory the files are kept in. */
  get directory(): string {
    return this.#dir;
  }

  #file(key: string): string {
    assertValidKey(key);
    return path.join(this.#dir, key);
  }

  async presignPut(key: string, options: { bytes: number; expiresAt: Date }): Promise<string> {
    assertValidKey(key);
    assertValidBytes(options.bytes);
    // Rounded down so the URL never outlives the expiresAt the caller announced.
    const expires = Math.floor(options.expiresAt.getTime() / 1000);
    if (!Number.isSafeInteger(expires) || expires < 0) throw new RangeError('expiresAt is not a valid date');
    const sig = signature(this.#secret, 'PUT', key, options.bytes, expires);
    const query = new URLSearchParams({ expires: String(expires), bytes: String(options.bytes), sig });
    return `${this.#publicBaseUrl}/uploads/${key}?${query}`;
  }

  /**
   * Stores the body of a PUT to a presigned URL. Everything the URL binds is checked before a byte
   * is read; the body then streams to a temporary file that only becomes the object once exactly
   * the declared bytes arrived and reached the disk. Every refusal is an UploadRefusedError and
   * leaves nothing behind. A body declared over `maxStoredBytes` is read to its declared end and
   * dropped (`stored: false`): the PUT succeeds as S3's would, and nothing reaches the disk.
   */
  async receive(
    key: string,
    query: UploadQuery,
    headers: IncomingHttpHeaders,
    body: Readable,
  ): Promise<{ stored: boolean }> {
    if (!isValidKey(key)) {
      throw new UploadRefusedError('malformed', `The upload URL does not name a valid upload; ${AS_ISSUED}.`);
    }
    const bytes = this.#verifyUrl(key, query);
    this.#verifyHeaders(headers, bytes);
    if (bytes > this.#maxStoredBytes) {
      await pipeline(
        body,
        exactly(bytes),
        new Writable({ write: (_chunk, _encoding, done) => done() }),
      ).catch((error: unknown) => {
        throw uploadFailure(error, bytes);
      });
      return { stored: false };
    }

    const target = path.join(this.#dir, key);
    await fsp.mkdir(this.#dir, { recursive: true, mode: 0o700 });
    if ((await fileSize(target)) !== null) throw alreadyUploaded();

    const temp = path.join(this.#dir, `${TEMP_PREFIX}${key}-${randomBytes(8).toString('hex')}`);
    try {
      await pipeline(
        body,
        exactly(bytes),
        fs.createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true }),
      );
      await this.#commit(temp, target);
    } catch (error) {
      throw uploadFailure(error, bytes);
    } finally {
      await fsp.rm(temp, { force: true });
    }
    return { stored: true };
  }

  /**
   * Puts a complete temp file in place. link() rather than rename(): it fails when the target
   * exists, so of two concurrent writers to one key exactly one wins and none overwrites.
   */
  async #commit(temp: string, target: string): Promise<void> {
    try {
      await fsp.link(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyUploaded();
      throw error;
    }
    await syncDirectory(this.#dir);
  }

  /** Checks signature, then expiry (so a forged expiry reads as forged); answers the signed size. */
  #verifyUrl(key: string, query: UploadQuery): number {
    const expires = wholeNumber(single(query, 'expires'));
    const bytes = wholeNumber(single(query, 'bytes'));
    const sig = single(query, 'sig');
    if (expires === null || bytes === null || bytes < 1 || sig === null || !/^[0-9a-f]{64}$/.test(sig)) {
      throw new UploadRefusedError('url_refused', `The upload URL is incomplete or malformed; ${AS_ISSUED}.`);
    }
    const expected = Buffer.from(signature(this.#secret, 'PUT', key, bytes, expires), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) {
      throw new UploadRefusedError('url_refused', `The upload URL's signature does not match; ${AS_ISSUED}.`);
    }
    if (this.#clock.now().getTime() > expires * 1000) {
      throw new UploadRefusedError(
        'url_refused',
        `The upload URL expired at ${new Date(expires * 1000).toISOString()}; request a new upload.`,
      );
    }
    return bytes;
  }

  #verifyHeaders(headers: IncomingHttpHeaders, bytes: number): void {
    const type = headers['content-type'];
    if (type === undefined || type.trim().toLowerCase() !== PDF_CONTENT_TYPE) {
      throw new UploadRefusedError(
        'wrong_type',
        `Send the file with Content-Type: ${PDF_CONTENT_TYPE} exactly, without parameters` +
          (type === undefined ? '.' : ` (got "${type}").`),
      );
    }
    const length = headers['content-length'];
    if (length === undefined) {
      throw new UploadRefusedError(
        'malformed',
        `Send Content-Length: ${bytes}; this upload URL takes exactly ${bytes} bytes and no chunked body.`,
      );
    }
    if (wholeNumber(length) !== bytes) {
      throw new UploadRefusedError(
        'malformed',
        `Content-Length is ${length} but this upload URL was issued for exactly ${bytes} bytes.`,
      );
    }
  }

  async putFile(key: string, filePath: string): Promise<void> {
    const target = this.#file(key);
    await fsp.mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const temp = path.join(this.#dir, `${TEMP_PREFIX}${key}-${randomBytes(8).toString('hex')}`);
    try {
      await fsp.copyFile(filePath, temp);
      await fsp.chmod(temp, 0o600);
      await this.#commit(temp, target);
    } finally {
      await fsp.rm(temp, { force: true });
    }
  }

  async size(key: string): Promise<number | null> {
    return fileSize(this.#file(key));
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const file = this.#file(key);
    if ((await fileSize(file)) === null) throw new BlobNotFoundError(key);
    return fn(file);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.#file(key), { force: true });
  }

  /**
   * Removes temporary files a crash left mid-upload (a live upload's file is younger than any URL's
   * lifetime); answers how many went. Meant for start-up or a periodic sweep.
   */
  async removeAbandonedTempFiles(olderThanMs = 3_600_000): Promise<number> {
    let names: string[];
    try {
      names = await fsp.readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      const file = path.join(this.#dir, name);
      const stat = await fsp.lstat(file).catch(() => null);
      if (stat !== null && stat.mtimeMs < cutoff) {
        await fsp.rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  async close(): Promise<void> {}
}
