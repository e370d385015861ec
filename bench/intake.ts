/**
 * The intake path — upload slot, presigned PUT, application with a 2-page PDF — through the whole
 * app, against a baseline measured in the same run: the same path with the PDF check replaced by
 * one that accepts at once. Reports applications per second for both, and the CV check's share.
 *   npm run bench:intake               (PGlite; DATABASE_URL for PostgreSQL)
 *   npm run bench:intake -- --n=100    (applications per round)
 */
import fs from 'node:fs';
import type { CvInspector } from '../src/domain/ports.ts';
import { injectAccountWithJob, injectApplication, startInProcess } from './in-process.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 60);
const CONCURRENCY = 4;
const pdf = fs.readFileSync(new URL('../test/fixtures/pdf/cv-2-pages.pdf', import.meta.url));
const bench = await startInProcess('intake');
const { runtime, checker } = bench;
const instant: CvInspector = { check: async () => ({ ok: true, pages: 2, text: [] }) };

async function appWith(inspector: CvInspector) {
  const app = await bench.appWith(inspector);
  const { auth, jobId } = await injectAccountWithJob(app, runtime.consoleToken, {
    name: 'Bench',
    addressPrefix: 'b',
    limits: { requestsPerMinute: 1_000_000, dailyApplications: 1_000_000, jobDailyApplications: 1_000_000 },
  });
  let n = 0;
  async function applyOnce(): Promise<void> {
    n++;
    const res = await injectApplication(app, { auth, jobId, keyPrefix: 'bench' }, n, pdf);
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
await bench.close();
