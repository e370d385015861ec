/** The only type a CV upload may declare; the presigned URL binds it, so a PUT cannot change it. */
export const PDF_CONTENT_TYPE = 'application/pdf';

/**
 * Where CV files live between the presigned PUT and the checks that read them: the service's own
 * disk (it signs and receives the PUT itself) or an S3-compatible bucket (the bucket's own URL).
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /**
   * A URL the client PUTs the file to. It binds the key, the method, `Content-Length: bytes`,
   * `Content-Type: application/pdf` and the expiry; any other request to it is refused.
   */
  presignPut(key: string, options: { bytes: number; expiresAt: Date }): Promise<string>;
  /** The stored object's size in bytes, or null when nothing was stored under the key. */
  size(key: string): Promise<number | null>;
  /**
   * Runs `fn` with a path to a file holding the object, valid until `fn` settles. Rejects with
   * BlobNotFoundError when nothing is stored.
   */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  /** Removes the object; removing one that is absent is not an error. */
  delete(key: string): Promise<void>;
  /** Stores a file the service itself received (the hosted apply page's form), streaming it. */
  putFile(key: string, filePath: string): Promise<void>;
}

/**
 * Why the local store refused a PUT to one of its presigned URLs: the URL itself (`url_refused`:
 * incomplete, signed otherwise, or expired), the request's framing or body (`malformed`), its
 * Content-Type (`wrong_type`), or a file already received for the key (`already_received`). The
 * HTTP layer maps each kind to an answer; the store knows nothing of HTTP status codes.
 */
export type UploadRefusal = 'malformed' | 'url_refused' | 'wrong_type' | 'already_received';

export class UploadRefusedError extends Error {
  readonly kind: UploadRefusal;
  constructor(kind: UploadRefusal, message: string) {
    super(message);
    this.name = 'UploadRefusedError';
    this.kind = kind;
  }
}

export class BlobNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`No object is stored under "${key}".`);
    this.name = 'BlobNotFoundError';
    this.key = key;
  }
}

/**
 * Keys are the service's own ids (`upl_…`). Anything else is refused before it reaches a path or a
 * bucket: no dots, slashes or backslashes means no traversal, and no leading dot means a key never
 * names one of the local store's temporary files.
 */
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isValidKey(key: unknown): key is string {
  return typeof key === 'string' && KEY.test(key);
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new RangeError(`Invalid blob key ${JSON.stringify(key)}`);
}

export function assertValidBytes(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new RangeError(`bytes must be a positive integer, got ${bytes}`);
  }
}
