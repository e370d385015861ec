import assert from 'node:assert/strict';
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { accountWithKey, type ServiceProcess, startService } from './service-process.ts';
import { CONSOLE_TOKEN } from './support/app.ts';
import { envOfService, readCompose } from './support/compose.ts';
import { envOf, readDockerfile, runtimeStage } from './support/dockerfile.ts';
import { tempDir } from './support/packaging.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * The fleet's processes started with the variables compose.yaml gives them (no Docker here): a
 * ROLE=api and a ROLE=worker process against the local PostgreSQL and Redis, an S3 store (s3rver)
 * and an SMTP server standing in for MinIO and Mailpit. Only the addresses and the store's
 * credentials are swapped for the local ones; every other value is compose's. Needs DATABASE_URL.
 */

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: http.Server;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (
  options: Record<string, unknown>,
) => S3rverServer;

const databaseUrl = process.env.DATABASE_URL;
const work = tempDir('careers-deploy-');
const cleanups: (() => Promise<void> | void)[] = [() => work.dispose()];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** compose's environment of one service, its hosts and store credentials swapped for local ones. */
async function localEnvironment(): Promise<{ api: Record<string, string>; worker: Record<string, string> }> {
  // The operator's CONSOLE_TOKEN is the tests' (any 16+ characters do), so the helpers can call the console.
  const { compose } = readCompose({ CONSOLE_TOKEN });
  const api = envOfService(compose.services['api-1']!);
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(work.dir, 's3rver'),
    vhostBuckets: false,
    configureBuckets: [{ name: api.S3_BUCKET, configs: [] }],
  });
  const { port } = await s3.run();
  cleanups.push(async () => {
    s3.httpServer.closeAllConnections();
    await s3.close();
  });
  const smtp = await startSmtpServer();
  const local = (env: Record<string, string>) => {
    const swapped: Record<string, string> = {
      ...env,
      DATABASE_URL: databaseUrl!,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      SMTP_URL: smtp.url,
    };
    if (process.env.REDIS_URL) swapped.REDIS_URL = process.env.REDIS_URL;
    else delete swapped.REDIS_URL;
    assert.deepEqual(
      Object.keys(swapped).sort(),
      Object.keys(env)
        .filter((k) => k !== 'REDIS_URL' || process.env.REDIS_URL)
        .sort(),
    );
    return swapped;
  };
  return { api: local(api), worker: local(envOfService(compose.services.worker!)) };
}

/** The image's ENV under compose's; HOST stays on loopback (the processes run on this machine). */
function withImageEnv(env: Record<string, string>): Record<string, string> {
  const { PATH: _path, PORT: _port, DATA_DIR: _dataDir, ...image } = envOf(runtimeStage(readDockerfile()));
  return { ...image, ...env, HOST: '127.0.0.1' };
}

async function stop(service: ServiceProcess): Promise<void> {
  service.kill('SIGTERM');
  const { code } = await service.exited;
  assert.equal(code, 0, service.lines.slice(-20).join('\n'));
  assert.ok(service.lines.some((line) => line.includes('"msg":"stopped"')));
}

describe('the fleet processes with compose.yaml variables', {
  skip: !databaseUrl && 'needs DATABASE_URL (PostgreSQL)',
}, () => {
  test('ROLE=api serves and is ready on PostgreSQL, Redis and S3; ROLE=worker runs and is ready; both stop on SIGTERM with 0', {
    timeout: 180_000,
  }, async () => {
    const { api, worker } = await localEnvironment();
    const apiProcess = await startService(withImageEnv(api));
    cleanups.push(() => void apiProcess.kill('SIGKILL'));
    const workerProcess = await startService(withImageEnv(worker));
    cleanups.push(() => void workerProcess.kill('SIGKILL'));

    const ready = await fetch(`${apiProcess.baseUrl}/readyz`);
    const body = (await ready.json()) as { status: string; redis: string };
    assert.equal(ready.status, 200);
    assert.equal(body.status, 'ready');
    if (process.env.REDIS_URL) assert.equal(body.redis, 'up');
    // The bucket is compose's: an upload slot is a presigned PUT at the S3 endpoint.
    const key = await accountWithKey(apiProcess, ['applications:write']);
    const slot = await fetch(`${apiProcess.baseUrl}/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bytes: 1000 }),
    });
    const { uploadUrl } = (await slot.json()) as { uploadUrl: string };
    assert.equal(slot.status, 201);
    assert.ok(uploadUrl.startsWith(`${api.S3_ENDPOINT}/${api.S3_BUCKET}/`), uploadUrl);

    const started = workerProcess.lines.find((line) => line.includes('Service ready'));
    assert.match(started ?? '', /"role":"worker"/);
    // A worker serves its probes (compose checks /readyz) and nothing else.
    const workerReady = await fetch(`${workerProcess.baseUrl}/readyz`);
    assert.equal(workerReady.status, 200, await workerReady.clone().text());
    assert.equal(((await workerReady.json()) as { worker: string }).worker, 'running');
    assert.equal((await fetch(`${workerProcess.baseUrl}/v1/jobs`)).status, 404);
    await stop(apiProcess);
    await stop(workerProcess);
  });
});
