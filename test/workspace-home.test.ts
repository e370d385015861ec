import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../src/lib/clock.ts';
import { signedIn } from './console-web-client.ts';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { BASE_URL, useTestApp } from './support/app.ts';
import { applyTo } from './support/intake.ts';
import { createPublished, jobCount } from './support/jobs.ts';

const ctx = useTestApp({ clock: new ManualClock(new Date('2026-03-15T09:00:00.000Z')) });

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

async function views(jobId: string): Promise<Record<string, number>> {
  await ctx.services.pageViews.flush();
  const rows = await ctx.handle.db
    .selectFrom('job_page_views')
    .select(['kind', 'count'])
    .where('job_id', '=', jobId)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.count)]));
}

const visit = (url: string, method: 'GET' | 'HEAD' = 'GET', agent = BROWSER) =>
  ctx.app.inject({ method, url, headers: { 'user-agent': agent } });

describe('page views, counted without personal data', () => {
  test('GET twice counts 2; HEAD, robots and prefetches count nothing; the apply page has its own count', async () => {
    const { api } = await intakeAccount(ctx.app);
    const job = await createPublished(api, { location: { city: 'Lisbon', country: 'PT' } });
    const path = job.url!.slice(BASE_URL.length);
    assert.equal((await visit(path)).statusCode, 200);
    assert.equal((await visit(path)).statusCode, 200);
    assert.equal((await visit(path, 'HEAD')).statusCode, 200);
    await visit(path, 'GET', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    await visit(path, 'GET', 'curl/8.5.0');
    await ctx.app.inject({
      method: 'GET',
      url: path,
      headers: { 'user-agent': BROWSER, 'sec-purpose': 'prefetch' },
    });
    await ctx.app.inject({ method: 'GET', url: path, headers: { 'user-agent': '' } });
    assert.deepEqual(await views(job.id), { job_page: 2 });
    assert.equal((await visit(`/apply/${job.id}?via=job_page`)).statusCode, 200);
    assert.equal((await visit(`/apply/${job.id}`, 'HEAD')).statusCode, 200);
    assert.deepEqual(await views(job.id), { job_page: 2, apply_page: 1 });
    // Flushes add: a second batch adds to the same row of the day.
    await visit(path);
    assert.deepEqual(await views(job.id), { job_page: 3, apply_page: 1 });
    // The next day is a row of its own.
    ctx.clock.advance(86_400_000);
    await visit(path);
    await ctx.services.pageViews.flush();
    const days = await ctx.handle.db
      .selectFrom('job_page_views')
      .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
      .where('job_id', '=', job.id)
      .where('kind', '=', 'job_page')
      .orderBy('day')
      .execute();
    assert.deepEqual(
      days.map((d) => d.day),
      ['2026-03-15', '2026-03-16'],
    );
    ctx.clock.set('2026-03-15T09:00:00.000Z');
  });

  test('the table holds counts only: no address, no agent, no cookie', async () => {
    const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
      WHERE table_name = 'job_page_views' ORDER BY ordinal_position`.execute(ctx.handle.db);
    assert.deepEqual(
      columns.rows.map((c) => c.column_name),
      ['job_id', 'day', 'kind', 'count'],
    );
  });

  test('a failed write is logged and dropped, and the page is served all the same', async () => {
    const { api } = await intakeAccount(ctx.app);
    const job = await createPublished(api);
    const failures: unknown[] = [];
    const { createPageViewCounter } = await import('../src/domain/insights/page-view-counter.ts');
    const broken = createPageViewCounter({
      db: {
        ...ctx.handle.db,
        getExecutor: () => {
          throw new Error('down');
        },
      } as never,
      clock: ctx.clock,
      log: (error) => failures.push(error),
    });
    broken.record(job.id, 'job_page');
    await broken.flush();
    assert.equal(failures.length, 1);
  });
});

/** Applications on several days of the window (and one before it), by the API at the test clock. */
async function seedApplications() {
  const intake = await intakeAccount(ctx.app);
  const [first, second] = [
    await createPublished(intake.api, { title: 'First role' }),
    await createPublished(intake.api, { title: 'Second role' }),
  ];
  const plan: [string, string, number][] = [
    ['2026-02-10T10:00:00.000Z', first!.id, 1], // before the window
    ['2026-02-14T00:30:00.000Z', first!.id, 1], // the window's first day
    ['2026-03-01T12:00:00.000Z', first!.id, 2],
    ['2026-03-01T23:59:00.000Z', second!.id, 1],
    ['2026-03-14T08:00:00.000Z', second!.id, 1],
    ['2026-03-15T08:59:00.000Z', first!.id, 2], // today
  ];
  for (const [at, jobId, n] of plan) {
    ctx.clock.set(at);
    for (let i = 0; i < n; i++) await applyTo(ctx, intake.api, jobId);
  }
  ctx.clock.set('2026-03-15T09:00:00.000Z');
  return { ...intake, first: first!, second: second! };
}

async function sqlPerDay(accountId: string): Promise<Map<string, number>> {
  const rows = await sql<{
    day: string;
    n: number;
  }>`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
      count(*)::int AS n FROM applications WHERE account_id = ${accountId}
      AND created_at >= '2026-02-14T00:00:00Z' GROUP BY 1`.execute(ctx.handle.db);
  return new Map(rows.rows.map((r) => [r.day, r.n]));
}

describe('Home', () => {
  test('the chart, its table and the console API show the database counts', async () => {
    const seeded = await seedApplications();
    const accountId = seeded.account.id;
    // One CV claimed, and some page views.
    await sql`UPDATE applications SET claimed_at = now() WHERE id = (SELECT id FROM applications
      WHERE account_id = ${accountId} AND created_at >= '2026-03-01' ORDER BY id LIMIT 1)`.execute(
      ctx.handle.db,
    );
    const path = seeded.first.url!.slice(BASE_URL.length);
    for (let i = 0; i < 5; i++) await visit(path);
    await visit(`/apply/${seeded.first.id}`);
    await ctx.services.pageViews.flush();

    const expected = await sqlPerDay(accountId);
    const recruiter = await signedIn(ctx.app, accountId, 'recruiter');
    const home = await recruiter.web.get('/console');
    assert.equal(home.statusCode, 200);
    const body = home.body;
    const bars = new Map(
      [...body.matchAll(/<rect class="bar"[^>]*data-day="([\d-]+)" data-count="(\d+)"/g)].map((m) => [
        m[1]!,
        Number(m[2]),
      ]),
    );
    assert.equal(bars.size, 30, 'one bar a day');
    const table = new Map(
      [
        ...body.matchAll(
          /<tr><th scope="row"><time datetime="([\d-]+)">[^<]*<\/time><\/th><td class="n">(\d+)<\/td><\/tr>/g,
        ),
      ].map((m) => [m[1]!, Number(m[2])]),
    );
    assert.equal(table.size, 30, 'one row a day');
    for (const [day, count] of bars) {
      assert.equal(count, expected.get(day) ?? 0, `bar of ${day}`);
      assert.equal(table.get(day), count, `table row of ${day}`);
    }
    assert.equal(bars.get('2026-02-14'), 1);
    assert.equal(bars.get('2026-03-01'), 3);
    assert.equal(bars.get('2026-03-15'), 2);
    assert.ok(!bars.has('2026-02-10'), 'outside the window');
    assert.match(body, /<svg id="per-day-chart"[^>]*role="img" aria-labelledby="per-day-title per-day-desc"/);
    assert.match(body, /<span class="big" id="open-jobs">2<\/span>/);
    assert.match(body, /<th scope="row">API<\/th><td class="n">7<\/td>/, 'by source, in words');
    assert.doesNotMatch(body, />api</);

    const summary = (await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/summary`)).json().summary;
    assert.equal(summary.from, '2026-02-14');
    assert.equal(summary.to, '2026-03-15');
    assert.equal(summary.openJobs, 2);
    assert.deepEqual(
      summary.applicationsByDay.filter((d: { count: number }) => d.count > 0),
      [
        { day: '2026-02-14', count: 1 },
        { day: '2026-03-01', count: 3 },
        { day: '2026-03-14', count: 1 },
        { day: '2026-03-15', count: 2 },
      ],
    );
    assert.deepEqual(summary.applicationsBySource, [{ source: 'api', count: 7 }]);
    assert.deepEqual(summary.funnel, {
      jobPageViews: 5,
      applyPageViews: 1,
      applications: 7,
      cvsClaimed: 1,
      screenings: 0,
    });
    const funnelRow = (label: string) =>
      new RegExp(`<th scope="row">${label}</th><td class="n">(\\d+)</td>`).exec(body)?.[1];
    assert.equal(funnelRow('Job page views'), '5');
    assert.equal(funnelRow('Apply page views'), '1');
    assert.equal(funnelRow('Applications'), '7');
    assert.equal(funnelRow('CVs claimed by candidates'), '1');
    assert.equal(funnelRow('Screenings'), '0');

    assert.equal((await consoleCall(ctx.app, 'GET', '/accounts/acc_nobody/summary')).statusCode, 404);
    const noToken = await ctx.app.inject({ method: 'GET', url: `/console/v1/accounts/${accountId}/summary` });
    assert.equal(noToken.statusCode, 401);
  });

  test('a billing admin is sent to Billing; signed out, to sign in', async () => {
    const { account } = await intakeAccount(ctx.app);
    const billing = await signedIn(ctx.app, account.id, 'billing_admin');
    const res = await billing.web.get('/console');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/billing');
  });
});

describe('the Jobs list', () => {
  test('counts applications in all and new ones per job, each a link, and nothing of another account', async () => {
    const mine = await intakeAccount(ctx.app);
    const busy = await createPublished(mine.api, { title: 'Busy role' });
    const quiet = await createPublished(mine.api, { title: 'Quiet role' });
    for (let i = 0; i < 3; i++) await applyTo(ctx, mine.api, busy.id);
    await sql`UPDATE applications SET stage = 'reviewing' WHERE id = (SELECT id FROM applications
      WHERE job_id = ${busy.id} ORDER BY id LIMIT 1)`.execute(ctx.handle.db);
    const theirs = await intakeAccount(ctx.app);
    const other = await createPublished(theirs.api, { title: 'Someone else’s role' });
    await applyTo(ctx, theirs.api, other.id);

    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    const page = (await recruiter.web.get('/console/jobs')).body;
    const count = (jobId: string, which: 'total' | 'new') =>
      new RegExp(
        `<a href="/console/jobs/${jobId}/applications(?:\\?stage=new)?" data-count="${which}">(\\d+)<`,
      ).exec(page)?.[1];
    assert.equal(count(busy.id, 'total'), '3');
    assert.equal(count(busy.id, 'new'), '2');
    assert.equal(count(quiet.id, 'total'), '0');
    assert.equal(count(quiet.id, 'new'), '0');
    assert.ok(!page.includes(other.id) && !page.includes('Someone else'), 'nothing of another account');
    const counts = await ctx.services.insights.jobCounts(theirs.account.id);
    assert.deepEqual([...counts.values()], [{ total: 1, new: 1 }]);
  });
});

/** Every field of the form, as a recruiter fills it. */
const FULL_FORM = {
  title: 'Senior Platform Engineer',
  category: 'engineering',
  seniority: 'Senior',
  yearsExperience: '5+',
  workStyle: 'Flexible hours',
  description: '<p>Run the <strong>platform</strong>.</p><ul><li>On call one week in six</li></ul>',
  responsibilities: 'Keep it running\r\nMake it faster\r\n',
  benefits: 'Four-day week\nLearning budget',
  skillName: ['Kubernetes', 'Go', 'Rust', ''],
  skillLevel: ['required', 'required', 'nice_to_have', 'required'],
  salaryMin: '120,000',
  salaryMax: '150000',
  salaryCurrency: 'eur',
  salaryPeriod: 'year',
  city: 'Lisbon',
  state: 'Lisboa',
  country: 'PT',
  remotePolicy: 'hybrid',
  onsiteDays: '2 days a week',
  employmentType: 'full_time',
  contractType: 'permanent',
  expiresOn: '2026-06-30',
  maxMatches: '25',
};

describe('the job form', () => {
  test('every field round-trips: posted by the form, read through the API, edited again', async () => {
    const mine = await intakeAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    await recruiter.web.get('/console/jobs/new');
    const created = await recruiter.web.post('/console/jobs', FULL_FORM);
    assert.equal(created.statusCode, 303, created.body);
    const jobPath = String(created.headers.location);
    const jobId = jobPath.split('/').at(-1)!;
    const read = async () => {
      // A draft, read as the account's console API lists it (the /v1 read shows published jobs).
      const res = await consoleCall(ctx.app, 'GET', `/accounts/${mine.account.id}/jobs`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().jobs.find((j: { id: string }) => j.id === jobId);
    };
    const job = await read();
    assert.equal(job.title, 'Senior Platform Engineer');
    assert.equal(job.category, 'engineering');
    assert.equal(job.seniority, 'Senior');
    assert.equal(job.yearsExperience, '5+');
    assert.equal(job.workStyle, 'Flexible hours');
    assert.equal(job.description, FULL_FORM.description);
    assert.deepEqual(job.responsibilities, ['Keep it running', 'Make it faster']);
    assert.deepEqual(job.benefits, ['Four-day week', 'Learning budget']);
    assert.deepEqual(job.skills, [
      { name: 'Kubernetes', level: 'required' },
      { name: 'Go', level: 'required' },
      { name: 'Rust', level: 'nice_to_have' },
    ]);
    assert.deepEqual(job.salary, {
      min: 120000,
      max: 150000,
      currency: 'EUR',
      period: 'year',
      interval: 'year',
    });
    assert.deepEqual(job.location, {
      city: 'Lisbon',
      state: 'Lisboa',
      country: 'PT',
      remotePolicy: 'hybrid',
      onsiteDays: '2 days a week',
    });
    assert.equal(job.employmentType, 'full_time');
    assert.equal(job.contractType, 'permanent');
    assert.equal(job.expiresAt, '2026-06-30T23:59:59.000Z');
    const row = await ctx.handle.db
      .selectFrom('jobs')
      .select('max_matches')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    assert.equal(row.max_matches, 25);

    // The form shows what was saved.
    const page = (await recruiter.web.get(jobPath)).body;
    assert.match(page, /id="salaryMin" name="salaryMin" value="120000"/);
    assert.match(page, /id="skill-name-2" name="skillName" maxlength="100" value="Rust"/);
    assert.match(page, /<option value="hybrid" selected>/);

    // Saving it unchanged changes nothing; an edit sends only what changed, clearing works.
    const same = await recruiter.web.post(jobPath, {
      ...FULL_FORM,
      salaryCurrency: 'EUR',
      salaryMin: '120000',
    });
    assert.equal(same.statusCode, 303);
    assert.match((await recruiter.web.get(jobPath)).body, /Nothing changed/);
    const edited = await recruiter.web.post(jobPath, {
      ...FULL_FORM,
      salaryMin: '',
      salaryMax: '',
      salaryCurrency: '',
      salaryPeriod: '',
      skillName: ['Kubernetes'],
      skillLevel: ['nice_to_have'],
      benefits: '',
      contractType: '',
    });
    assert.equal(edited.statusCode, 303);
    const after = await read();
    assert.equal(after.salary, undefined);
    assert.deepEqual(after.skills, [{ name: 'Kubernetes', level: 'nice_to_have' }]);
    assert.deepEqual(after.benefits, []);
    assert.equal(after.contractType, undefined);
    assert.equal(after.seniority, 'Senior');
  });

  test('errors are tied to their fields, and the values typed are kept', async () => {
    const mine = await intakeAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    const before = await jobCount(ctx.handle, mine.account.id);
    await recruiter.web.get('/console/jobs/new');
    const res = await recruiter.web.post('/console/jobs', {
      ...FULL_FORM,
      title: '',
      salaryMin: 'lots',
      salaryCurrency: 'euros',
      maxMatches: '0',
    });
    assert.equal(res.statusCode, 400);
    for (const field of ['title', 'salaryMin', 'salaryCurrency', 'maxMatches']) {
      assert.match(res.body, new RegExp(`<p class="error" id="${field}-error">`), `${field} has its error`);
      assert.match(
        res.body,
        new RegExp(
          `id="${field}" name="${field}"[^>]*aria-describedby="[^"]*${field}-error[^"]*"[^>]*aria-invalid="true"`,
        ),
        `${field} points at its error`,
      );
      assert.match(res.body, new RegExp(`<a href="#${field}">`), `the summary links ${field}`);
    }
    assert.match(res.body, /id="salaryMin" name="salaryMin" value="lots"/, 'the value typed is kept');
    assert.match(res.body, /id="city" name="city" value="Lisbon"/);
    assert.match(res.body, /value="Rust"/);
    assert.equal(await jobCount(ctx.handle, mine.account.id), before, 'nothing saved');
  });

  test('the previews render and save nothing; the description preview shows the script stripped', async () => {
    const mine = await intakeAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    const before = await jobCount(ctx.handle, mine.account.id);
    await recruiter.web.get('/console/jobs/new');
    const description = '<p>Hello <em>there</em></p><script>alert("x")</script><img src=x onerror=alert(1)>';
    const preview = await recruiter.web.post('/console/jobs', {
      ...FULL_FORM,
      description,
      intent: 'preview',
    });
    assert.equal(preview.statusCode, 200);
    const section =
      /<section class="kept" id="description-preview"[\s\S]*?<\/section>/.exec(preview.body)?.[0] ?? '';
    assert.match(section, /<div class="rendered"><p>Hello <em>there<\/em><\/p><\/div>/);
    assert.match(section, /&lt;p&gt;Hello &lt;em&gt;there&lt;\/em&gt;&lt;\/p&gt;/, 'the kept HTML, as text');
    assert.match(section, /will be removed/);
    assert.doesNotMatch(section, /<script|alert|onerror/);
    assert.match(
      preview.body,
      /&lt;script&gt;alert\(&#?\w+;x&#?\w+;\)&lt;\/script&gt;.*<\/textarea>/,
      'what was typed stays in the box',
    );

    const more = await recruiter.web.post('/console/jobs', { ...FULL_FORM, intent: 'more' });
    assert.equal(more.statusCode, 200);
    assert.match(more.body, /id="skill-name-10"/, 'more skill rows');

    const page = await recruiter.web.post('/console/jobs/preview', { ...FULL_FORM, description });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<strong>Preview<\/strong>/);
    assert.match(page.body, /<h1>Senior Platform Engineer<\/h1>/);
    assert.match(page.body, /<p>Hello <em>there<\/em><\/p>/);
    assert.match(page.body, /Kubernetes/);
    assert.doesNotMatch(page.body, /<script>alert|onerror/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.equal(await jobCount(ctx.handle, mine.account.id), before, 'nothing saved');
  });
});
