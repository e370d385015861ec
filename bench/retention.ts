// The retention sweep at volume (issue 30): `node bench/retention.ts [count]`.
// Seeds `count` (100,000 by default) applications on a closed job of an account whose retention is
// 0 days, then measures the p99 of a job list (GET /v1/jobs through app.inject, server time) while
// idle, and again while the sweep erases every seeded application; reports the ratio (target ≤ 1.5)
// and the sweep's rate. The database is the configuration's (DATABASE_URL for PostgreSQL).
import { performance } from 'node:perf_hooks';
import { injectAccountWithJob, startInProcess } from './in-process.ts';
import { seedApplications } from './pipeline-seed.ts';

const COUNT = Number(process.argv[2] ?? 100_000);

function p99(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

const service = await startInProcess('retention');
try {
  const { runtime } = service;
  const app = await service.appWith(service.checker);
  const { auth, jobId } = await injectAccountWithJob(app, runtime.consoleToken, {
    name: 'Retention bench',
    addressPrefix: 'retention-bench',
    limits: { requestsPerMinute: 1_000_000 },
  });
  const { account_id: accountId } = await runtime.handle.db
    .selectFrom('jobs')
    .select('account_id')
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
  // A second, live job: the list the integrator's careers page keeps reading during the sweep.
  const live = await app.inject({
    method: 'POST',
    url: '/v1/jobs',
    headers: auth,
    payload: { title: 'Live role', description: 'd', category: 'engineering' },
  });
  await app.inject({ method: 'POST', url: `/v1/jobs/${live.json().job.id}/publish`, headers: auth });

  const t0 = performance.now();
  await seedApplications(runtime.handle.db, { accountId, jobId }, COUNT);
  console.log(
    `seeded ${COUNT} applications in ${(performance.now() - t0).toFixed(0)} ms (${runtime.handle.kind})`,
  );
  await app.inject({ method: 'POST', url: `/v1/jobs/${jobId}/close`, headers: auth });
  await app.inject({
    method: 'PATCH',
    url: `/console/v1/accounts/${accountId}`,
    headers: { authorization: `Bearer ${runtime.consoleToken}` },
    payload: { retention: { applicationDays: 0 } },
  });

  const reader = await app.inject({
    method: 'POST',
    url: `/console/v1/accounts/${accountId}/keys`,
    headers: { authorization: `Bearer ${runtime.consoleToken}` },
    payload: { scopes: ['jobs:read'] },
  });
  const readAuth = { authorization: `Bearer ${reader.json().secret}` };
  const list = async (): Promise<number> => {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url: '/v1/jobs', headers: readAuth });
    if (res.statusCode !== 200) throw new Error(`job list ${res.statusCode}: ${res.body}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 50; i++) await list();
  const idle: number[] = [];
  for (let i = 0; i < 500; i++) idle.push(await list());

  let sweeping = true;
  let erased = 0;
  const sweepStarted = performance.now();
  const sweep = (async () => {
    // As the worker does: one maintenance run a minute, here back to back until nothing is due.
    for (;;) {
      const report = await runtime.services.maintenance();
      erased += report.retentionErasedApplications;
      if (report.retentionErasedApplications === 0) break;
    }
    sweeping = false;
  })();
  const during: number[] = [];
  while (sweeping) during.push(await list());
  await sweep;
  const sweepSeconds = (performance.now() - sweepStarted) / 1000;

  const ratio = p99(during) / p99(idle);
  console.log(
    `erased ${erased} applications in ${sweepSeconds.toFixed(1)} s (${(erased / sweepSeconds).toFixed(0)}/s)`,
  );
  console.log(
    `job list p99: idle ${p99(idle).toFixed(1)} ms (${idle.length} requests), during the sweep ${p99(during).toFixed(1)} ms (${during.length} requests)`,
  );
  console.log(`ratio ${ratio.toFixed(2)}  ${ratio <= 1.5 ? 'target met (≤ 1.5)' : 'target MISSED (≤ 1.5)'}`);
  await app.close();
} finally {
  await service.close();
}
