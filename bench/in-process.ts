import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../src/config.ts';
import type { CvInspector } from '../src/domain/ports.ts';
import type { App } from '../src/http/types.ts';
import { createCvChecker } from '../src/pdf/cv-check.ts';
import { createRuntime, createRuntimeApp } from '../src/runtime.ts';
import { createServices } from '../src/services.ts';
import { benchApplication } from './application-body.ts';

/**
 * The service in this process for the in-process benchmarks (bench/intake.ts, bench/hostile.ts):
 * the runtime on a fresh DATA_DIR, the real CV checker, and `appWith(inspector)` to build the app
 * through the production composition root with that inspector. `close()` undoes all of it.
 */
export async function startInProcess(name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  const config = parseConfig({ ...process.env, DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://bench.local' });
  // One checker for the app and the runtime's tasks (a CV build checks the file again), as in the
  // service, so that background builds compete for the same children.
  const checker = createCvChecker({ maxBytes: config.cv.maxBytes, maxPages: config.cv.maxPages });
  const runtime = await createRuntime(config, { inspector: checker });
  const appWith = (inspector: CvInspector): Promise<App> =>
    createRuntimeApp({ ...runtime, services: createServices({ ...runtime.serviceDeps, inspector }) });
  const close = async () => {
    await checker.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { runtime, checker, appWith, close };
}

/**
 * An account ready to take applications on an in-process app (`app.inject`): created through the
 * console API with a unique company address, the addendum accepted (and `limits`, when given), a
 * key with jobs:write and applications:write, and one published job.
 */
export async function injectAccountWithJob(
  app: App,
  consoleToken: string,
  options: { name: string; addressPrefix: string; limits?: Record<string, number> | null },
): Promise<{ auth: { authorization: string }; jobId: string }> {
  const console = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    app.inject({
      method,
      url: `/console/v1${url}`,
      headers: { authorization: `Bearer ${consoleToken}` },
      payload,
    });
  const account = (
    await console('POST', '/accounts', {
      name: options.name,
      companyAddress: `${options.addressPrefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    })
  ).json().account;
  const limits = options.limits ? { limits: options.limits } : {};
  await console('PATCH', `/accounts/${account.id}`, { dpaAccepted: true, ...limits });
  const secret = (
    await console('POST', `/accounts/${account.id}/keys`, { scopes: ['jobs:write', 'applications:write'] })
  ).json().secret;
  const auth = { authorization: `Bearer ${secret}` };
  const job = (
    await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: auth,
      payload: { title: 'Bench role', description: 'd', category: 'engineering' },
    })
  ).json().job;
  await app.inject({ method: 'POST', url: `/v1/jobs/${job.id}/publish`, headers: auth });
  return { auth, jobId: job.id };
}

/**
 * One application with `pdf` through the API: an upload slot, the PUT of the file, the POST with
 * a fresh Idempotency-Key under `keyPrefix`. Answers the status of the first step that did not
 * pass (a slot refused, the PUT rate-limited) or the POST's, with its body.
 */
export async function injectApplication(
  app: App,
  target: { auth: { authorization: string }; jobId: string; keyPrefix: string },
  n: number,
  pdf: Buffer,
): Promise<{ statusCode: number; body: string }> {
  const { auth, jobId, keyPrefix } = target;
  const created = await app.inject({
    method: 'POST',
    url: '/v1/uploads',
    headers: auth,
    payload: { bytes: pdf.length },
  });
  if (created.statusCode !== 201) return created;
  const slot = created.json();
  const url = new URL(slot.uploadUrl);
  const put = await app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: { 'content-type': 'application/pdf' },
    payload: pdf,
  });
  if (put.statusCode === 429) return put;
  if (put.statusCode !== 200) throw new Error(`PUT ${put.statusCode} ${put.body}`);
  return app.inject({
    method: 'POST',
    url: `/v1/jobs/${jobId}/applications`,
    headers: { ...auth, 'idempotency-key': `${keyPrefix}-${n}-${Math.random()}` },
    payload: benchApplication(`c${n}-${Math.random().toString(36).slice(2)}@example.com`, slot.uploadId),
  });
}
