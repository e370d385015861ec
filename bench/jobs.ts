/**
 * Benchmarks, each against a baseline measured in the same run (machines here are noisy):
 *   1. keyset paging: time per page at depth 1,000 vs depth 1 over 100,000 jobs of one account;
 *   2. GET /v1/jobs throughput through the whole service vs the same SQL in a bare Fastify handler.
 * Runs on PGlite by default, on PostgreSQL when DATABASE_URL is set (use a scratch database).
 *   npm run bench:jobs       npm run bench:jobs -- --jobs=20000   (a quicker, smaller run)
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { parseConfig } from '../src/config.ts';
import { jobRepository } from '../src/domain/jobs/job-repository.ts';
import { encodeCursor } from '../src/lib/cursor.ts';
import { createRuntime, createRuntimeApp } from '../src/runtime.ts';

const JOBS = Number(process.argv.find((a) => a.startsWith('--jobs='))?.slice(7) ?? 100_000);
const PAGE = 100;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
// The bench's embedded database lives in a temp dir; with DATABASE_URL it uses that server.
const runtime = await createRuntime(
  parseConfig({ ...process.env, DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://bench.local' }),
);
const { handle, services } = runtime;
const db = handle.db;
const account = await services.accounts.create({
  name: 'Bench',
  companyAddress: `bench-${Date.now().toString(36)}`,
});
const { secret } = await services.keys.mint(account.id, { scopes: ['jobs:read'] });
await services.accounts.update(account.id, { limits: { requestsPerMinute: 1_000_000_000 } });

console.log(`seeding ${JOBS} published jobs (${handle.kind}) …`);
const t0 = performance.now();
await sql`
  INSERT INTO jobs (id, account_id, status, content, slug, posted_at, first_published_at, created_at, updated_at)
  SELECT 'job_' || lpad(to_hex(g), 26, '0'), ${account.id}, 'published',
         jsonb_build_object('title', 'Role ' || g, 'description', '<p>Work on things number ' || g || '.</p>',
                            'category', 'engineering', 'responsibilities', jsonb_build_array('Build', 'Ship'),
                            'skills', jsonb_build_array(jsonb_build_object('name', 'TypeScript', 'level', 'required')),
                            'benefits', jsonb_build_array()),
         'role-' || g, now(), now(), now(), now()
  FROM generate_series(1, ${JOBS}::int) AS g`.execute(db);
await sql`ANALYZE jobs`.execute(db);
console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const statuses = new Set(['published', 'closed', 'expired'] as const);
async function pageAfter(afterId: string | null) {
  return jobRepository.listPublic(db, {
    accountId: account.id,
    statuses,
    updatedSince: null,
    afterId,
    limit: PAGE + 1,
    now: new Date(),
  });
}
const depth = Math.min(1000, Math.floor(JOBS / PAGE));
const deepRow = await db
  .selectFrom('jobs')
  .select('id')
  .where('account_id', '=', account.id)
  .orderBy('id', 'desc')
  .offset((depth - 1) * PAGE - 1)
  .limit(1)
  .executeTakeFirstOrThrow();

async function timePerCall(fn: () => Promise<unknown>, rounds: number): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < rounds; i++) await fn();
  return (performance.now() - start) / rounds;
}
// Interleave the two so drift on a noisy machine hits both alike.
let first = 0;
let deep = 0;
for (let i = 0; i < 5; i++) {
  first += await timePerCall(() => pageAfter(null), 40);
  deep += await timePerCall(() => pageAfter(deepRow.id), 40);
}
console.log(`\nkeyset paging, ${PAGE} per page over ${JOBS} jobs`);
console.log(`  page 1:        ${(first / 5).toFixed(2)} ms`);
console.log(`  page ${depth}:   ${(deep / 5).toFixed(2)} ms`);
console.log(`  ratio deep/first: ${(deep / first).toFixed(2)}  (1.00 = depth costs nothing)`);

// Throughput: the service vs a bare Fastify handler running the same SQL and serialising the rows.
const app = await createRuntimeApp(runtime);
await app.listen({ port: 0, host: '127.0.0.1' });
const bare = Fastify();
bare.get('/v1/jobs', async () => {
  const rows = await jobRepository.listPublic(db, {
    accountId: account.id,
    statuses,
    updatedSince: null,
    afterId: null,
    limit: 51,
    now: new Date(),
  });
  return { jobs: rows.slice(0, 50), nextCursor: encodeCursor(rows[49]!.id) };
});
await bare.listen({ port: 0, host: '127.0.0.1' });

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}
async function throughput(port: number, headers: Record<string, string>, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const status = await get(port, '/v1/jobs?limit=50', headers);
      if (status !== 200) throw new Error(`status ${status}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return (done * 1000) / ms;
}
const servicePort = (app.server.address() as AddressInfo).port;
const barePort = (bare.server.address() as AddressInfo).port;
let svc = 0;
let base = 0;
for (let i = 0; i < 3; i++) {
  base += await throughput(barePort, {}, 3000);
  svc += await throughput(servicePort, { authorization: `Bearer ${secret}` }, 3000);
}
console.log('\nGET /v1/jobs?limit=50, 8 concurrent keep-alive clients, 3 × 3 s each, interleaved');
console.log(`  bare Fastify + same SQL: ${(base / 3).toFixed(0)} req/s`);
console.log(`  the service:             ${(svc / 3).toFixed(0)} req/s`);
console.log(`  ratio service/baseline: ${(svc / base).toFixed(2)}`);

agent.destroy();
await app.close();
await bare.close();
await sql`DELETE FROM jobs WHERE account_id = ${account.id}`.execute(db);
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
