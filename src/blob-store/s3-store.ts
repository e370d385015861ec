import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Clock, systemClock } from '../lib/clock.ts';
import {
  assertValidBytes,
  assertValidKey,
  BlobNotFoundError,
  type BlobStore,
  PDF_CONTENT_TYPE,
} from './blob-store.ts';

export interface S3BlobStoreOptions {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, R2, …); null for AWS itself. */
  endpoint: string | null;
  region: string;
  /** Both null: the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Where withLocalFile downloads to; the OS temp directory by default. */
  tempDir?: string;
  clock?: Clock;
}

/** Headers the presigned URL must bind; S3 then refuses a PUT whose headers differ. */
const SIGNED_HEADERS = new Set(['content-type', 'content-length']);

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === 'NotFound' || name === 'NoSuchKey' || httpStatus(error) === 404;
}

/** CV files in an S3-compatible bucket; clients PUT straight to the bucket with its own presigned URL. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #tempDir: string;
  readonly #clock: Clock;

  constructor(options: S3BlobStoreOptions) {
    const config: S3ClientConfig = {
      region: options.region,
      // Checksums only where S3 demands them: the default adds a CRC32 of the empty presign-time
      // body to PUT URLs, and many S3-compatible servers reject the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (options.endpoint !== null) {
      config.endpoint = options.endpoint;
      // Compatible servers rarely resolve bucket.host virtual hosts.
      config.forcePathStyle = true;
    }
    if (options.accessKeyId !== null && options.secretAccessKey !== null) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    this.#client = new S3Client(config);
    this.#bucket = options.bucket;
    this.#tempDir = options.tempDir ?? os.tmpdir();
    this.#clock = options.clock ?? systemClock;
  }

  async presignPut(key: string, options: { bytes: number; expiresAt: Date }): Promise<string> {
    assertValidKey(key);
    assertValidBytes(options.bytes);
    const now = this.#clock.now();
    // Rounded down so the URL never outlives the expiresAt the caller announced.
    const expiresIn = Math.floor((options.expiresAt.getTime() - now.getTime()) / 1000);
    if (!(expiresIn >= 1)) throw new RangeError('expiresAt must be at least one second ahead');
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: key,
      ContentType: PDF_CONTENT_TYPE,
      ContentLength: options.bytes,
    });
    // The presigner leaves content-type unsigned by default; signableHeaders overrides that.
    return getSignedUrl(this.#client, command, {
      expiresIn,
      signingDate: now,
      signableHeaders: SIGNED_HEADERS,
    });
  }

  async putFile(key: string, filePath: string): Promise<void> {
    assertValidKey(key);
    const { size } = await fs.promises.stat(filePath);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: key,
        Body: fs.createReadStream(filePath),
        ContentLength: size,
        ContentType: PDF_CONTENT_TYPE,
      }),
    );
  }

  async size(key: string): Promise<number | null> {
    assertValidKey(key);
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    assertValidKey(key);
    let body: Readable;
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error('GetObject returned no Node.js stream');
      body = object.Body;
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    // A private directory per download: the file's name is never guessable or shared.
    const dir = await fsp.mkdtemp(path.join(this.#tempDir, 'cv-'));
    try {
      const file = path.join(dir, 'object');
      await pipeline(body, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      return await fn(file);
    } finally {
      body.destroy();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  /** Releases the client's pooled connections. */
  async close(): Promise<void> {
    this.#client.destroy();
  }
}
