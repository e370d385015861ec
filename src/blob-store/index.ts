import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { LocalBlobStore, loadOrCreateSigningSecret } from './local-store.ts';
import type { S3BlobStore } from './s3-store.ts';

export {
  assertValidKey,
  BlobNotFoundError,
  type BlobStore,
  isValidKey,
  PDF_CONTENT_TYPE,
  type UploadRefusal,
  UploadRefusedError,
} from './blob-store.ts';
export {
  LocalBlobStore,
  type LocalBlobStoreOptions,
  loadOrCreateSigningSecret,
  type UploadQuery,
} from './local-store.ts';
// The S3 store is imported only when S3 is configured: the AWS SDK costs start-up time and memory
// that a service on local disk never needs. Import it from './s3-store.ts' directly.
export type { S3BlobStore, S3BlobStoreOptions } from './s3-store.ts';

/** Narrows on `kind`: only the local store receives PUTs itself (src/http/uploads/receive-upload.ts). */
export type ConfiguredBlobStore = LocalBlobStore | S3BlobStore;

/** The S3-compatible store when S3_BUCKET is set, else files under DATA_DIR/blobs. */
export async function createBlobStore(
  config: Pick<Config, 's3'> & { cv?: Pick<Config['cv'], 'maxBytes'> },
  options: { publicBaseUrl: string; dataDir: string; clock?: Clock },
): Promise<ConfiguredBlobStore> {
  const clock = options.clock === undefined ? {} : { clock: options.clock };
  if (config.s3 !== null) {
    const { S3BlobStore } = await import('./s3-store.ts');
    return new S3BlobStore({ ...config.s3, ...clock });
  }
  return new LocalBlobStore({
    dataDir: options.dataDir,
    publicBaseUrl: options.publicBaseUrl,
    signingSecret: loadOrCreateSigningSecret(options.dataDir),
    ...(config.cv ? { maxStoredBytes: config.cv.maxBytes } : {}),
    ...clock,
  });
}
