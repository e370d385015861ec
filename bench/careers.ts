// The careers page at volume (issue 33): `node bench/careers.ts [count] [requests]`.
// Seeds `count` (1,000 by default) published jobs in one account, then times GET
// /en/jobs/{company} (the first page of 50, through app.inject: server time, no network) and the
// same page filtered, and reports p50 and p99 (target: p50 under 20 ms on PostgreSQL). The
// database is the configuration's (DATABASE_URL for PostgreSQL).
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { injectAccountWithJob, startInProcess } from './in-process.ts';

const COUNT = Number(process.argv[2] ?? 1_000);
const REQUESTS = Number(process.argv[3] ?? 300);

const pct = (times: number[], p: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};

const service = await startInProcess('careers');
try {
  const { runtime } = service;
  const app = await service.appWith(service.checker);
  const { auth, jobId } = await injectAccountWithJob(app, runtime.consoleToken, {
    name: 'Careers bench',
    addressPrefix: 'careers-bench',
    limits: { requestsPerMinute: 1_000_000 },
  });
  const published = await app.inject({ method: 'POST', url: `/v1/jobs/${jobId}/publish`, headers: auth });
  if (published.statusCode !== 200) throw new Error(published.body);
  const db = runtime.handle.db;
  // COUNT - 1 copies of the published job, each its own id and slug.
  await sql`INSERT INTO jobs SELECT (jsonb_populate_record(null::jobs, to_jsonb(j) || jsonb_build_object('id', j.id || lpad(i::text, 6, '0'), 'slug', j.slug || '-' || i))).* FROM jobs j, generate_series(1, ${COUNT - 1}) i WHERE j.id = ${jobId}`.execute(
    db,
  );
  const { company_address: company } = await db
    .selectFrom('jobs')
    .innerJoin('accounts', 'accounts.id', 'jobs.account_id')
    .select('accounts.company_address')
    .where('jobs.id', '=', jobId)
    .executeTakeFirstOrThrow();
  await sql`ANALYZE jobs`.execute(db);
  for (const [label, url] of [
    ['first page', `/en/jobs/${company}`],
    ['filtered', `/en/jobs/${company}?q=bench&category=engineering`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS + 20; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      if (i >= 20) times.push(ms); // the first 20 warm up
    }
    console.log(
      `${label}: ${COUNT} live jobs (${runtime.handle.kind}), ${REQUESTS} requests: p50 ${pct(times, 0.5).toFixed(1)} ms, p99 ${pct(times, 0.99).toFixed(1)} ms`,
    );
  }
} finally {
  await service.close();
}
