import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** s3rver (a dev dependency): an S3-compatible server on a local directory, for the S3 blob store's tests. */
export interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: http.Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;
export const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/** s3rver's built-in account. */
export const S3_KEY = 'S3RVER';
export const S3_SECRET = 'S3RVER';

export interface LocalS3 {
  server: S3rverServer;
  endpoint: string;
  /** Where s3rver keeps the objects (one file per object, under the bucket's folder). */
  directory: string;
  /** The service's configuration for this bucket (S3_BUCKET, S3_ENDPOINT, …). */
  env: Record<string, string>;
  /** Every object's bytes, read from the disk (what the bucket holds, whatever the API says). */
  objects(): Buffer[];
  close(): Promise<void>;
}

/** Starts s3rver on a free port of 127.0.0.1 with `bucket` made. */
export async function startS3(bucket = 'cvs'): Promise<LocalS3> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'careers-s3-'));
  const directory = path.join(root, 's3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    server,
    endpoint,
    directory,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_SECRET,
    },
    objects() {
      const files = fs.readdirSync(directory, { recursive: true, withFileTypes: true });
      return files
        .filter((f) => f.isFile() && f.name.endsWith('._S3rver_object'))
        .map((f) => fs.readFileSync(path.join(f.parentPath, f.name)));
    },
    async close() {
      server.httpServer.closeAllConnections();
      await server.close();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}
