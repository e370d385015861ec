import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { client, consoleCall, jobsAccount, newKey } from './support/accounts.ts';
import { BASE_URL, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { jobBody, jobCount, jobRow } from './support/jobs.ts';
import { DAY } from './support/time.ts';

let api: Awaited<ReturnType<typeof jobsAccount>>['api'];

const ctx = useTestApp({}, async () => {
  ({ api } = await jobsAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } }));
});

/** Every JobWrite field, each with a valid value. */
function fullBody(now: Date): Record<string, unknown> {
  return {
    title: 'Senior Platform Engineer',
    category: 'engineering',
    description: '<p>Run the platform.</p>',
    responsibilities: ['Keep it up', 'Make it fast'],
    skills: [
      { name: 'TypeScript', level: 'required' },
      { name: 'PostgreSQL', level: 'nice_to_have' },
    ],
    benefits: ['Remote budget'],
    seniority: 'senior',
    yearsExperience: '5+',
    employmentType: 'full_time',
    contractType: 'permanent',
    salary: { min: 120_000, max: 150_000.5, currency: 'AUD', period: 'year' },
    location: { country: 'AU', state: 'NSW', city: 'Sydney', remotePolicy: 'hybrid', onsiteDays: '2' },
    workStyle: 'Async first',
    expiresAt: new Date(now.getTime() + 10 * DAY).toISOString(),
    maxMatches: 25,
  };
}

async function rejects(body: unknown, field: string, route = '/v1/jobs', method: 'post' | 'patch' = 'post') {
  const res = await api[method](route, body as Record<string, unknown>);
  assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 120)} → ${res.body}`);
  const error = errorOf(res);
  assert.equal(error.code, 'bad_request');
  assert.equal(error.field, field, `field of ${res.body}`);
  assert.match(error.message, new RegExp(field.replace(/[.[\]]/g, '\\$&')), 'the message names the field');
  return error;
}

describe('POST /v1/jobs', () => {
  test('creates a draft with every field, its applyLink and the account company', async () => {
    const created = await consoleCall(ctx.app, 'POST', '/accounts', {
      name: 'Acme Pty Ltd',
      companyName: 'Acme',
      logoUrl: 'https://cdn.example.com/acme.png',
      companyAddress: `acme-${Date.now().toString(36)}`,
    });
    assert.equal(created.statusCode, 201);
    const accountId = created.json().account.id;
    const acme = client(ctx.app, (await newKey(ctx.app, accountId, ['jobs:read', 'jobs:write'])).secret);

    const body = fullBody(ctx.clock.now());
    const res = await acme.post('/v1/jobs', body);
    assert.equal(res.statusCode, 201, res.body);
    const job = res.json().job;
    assert.match(job.id, /^job_[0-9a-z]+$/);
    assert.equal(job.status, 'draft');
    for (const field of [
      'title',
      'category',
      'description',
      'responsibilities',
      'skills',
      'benefits',
      'seniority',
      'yearsExperience',
      'employmentType',
      'contractType',
      'salary',
      'location',
      'workStyle',
      'expiresAt',
    ]) {
      // The salary comes back with its interval, read from the period (issue 33).
      const expected = field === 'salary' ? { ...(body.salary as object), interval: 'year' } : body[field];
      assert.deepEqual(job[field], expected, field);
    }
    assert.deepEqual(job.company, { name: 'Acme', logoUrl: 'https://cdn.example.com/acme.png' });
    assert.equal(job.applyLink, `${BASE_URL}/apply/${job.id}`);
    assert.equal(job.url, undefined, 'a draft has no hosted page yet');
    assert.equal(job.postedAt, undefined);
    assert.equal(job.closedAt, undefined);
    assert.equal(job.updatedAt, ctx.clock.now().toISOString());

    const row = await jobRow(ctx.handle, job.id);
    assert.equal(row.account_id, accountId);
    assert.equal(row.status, 'draft');
    assert.equal(row.max_matches, 25);
    assert.equal(row.slug, null);
    assert.equal(row.staged, null);
    assert.equal(row.content.title, body.title);
    assert.equal(row.expires_at?.toISOString(), body.expiresAt);

    // A draft is not readable through jobs:read.
    assert.equal((await acme.get(`/v1/jobs/${job.id}`)).statusCode, 404);
  });

  test('description is sanitised on write with the hosted page’s allow-list (create and edit)', async () => {
    const hostile =
      '<p onclick="steal()">Join us<script>alert(1)</script></p><img src=x onerror=alert(2)>' +
      '<a href="javascript:alert(3)">more</a><iframe src="https://evil.test"></iframe><h2>Team</h2>';
    const res = await api.post('/v1/jobs', { title: 'Sanitised', description: hostile });
    assert.equal(res.statusCode, 201, res.body);
    const { job } = res.json();
    assert.equal(
      job.description,
      '<p>Join us</p><a rel="nofollow noopener noreferrer ugc">more</a><h2>Team</h2>',
    );
    const edited = await api.patch(`/v1/jobs/${job.id}`, { description: `${hostile}<b>bold</b>` });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.doesNotMatch(edited.json().job.description, /script|onclick|onerror|javascript:|iframe|img/i);
    assert.match(edited.json().job.description, /<b>bold<\/b>$/);
    // Plain text stays plain text.
    const plain = await api.post('/v1/jobs', { title: 'Plain', description: 'We build software.' });
    assert.equal(plain.json().job.description, 'We build software.');
  });

  test('company name falls back to the account name; a draft needs only a title', async () => {
    const created = await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Plain Name Co' });
    const accountId = created.json().account.id;
    const plain = client(ctx.app, (await newKey(ctx.app, accountId, ['jobs:write'])).secret);
    const res = await plain.post('/v1/jobs', { title: 'Barista' });
    assert.equal(res.statusCode, 201, res.body);
    const job = res.json().job;
    assert.deepEqual(job.company, { name: 'Plain Name Co' });
    assert.equal(job.title, 'Barista');
    assert.equal(job.description, '');
    assert.deepEqual(job.responsibilities, []);
    assert.deepEqual(job.skills, []);
    assert.deepEqual(job.benefits, []);
    assert.equal(job.category, undefined);
  });

  test('title is required and cannot be empty', async () => {
    const { account, api: own } = await jobsAccount(ctx.app);
    for (const body of [{}, { description: 'x' }]) {
      const res = await own.post('/v1/jobs', body);
      assert.equal(res.statusCode, 400);
      assert.equal(errorOf(res).field, 'title');
      assert.match(errorOf(res).message, /title/);
    }
    const empty = await own.post('/v1/jobs', { title: '' });
    assert.equal(empty.statusCode, 400);
    assert.equal(errorOf(empty).field, 'title');
    const nullTitle = await own.post('/v1/jobs', { title: null });
    assert.equal(nullTitle.statusCode, 400);
    assert.equal(errorOf(nullTitle).field, 'title');
    assert.equal(await jobCount(ctx.handle, account.id), 0, 'nothing was created');
  });

  test('a body that is not a JSON object is 400', async () => {
    for (const body of [[], ['title']]) {
      const res = await api.post('/v1/jobs', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(errorOf(res).code, 'bad_request');
    }
  });

  describe('each field is validated to its type and enum', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['title not a string', { title: 42 }, 'title'],
      ['category outside the enum', { category: 'astronaut' }, 'category'],
      ['category null', { category: null }, 'category'],
      ['description not a string', { description: ['x'] }, 'description'],
      ['responsibilities not an array', { responsibilities: 'do things' }, 'responsibilities'],
      ['responsibilities item not a string', { responsibilities: [1] }, 'responsibilities[0]'],
      ['benefits not an array', { benefits: { a: 1 } }, 'benefits'],
      ['skills not an array', { skills: 'TypeScript' }, 'skills'],
      ['Skill.level outside the enum', { skills: [{ name: 'Go', level: 'expert' }] }, 'skills[0].level'],
      ['Skill.level missing', { skills: [{ name: 'Go' }] }, 'skills[0].level'],
      ['Skill.name missing', { skills: [{ level: 'required' }] }, 'skills[0].name'],
      [
        'Skill with an unknown field',
        { skills: [{ name: 'Go', level: 'required', years: 3 }] },
        'skills[0].years',
      ],
      ['seniority not a string', { seniority: 3 }, 'seniority'],
      ['yearsExperience not a string', { yearsExperience: 5 }, 'yearsExperience'],
      ['employmentType outside the enum', { employmentType: 'contract' }, 'employmentType'],
      ['contractType outside the enum', { contractType: 'temporary' }, 'contractType'],
      [
        'Location.remotePolicy outside the enum',
        { location: { remotePolicy: 'wfh' } },
        'location.remotePolicy',
      ],
      ['Location.city not a string', { location: { city: 7 } }, 'location.city'],
      ['Location with an unknown field', { location: { planet: 'Mars' } }, 'location.planet'],
      ['location not an object', { location: 'Sydney' }, 'location'],
      ['Salary.min not a number', { salary: { min: '100' } }, 'salary.min'],
      ['Salary.max not a number', { salary: { max: true } }, 'salary.max'],
      ['Salary.min negative', { salary: { min: -1 } }, 'salary.min'],
      ['Salary.currency not ISO 4217', { salary: { currency: 'XYZ' } }, 'salary.currency'],
      ['Salary.currency not a code', { salary: { currency: 'dollars' } }, 'salary.currency'],
      ['Salary.min above Salary.max', { salary: { min: 200, max: 100 } }, 'salary.min'],
      ['Salary with an unknown field', { salary: { bonus: 5 } }, 'salary.bonus'],
      ['workStyle not a string', { workStyle: false }, 'workStyle'],
      ['expiresAt not a date-time', { expiresAt: 'next tuesday' }, 'expiresAt'],
      ['expiresAt a number', { expiresAt: 1_900_000_000_000 }, 'expiresAt'],
      ['expiresAt in the past', { expiresAt: '2000-01-01T00:00:00Z' }, 'expiresAt'],
      ['maxMatches not an integer', { maxMatches: 2.5 }, 'maxMatches'],
      ['maxMatches zero', { maxMatches: 0 }, 'maxMatches'],
      ['maxMatches a string', { maxMatches: '10' }, 'maxMatches'],
      ['publishEdits on create', { publishEdits: true }, 'publishEdits'],
    ];
    for (const [name, fields, field] of cases) {
      test(`${name} → 400 naming ${field}`, async () => {
        await rejects(jobBody(fields), field);
      });
    }

    test('every enum value is accepted', async () => {
      const res = await api.post('/v1/jobs', {
        title: 'Enum check',
        employmentType: 'part_time',
        contractType: 'casual',
        skills: [{ name: 'A', level: 'nice_to_have' }],
        location: { remotePolicy: 'remote' },
        salary: { min: 10, max: 10, currency: 'EUR', period: 'hour' },
      });
      assert.equal(res.statusCode, 201, res.body);
      for (const category of ['data', 'customer_success', 'hr_people', 'construction_trades', 'other']) {
        assert.equal((await api.post('/v1/jobs', { title: 't', category })).statusCode, 201, category);
      }
      for (const contractType of ['permanent', 'part_time', 'fixed_term', 'contract', 'casual']) {
        assert.equal(
          (await api.post('/v1/jobs', { title: 't', contractType })).statusCode,
          201,
          contractType,
        );
      }
      for (const remotePolicy of ['onsite', 'hybrid', 'remote']) {
        const r = await api.post('/v1/jobs', { title: 't', location: { remotePolicy } });
        assert.equal(r.statusCode, 201, remotePolicy);
      }
    });

    test('optional words accept null (nothing set)', async () => {
      const res = await api.post('/v1/jobs', {
        title: 'Nulls',
        seniority: null,
        yearsExperience: null,
        employmentType: null,
        contractType: null,
        salary: null,
        location: null,
        workStyle: null,
        expiresAt: null,
        maxMatches: null,
      });
      assert.equal(res.statusCode, 201, res.body);
      const job = res.json().job;
      for (const field of ['seniority', 'salary', 'location', 'expiresAt', 'employmentType']) {
        assert.equal(job[field], undefined, field);
      }
    });
  });

  describe('fields that must not be sent', () => {
    const forbidden: Record<string, unknown> = {
      status: 'published',
      id: 'job_mine',
      slug: 'my-slug',
      url: 'https://example.com/job',
      applyLink: 'https://example.com/apply',
      company: { name: 'Other' },
      postedAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      closedAt: '2026-01-01T00:00:00Z',
      salaryRange: '100-200',
      managed: true,
    };
    for (const [field, value] of Object.entries(forbidden)) {
      test(`${field} → 400 naming it, on create and on edit`, async () => {
        const { account, api: own } = await jobsAccount(ctx.app);
        const onCreate = await own.post('/v1/jobs', jobBody({ [field]: value }));
        assert.equal(onCreate.statusCode, 400);
        assert.equal(errorOf(onCreate).field, field);
        assert.equal(await jobCount(ctx.handle, account.id), 0, 'never silently ignored: nothing created');

        const draft = (await own.post('/v1/jobs', jobBody())).json().job;
        const before = await jobRow(ctx.handle, draft.id);
        ctx.clock.advance(1000);
        const onEdit = await own.patch(`/v1/jobs/${draft.id}`, { description: 'changed', [field]: value });
        assert.equal(onEdit.statusCode, 400, onEdit.body);
        assert.equal(errorOf(onEdit).code, 'bad_request');
        assert.equal(errorOf(onEdit).field, field);
        assert.match(errorOf(onEdit).message, new RegExp(field));
        assert.deepEqual(await jobRow(ctx.handle, draft.id), before, 'nothing written');
      });
    }
  });

  describe('maximum lengths', () => {
    const over: [string, Record<string, unknown>, string][] = [
      ['title 201 characters', { title: 'x'.repeat(201) }, 'title'],
      ['description 100,001 characters', { description: 'x'.repeat(100_001) }, 'description'],
      ['51 responsibilities', { responsibilities: Array(51).fill('r') }, 'responsibilities'],
      [
        'a responsibility of 1,001 characters',
        { responsibilities: ['x'.repeat(1001)] },
        'responsibilities[0]',
      ],
      ['51 benefits', { benefits: Array(51).fill('b') }, 'benefits'],
      ['a benefit of 1,001 characters', { benefits: ['ok', 'x'.repeat(1001)] }, 'benefits[1]'],
      ['101 skills', { skills: Array(101).fill({ name: 'S', level: 'required' }) }, 'skills'],
      [
        'a skill name of 101 characters',
        { skills: [{ name: 'x'.repeat(101), level: 'required' }] },
        'skills[0].name',
      ],
      ['seniority 201 characters', { seniority: 'x'.repeat(201) }, 'seniority'],
      ['yearsExperience 51 characters', { yearsExperience: 'x'.repeat(51) }, 'yearsExperience'],
      ['workStyle 201 characters', { workStyle: 'x'.repeat(201) }, 'workStyle'],
      ['location.city 201 characters', { location: { city: 'x'.repeat(201) } }, 'location.city'],
      ['location.country 201 characters', { location: { country: 'x'.repeat(201) } }, 'location.country'],
      ['location.state 201 characters', { location: { state: 'x'.repeat(201) } }, 'location.state'],
      [
        'location.onsiteDays 51 characters',
        { location: { onsiteDays: 'x'.repeat(51) } },
        'location.onsiteDays',
      ],
      ['salary.period 51 characters', { salary: { period: 'x'.repeat(51) } }, 'salary.period'],
      ['salary.max above 10^12', { salary: { max: 1e12 + 1 } }, 'salary.max'],
      ['maxMatches above 1,000,000', { maxMatches: 1_000_001 }, 'maxMatches'],
    ];
    for (const [name, fields, field] of over) {
      test(`${name} → 400 naming ${field}`, async () => {
        await rejects(jobBody(fields), field);
      });
    }

    test('exactly at every maximum is accepted', async () => {
      const res = await api.post(
        '/v1/jobs',
        jobBody({
          title: 'x'.repeat(200),
          description: 'x'.repeat(100_000),
          responsibilities: Array(50).fill('x'.repeat(1000)),
          benefits: Array(50).fill('x'.repeat(1000)),
          skills: Array(100).fill({ name: 'x'.repeat(100), level: 'required' }),
          seniority: 'x'.repeat(200),
          yearsExperience: 'x'.repeat(50),
          workStyle: 'x'.repeat(200),
          location: {
            city: 'x'.repeat(200),
            country: 'x'.repeat(200),
            state: 'x'.repeat(200),
            onsiteDays: 'x'.repeat(50),
          },
          salary: { min: 0, max: 1e12, period: 'x'.repeat(50) },
          maxMatches: 1_000_000,
        }),
      );
      assert.equal(res.statusCode, 201, res.body.slice(0, 300));
      assert.equal(res.json().job.title.length, 200);
    });
  });

  test('an Idempotency-Key replays the first answer and creates one draft', async () => {
    const { account, api: own } = await jobsAccount(ctx.app);
    const headers = { 'idempotency-key': `create-${Date.now()}` };
    const first = await own.post('/v1/jobs', jobBody(), headers);
    const second = await own.post('/v1/jobs', jobBody(), headers);
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.equal(second.json().job.id, first.json().job.id);
    assert.equal(await jobCount(ctx.handle, account.id), 1);
    const other = await own.post('/v1/jobs', jobBody({ title: 'Different' }), headers);
    assert.equal(other.statusCode, 409);
    assert.equal(errorOf(other).code, 'conflict');
    assert.equal(await jobCount(ctx.handle, account.id), 1);
  });

  test('a read-only key cannot create', async () => {
    const { account } = await jobsAccount(ctx.app);
    const reader = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:read'])).secret);
    const res = await reader.post('/v1/jobs', jobBody());
    assert.equal(res.statusCode, 403);
    assert.equal(errorOf(res).code, 'forbidden');
    assert.equal(await jobCount(ctx.handle, account.id), 0);
  });
});
