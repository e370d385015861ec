// The recruiter's applications list at volume (issue 27): `node bench/pipeline.ts [count]`.
// Seeds `count` (2,000 by default) applications on one job of a fresh account, then times, in this
// process through app.inject (server time: no network), the console page's first page, a search, a
// filter and a deep page, and the console API's list, each as the median of 15 runs after a warm-up.
// The database is the configuration's (DATABASE_URL for PostgreSQL; embedded PGlite otherwise).
import { performance } from 'node:perf_hooks';
import type { App } from '../src/http/types.ts';
import { injectAccountWithJob, startInProcess } from './in-process.ts';
import { seedApplications } from './pipeline-seed.ts';

const COUNT = Number(process.argv[2] ?? 2000);
const RUNS = 15;

/** A signed-in recruiter's cookie header: invited by the operator, password set on the invitation page. */
async function recruiterCookie(app: App, consoleToken: string, accountId: string): Promise<string> {
  const invited = await app.inject({
    method: 'POST',
    url: `/console/v1/accounts/${accountId}/users`,
    headers: { authorization: `Bearer ${consoleToken}` },
    payload: { email: `bench.${Date.now()}@example.com`, role: 'recruiter' },
  });
  const path = new URL(invited.json().inviteUrl as string).pathname;
  const form = await app.inject({ method: 'GET', url: path });
  const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const preCookie = String(form.headers['set-cookie'] ?? '').split(';')[0];
  const accepted = await app.inject({
    method: 'POST',
    url: path,
    headers: { cookie: preCookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf, password: 'a long bench password' }).toString(),
  });
  const cookies = [accepted.headers['set-cookie']].flat().map((c) => String(c).split(';')[0]);
  return cookies.filter((c) => c?.startsWith('console_session=')).join('; ');
}

async function median(call: () => Promise<{ statusCode: number }>): Promise<number> {
  if ((await call()).statusCode !== 200) throw new Error('not 200');
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)]!;
}

const service = await startInProcess('pipeline');
try {
  const { runtime } = service;
  const app = await service.appWith(service.checker);
  const { jobId } = await injectAccountWithJob(app, runtime.consoleToken, {
    name: 'Pipeline bench',
    addressPrefix: 'pipeline-bench',
  });
  const job = await runtime.handle.db
    .selectFrom('jobs')
    .select('account_id')
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
  const accountId = job.account_id;
  const t0 = performance.now();
  await seedApplications(runtime.handle.db, { accountId, jobId }, COUNT);
  console.log(
    `seeded ${COUNT} applications in ${(performance.now() - t0).toFixed(0)} ms (${runtime.handle.kind})`,
  );
  const cookie = await recruiterCookie(app, runtime.consoleToken, accountId);
  const page = (query: string) => () =>
    app.inject({ method: 'GET', url: `/console/jobs/${jobId}/applications${query}`, headers: { cookie } });
  const api = (query: string) => () =>
    app.inject({
      method: 'GET',
      url: `/console/v1/accounts/${accountId}/jobs/${jobId}/applications${query}`,
      headers: { authorization: `Bearer ${runtime.consoleToken}` },
    });
  // A cursor deep into the list (page 19 of 20 at 100 a page).
  let cursor = '';
  for (let i = 0; i < 18; i++)
    cursor = (await api(`?limit=100${cursor ? `&cursor=${cursor}` : ''}`)()).json().nextCursor;
  const cases: [string, () => Promise<{ statusCode: number }>][] = [
    ['page: first page', page('')],
    ['page: search "okafor"', page('?q=okafor')],
    ['page: filter stage+source', page('?stage=shortlisted&source=job_page')],
    ['page: search+filter+sort by name', page('?q=ana&cv=claimed&sort=name')],
    ['api: first page (50)', api('')],
    ['api: search by email', api('?q=seed.1999@')],
    ['api: page 19 by cursor (100)', api(`?limit=100&cursor=${cursor}`)],
  ];
  for (const [label, call] of cases) {
    const ms = await median(call);
    console.log(
      `${label.padEnd(36)} ${ms.toFixed(1).padStart(7)} ms median of ${RUNS}  ${ms < 100 ? 'target met (< 100 ms)' : 'target MISSED (< 100 ms)'}`,
    );
  }
  await app.close();
} finally {
  await service.close();
}
