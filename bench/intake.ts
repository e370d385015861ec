/**
 * The intake path — upload slot, presigned PUT, application with a 2-page PDF — through the whole
 * app, against a baseline measured in the same run: the same path with the PDF check replaced by
 * one that accepts at once. Reports applications per second for both, and the CV check's share.
 *   npm run bench:intake               (PGlite; DATABASE_URL for PostgreSQL)
 *   npm run bench:intake -- --n=100    (applications per round)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { createRuntime, createServices } from '../src/deps.ts';
import type { CvInspector } from '../src/domain/intake/ports.ts';
import { createCvChecker } from '../src/pdf/cv-check.ts';
import { benchApplication } from './application-body.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 60);
const CONCURRENCY = 4;
const pdf = fs.readFileSync(new URL('../test/fixtures/pdf/cv-2-pages.pdf', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-intake-'));
const config = parseConfig({ ...process.env, DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://bench.local' });
const runtime = await createRuntime(config);
const cvLimits = { maxBytes: config.cv.maxBytes, maxPages: config.cv.maxPages };
const checker = createCvChecker(cvLimits);
const instant: CvInspector = { check: async () => ({ ok: true, pages: 2, text: [] }) };

async function appWith(inspector: CvInspector) {
  const services = createServices({ ...runtime.serviceDeps, inspector });
  const app = await buildApp({
    services,
    files: runtime.files,
    rateLimits: runtime.rateLimits,
    clock: runtime.clock,
    consoleToken: runtime.consoleToken,
    publicBaseUrl: config.http.publicBaseUrl,
  });
  const console = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    app.inject({
      method,
      url: `/console/v1${url}`,
      headers: { authorization: `Bearer ${runtime.consoleToken}` },
      payload,
    });
  const account = (
    await console('POST', '/accounts', {
      name: 'Bench',
      companyAddress: `b-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    })
  ).json().account;
  await console('PATCH', `/accounts/${account.id}`, {
    dpaAccepted: true,
    limits: { requestsPerMinute: 1_000_000, dailyApplications: 1_000_000, jobDailyApplications: 1_000_000 },
  });
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
  let n = 0;
  async function applyOnce(): Promise<void> {
    n++;
    const slot = (
      await app.inject({ method: 'POST', url: '/v1/uploads', headers: auth, payload: { bytes: pdf.length } })
    ).json();
    const url = new URL(slot.uploadUrl);
    const put = await app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/pdf' },
      payload: pdf,
    });
    if (put.statusCode !== 200) throw new Error(`PUT ${put.statusCode} ${put.body}`);
    const res = await app.inject({
      method: 'POST',
      url: `/v1/jobs/${job.id}/applications`,
      headers: { ...auth, 'idempotency-key': `bench-${n}-${Math.random()}` },
      payload: benchApplication(`c${n}-${Math.random().toString(36).slice(2)}@example.com`, slot.uploadId),
    });
    if (res.statusCode !== 201) throw new Error(`apply ${res.statusCode} ${res.body}`);
  }
  return { app, applyOnce };
}

async function rate(applyOnce: () => Promise<void>, count: number): Promise<number> {
  let left = count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await applyOnce();
    }),
  );
  return (count * 1000) / (performance.now() - start);
}

const real = await appWith(checker);
const baseline = await appWith(instant);
await real.applyOnce(); // warm the pool
await baseline.applyOnce();
let realRate = 0;
let baseRate = 0;
for (let i = 0; i < 3; i++) {
  baseRate += await rate(baseline.applyOnce, N);
  realRate += await rate(real.applyOnce, N);
}
realRate /= 3;
baseRate /= 3;
console.log(
  `intake path (slot + PUT + application, 2-page PDF of ${pdf.length} bytes), ${CONCURRENCY} concurrent, 3 × ${N} each`,
);
console.log(`  with the PDF check (child-process pool): ${realRate.toFixed(1)} applications/s`);
console.log(`  baseline, check accepting at once:       ${baseRate.toFixed(1)} applications/s`);
console.log(`  ratio real/baseline: ${(realRate / baseRate).toFixed(2)}`);
console.log(
  `  CV check's share of the time per application: ${((1 - realRate / baseRate) * 100).toFixed(0)} %`,
);
await real.app.close();
await baseline.app.close();
await checker.close();
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
