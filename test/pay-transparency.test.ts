import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { intervalOf } from '../src/domain/jobs/salary-interval.ts';
import { signedIn } from './console-web-client.ts';
import { type ApiClient, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';

/**
 * Pay transparency (issue 33 item 3, extensions.md §9): salary.interval from the period or as
 * sent, JSON-LD unitText from it, and AuthoredJob.advisories, one test per rule; never blocking
 * publishing; shown on the console's job page before Publish.
 */

const ctx = useTestApp();
let api: ApiClient;
let accountId: string;

type Body = Record<string, unknown>;
async function draft(body: Body) {
  const res = await api.post('/v1/jobs', {
    title: 'Engineer',
    category: 'engineering',
    description: '<p>Build.</p>',
    ...body,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().job as {
    id: string;
    salary?: Body;
    advisories: { code: string; rule: string; message: string }[];
  };
}
const codes = async (body: Body) => (await draft(body)).advisories.map((a) => a.code);

const RANGE = { min: 90000, max: 110000, currency: 'USD', period: 'year' };
const SOON = new Date(Date.now() + 30 * 86_400_000).toISOString();

describe('salary.interval', () => {
  test('read from the period in each form; null when it cannot be read', () => {
    const cases: [string | undefined, string | null][] = [
      ['year', 'year'],
      ['Per annum', 'year'],
      ['p.a.', 'year'],
      ['annually', 'year'],
      ['/yr', 'year'],
      ['año', 'year'],
      ['month', 'month'],
      ['per month', 'month'],
      ['Monthly', 'month'],
      ['mois', 'month'],
      ['week', 'week'],
      ['weekly', 'week'],
      ['day', 'day'],
      ['per diem', 'day'],
      ['daily', 'day'],
      ['hour', 'hour'],
      ['an hour', 'hour'],
      ['hourly', 'hour'],
      ['/hr', 'hour'],
      ['per project', null],
      ['fortnightly', null],
      ['', null],
      [undefined, null],
    ];
    for (const [period, interval] of cases) assert.equal(intervalOf(period), interval, String(period));
  });

  test('on the API: derived from period (kept as entered), or as sent; JSON-LD unitText from it', async () => {
    const ctxAccount = await intakeAccount(ctx.app);
    api = ctxAccount.api;
    accountId = ctxAccount.account.id;
    const derived = await draft({ salary: { min: 50, max: 70, currency: 'AUD', period: 'Per Hour' } });
    assert.deepEqual(derived.salary, {
      min: 50,
      max: 70,
      currency: 'AUD',
      period: 'Per Hour',
      interval: 'hour',
    });
    const unread = await draft({ salary: { min: 500, currency: 'AUD', period: 'per shift' } });
    assert.equal(unread.salary?.interval, null);
    const sent = await draft({ salary: { min: 500, currency: 'AUD', period: 'per shift', interval: 'day' } });
    assert.deepEqual(sent.salary, { min: 500, currency: 'AUD', period: 'per shift', interval: 'day' });
    assert.equal(
      (await api.post('/v1/jobs', { title: 'X', salary: { interval: 'fortnight' } })).statusCode,
      400,
    );

    const live = await api.post(`/v1/jobs/${sent.id}/publish`, {});
    assert.equal(live.statusCode, 200, live.body);
    await api.patch(`/v1/jobs/${sent.id}`, {
      location: { city: 'Perth', country: 'AU' },
      publishEdits: true,
    });
    const url = new URL((await api.get(`/v1/jobs/${sent.id}`)).json().job.url).pathname;
    const page = await ctx.app.inject({ method: 'GET', url });
    assert.match(page.body, /"unitText":"DAY"/);
  });
});

describe('advisories, one rule at a time', () => {
  test('EU: no pay at all → pay_range_missing (Art. 5); a single figure is enough', async () => {
    const missing = await draft({ location: { city: 'Berlin', country: 'DE' } });
    assert.deepEqual(
      missing.advisories.map((a) => a.code),
      ['pay_range_missing'],
    );
    assert.match(missing.advisories[0]!.rule, /2023\/970, Art\. 5/);
    assert.deepEqual(
      await codes({ location: { country: 'FR' }, salary: { min: 45000, currency: 'EUR', period: 'year' } }),
      [],
    );
  });

  test('California, Colorado, Washington, New York: no range → pay_range_missing, each citing its own law', async () => {
    const laws: Record<string, RegExp> = { CA: /432\.3/, CO: /8-5-201/, WA: /49\.58\.110/, NY: /194-b/ };
    for (const [state, law] of Object.entries(laws)) {
      const job = await draft({ location: { state, country: 'US' }, expiresAt: SOON });
      assert.deepEqual(
        job.advisories.map((a) => a.code),
        ['pay_range_missing'],
        state,
      );
      assert.match(job.advisories[0]!.rule, law, state);
    }
    // State names as people type them.
    assert.deepEqual(await codes({ location: { state: 'New York', country: 'United States' } }), [
      'pay_range_missing',
    ]);
    // Texas has no such law.
    assert.deepEqual(await codes({ location: { state: 'TX', country: 'US' } }), []);
  });

  test('a range with one end in those states → pay_range_open_ended; both ends → none', async () => {
    assert.deepEqual(
      await codes({ location: { state: 'WA', country: 'US' }, salary: { min: 90000, currency: 'USD' } }),
      ['pay_range_open_ended'],
    );
    assert.deepEqual(
      await codes({ location: { state: 'NY', country: 'US' }, salary: { max: 90000, currency: 'USD' } }),
      ['pay_range_open_ended'],
    );
    assert.deepEqual(await codes({ location: { state: 'NY', country: 'US' }, salary: RANGE }), []);
  });

  test('Ontario: wider than $50,000 under $200,000 → pay_range_too_wide; $50,000 exactly, or above $200,000, is fine', async () => {
    const on = { state: 'ON', country: 'CA' };
    assert.deepEqual(await codes({ location: on, salary: { min: 60000, max: 120000, currency: 'CAD' } }), [
      'pay_range_too_wide',
    ]);
    assert.deepEqual(await codes({ location: on, salary: { min: 60000, max: 110000, currency: 'CAD' } }), []);
    assert.deepEqual(
      await codes({ location: on, salary: { min: 210000, max: 300000, currency: 'CAD' } }),
      [],
    );
    assert.deepEqual(await codes({ location: on }), ['pay_range_missing']);
    // Elsewhere in Canada: no rule here.
    assert.deepEqual(await codes({ location: { state: 'BC', country: 'CA' } }), []);
  });

  test('Colorado without an expiry → closing_date_missing', async () => {
    const co = { state: 'Colorado', country: 'US' };
    const job = await draft({ location: co, salary: RANGE });
    assert.deepEqual(
      job.advisories.map((a) => a.code),
      ['closing_date_missing'],
    );
    assert.match(job.advisories[0]!.rule, /SB 23-105/);
    assert.deepEqual(await codes({ location: co, salary: RANGE, expiresAt: SOON }), []);
  });

  test('a question asking for current or past pay → pay_history_question, wherever the job is; expected pay is fine', async () => {
    const ask = (label: string) => ({
      location: { city: 'Sydney', country: 'AU' },
      questions: [{ id: 'q1', label, type: 'short_text' }],
    });
    for (const label of [
      'What is your current salary?',
      'Salary history',
      'How much do you currently earn?',
      '¿Cuál es tu salario actual?',
    ])
      assert.deepEqual(await codes(ask(label)), ['pay_history_question'], label);
    for (const label of ['What are your salary expectations?', 'Expected pay'])
      assert.deepEqual(await codes(ask(label)), [], label);
  });

  test('a complete Australian job has none; several shortfalls list each; publishing is never refused', async () => {
    assert.deepEqual(
      await codes({
        location: { city: 'Melbourne', state: 'VIC', country: 'AU' },
        salary: { min: 120000, max: 140000, currency: 'AUD', period: 'year' },
        expiresAt: SOON,
        questions: [{ id: 'q1', label: 'Why this role?', type: 'long_text' }],
      }),
      [],
    );
    const many = await draft({
      location: { state: 'CO', country: 'US' },
      questions: [{ id: 'q1', label: 'Your previous salary', type: 'number' }],
    });
    assert.deepEqual(
      many.advisories.map((a) => a.code),
      ['pay_range_missing', 'closing_date_missing', 'pay_history_question'],
    );
    const published = await api.post(`/v1/jobs/${many.id}/publish`, {});
    assert.equal(published.statusCode, 200, published.body);
    assert.equal(published.json().job.advisories.length, 3);

    // The console's job page shows them before Publish.
    const admin = await signedIn(ctx.app, accountId, 'admin');
    const fresh = await draft({ location: { state: 'CO', country: 'US' } });
    const page = await admin.web.get(`/console/jobs/${fresh.id}`);
    assert.equal(page.statusCode, 200);
    const advice = page.body.indexOf('Before you publish: pay transparency');
    assert.ok(advice > 0, 'advisories shown');
    assert.ok(advice < page.body.indexOf('>Publish</button>'), 'before the Publish button');
    assert.match(page.body, /Colorado requires the pay range in every job posting\./);
    assert.match(page.body, /\(Colorado C\.R\.S\. §8-5-201\(2\)\)/);
  });
});
