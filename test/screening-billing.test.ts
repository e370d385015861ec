import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { type client, consoleCall, newAccount, screeningAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applyTo } from './support/intake.ts';
import { managedJob, manageJob } from './support/jobs.ts';
import { newTemplate, screeningRow, screeningRows, triggerScreening } from './support/screening.ts';
import { HOUR } from './support/time.ts';

/**
 * Screening templates (console), included and overage screenings per managing period, the price
 * locked at the call, billing only on completion (console complete, the month's billing report),
 * and the monthly overage cap with its committed-overage rule (402 overage_cap_reached).
 */

const MARCH = '2026-03-10T12:00:00.000Z';

const ctx = useTestApp({ clock: new ManualClock(MARCH) });

type Api = ReturnType<typeof client>;

interface Triggered {
  screening: { screeningId: string; status: string; completeBy: string; requestedAt: string };
  billing: 'included' | 'overage';
  priceCents: number;
  currency: string;
}

function created(res: LightMyRequestResponse): Triggered {
  assert.equal(res.statusCode, 201, res.body);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.equal(res.headers[name], undefined, name);
  }
  return res.json();
}

/** Asserts a 402 overage_cap_reached and its figures; no rate headers either. */
function assertCapReached(
  res: LightMyRequestResponse,
  figures: { priceCents: number; currency: string; capCents: number; spendCents: number },
) {
  const error = assertError(res, 402, 'overage_cap_reached');
  assert.deepEqual(
    {
      priceCents: error.priceCents,
      currency: error.currency,
      capCents: error.capCents,
      spendCents: error.spendCents,
    },
    figures,
  );
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.equal(res.headers[name], undefined, name);
  }
}

/** An account with `limits`, an AUD template at 1500 and a managed ad. */
async function scenario(limits: Record<string, number>, priceCents: number | null = 1500) {
  const s = await screeningAccount(ctx.app, { limits });
  const template = await newTemplate(ctx.app, s.account.id, { priceCents, currency: 'AUD' });
  const job = await managedJob(ctx.app, s.api, s.account.id);
  return { ...s, template, job };
}

/** `n` applications to `jobId`: the role's candidates (applicants are never contact-limited). */
async function applicants(api: Api, jobId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push((await applyTo(ctx, api, jobId)).candidateId);
  return ids;
}

const at = (ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();

const complete = (accountId: string, screeningId: string) =>
  consoleCall(ctx.app, 'POST', `/accounts/${accountId}/screenings/${screeningId}/complete`);

async function billing(accountId: string, month: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/billing?month=${month}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as {
    month: string;
    currency: string | null;
    spendCents: number;
    spendByCurrency: Record<string, number>;
    capCents: number;
    screenings: {
      screeningId: string;
      status: string;
      billing: string;
      priceCents: number;
      currency: string;
      billed: boolean;
      completedAt: string | null;
    }[];
  };
}

const templates = (accountId: string) => `/accounts/${accountId}/screening-templates`;

describe('screening templates (console)', () => {
  test('create: 201 { template }; active defaults to true; a null price and USD are kept', async () => {
    const { id } = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'POST', templates(id), {
      name: 'Phone screen',
      priceCents: 2500,
      currency: 'AUD',
    });
    assert.equal(res.statusCode, 201, res.body);
    const template = res.json().template;
    assert.match(template.id, /^tpl_/);
    assert.deepEqual(res.json(), {
      template: { id: template.id, name: 'Phone screen', priceCents: 2500, currency: 'AUD', active: true },
    });
    const unpriced = await consoleCall(ctx.app, 'POST', templates(id), {
      name: 'Unpriced',
      priceCents: null,
      currency: 'USD',
      active: false,
    });
    assert.equal(unpriced.statusCode, 201, unpriced.body);
    assert.deepEqual(unpriced.json().template, {
      id: unpriced.json().template.id,
      name: 'Unpriced',
      priceCents: null,
      currency: 'USD',
      active: false,
    });
    const free = await consoleCall(ctx.app, 'POST', templates(id), {
      name: 'Free',
      priceCents: 0,
      currency: 'USD',
    });
    assert.equal(free.statusCode, 201, free.body);
    const rows = await ctx.handle.db
      .selectFrom('screening_templates')
      .selectAll()
      .where('account_id', '=', id)
      .orderBy('name')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.name, r.price_cents, r.currency, r.active]),
      [
        ['Free', 0, 'USD', true],
        ['Phone screen', 2500, 'AUD', true],
        ['Unpriced', null, 'USD', false],
      ],
    );
  });

  test('create refuses a currency outside AUD/USD, a missing or bad price, a bad name, unknown fields (400); unknown account 404; console token 401', async () => {
    const { id } = await newAccount(ctx.app);
    const bodies: Record<string, unknown>[] = [
      { name: 'x', priceCents: 100, currency: 'EUR' },
      { name: 'x', priceCents: 100, currency: 'aud' },
      { name: 'x', priceCents: 100 },
      { name: 'x', currency: 'AUD' },
      { name: 'x', priceCents: -1, currency: 'AUD' },
      { name: 'x', priceCents: 1.5, currency: 'AUD' },
      { name: 'x', priceCents: '1500', currency: 'AUD' },
      { name: '', priceCents: 100, currency: 'AUD' },
      { priceCents: 100, currency: 'AUD' },
      { name: 'x', priceCents: 100, currency: 'AUD', active: 'yes' },
      { name: 'x', priceCents: 100, currency: 'AUD', accountId: 'acc_other' },
    ];
    for (const body of bodies) {
      assertError(await consoleCall(ctx.app, 'POST', templates(id), body), 400, 'bad_request');
    }
    assertError(
      await consoleCall(ctx.app, 'POST', templates('acc_does_not_exist'), {
        name: 'x',
        priceCents: 1,
        currency: 'AUD',
      }),
      404,
      'not_found',
    );
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: `/console/v1${templates(id)}`,
      payload: { name: 'x', priceCents: 1, currency: 'AUD' },
    });
    assertError(anonymous, 401, 'unauthorized');
    const rows = await ctx.handle.db
      .selectFrom('screening_templates')
      .select('id')
      .where('account_id', '=', id)
      .execute();
    assert.deepEqual(rows, []);
  });

  test('patch: each field alone, a null price, active off and on; unknown or another account’s template 404; bad bodies 400', async () => {
    const { id } = await newAccount(ctx.app);
    const other = await newAccount(ctx.app);
    const template = await newTemplate(ctx.app, id, {
      name: 'Video screen',
      priceCents: 1500,
      currency: 'AUD',
    });
    const url = `${templates(id)}/${template.id}`;
    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ priceCents: 2000 }, { name: 'Video screen', priceCents: 2000, currency: 'AUD', active: true }],
      [{ currency: 'USD' }, { name: 'Video screen', priceCents: 2000, currency: 'USD', active: true }],
      [{ name: 'Renamed' }, { name: 'Renamed', priceCents: 2000, currency: 'USD', active: true }],
      [{ active: false }, { name: 'Renamed', priceCents: 2000, currency: 'USD', active: false }],
      [
        { priceCents: null, active: true },
        { name: 'Renamed', priceCents: null, currency: 'USD', active: true },
      ],
      [{}, { name: 'Renamed', priceCents: null, currency: 'USD', active: true }],
    ];
    for (const [body, expected] of steps) {
      const res = await consoleCall(ctx.app, 'PATCH', url, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { template: { id: template.id, ...expected } });
      const row = await ctx.handle.db
        .selectFrom('screening_templates')
        .selectAll()
        .where('id', '=', template.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { name: row.name, priceCents: row.price_cents, currency: row.currency, active: row.active },
        expected,
      );
    }
    for (const body of [
      { currency: 'GBP' },
      { priceCents: -5 },
      { name: '' },
      { active: null },
      { colour: 'red' },
    ]) {
      assertError(await consoleCall(ctx.app, 'PATCH', url, body), 400, 'bad_request');
    }
    assertError(
      await consoleCall(ctx.app, 'PATCH', `${templates(id)}/tpl_unknown`, { priceCents: 1 }),
      404,
      'not_found',
    );
    // Through another account's path, the template is not found, and stays as it was.
    assertError(
      await consoleCall(ctx.app, 'PATCH', `${templates(other.id)}/${template.id}`, { priceCents: 1 }),
      404,
      'not_found',
    );
    const row = await ctx.handle.db
      .selectFrom('screening_templates')
      .selectAll()
      .where('id', '=', template.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.price_cents, null);
    assert.equal(row.account_id, id);
  });
});

describe('included and overage', () => {
  test('includedScreeningsPerManagedAd per managed ad: past them, overage at the template’s price', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 2 });
    const [a, b, c] = await applicants(s.api, s.job.id, 3);
    const answers = [];
    for (const id of [a!, b!, c!])
      answers.push(created(await triggerScreening(s.api, s.job.id, id, { templateId: s.template.id })));
    assert.deepEqual(
      answers.map((x) => [x.billing, x.priceCents, x.currency]),
      [
        ['included', 1500, 'AUD'],
        ['included', 1500, 'AUD'],
        ['overage', 1500, 'AUD'],
      ],
    );
    for (const answer of answers) {
      const row = await screeningRow(ctx.handle, answer.screening.screeningId);
      assert.equal(row?.billing, answer.billing);
      assert.equal(row?.price_cents, 1500);
    }
    // Another managed ad of the account has its own included screenings.
    const second = await managedJob(ctx.app, s.api, s.account.id, { title: 'Second role' });
    const [d] = await applicants(s.api, second.id, 1);
    assert.equal(
      created(await triggerScreening(s.api, second.id, d!, { templateId: s.template.id })).billing,
      'included',
    );
  });

  test('a re-managed ad starts afresh: unmanage, then manage again later', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 1 });
    const ids = await applicants(s.api, s.job.id, 4);
    const body = { templateId: s.template.id };
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[0]!, body)).billing, 'included');
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[1]!, body)).billing, 'overage');
    ctx.clock.advance(HOUR);
    const off = await consoleCall(ctx.app, 'POST', `/accounts/${s.account.id}/jobs/${s.job.id}/unmanage`);
    assert.equal(off.statusCode, 200, off.body);
    ctx.clock.advance(HOUR);
    // Managing again is a new managing period, even though the earlier screenings are still open.
    await manageJob(ctx.app, s.account.id, s.job.id);
    const third = created(await triggerScreening(s.api, s.job.id, ids[2]!, body));
    assert.equal(third.billing, 'included');
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[3]!, body)).billing, 'overage');
    const rows = await screeningRows(ctx.handle, s.account.id);
    assert.deepEqual(
      rows.map((r) => [r.billing, r.managed_since.toISOString()]).sort(),
      [
        ['included', MARCH],
        ['overage', MARCH],
        ['included', new Date(Date.parse(MARCH) + 2 * HOUR).toISOString()],
        ['overage', new Date(Date.parse(MARCH) + 2 * HOUR).toISOString()],
      ].sort(),
    );
    assert.equal((await screeningRow(ctx.handle, third.screening.screeningId))?.status, 'invited');
  });

  test('an expired or cancelled included screening gives its place back; a completed one keeps it', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 1 });
    const ids = await applicants(s.api, s.job.id, 4);
    const body = { templateId: s.template.id };
    const expiring = created(
      await triggerScreening(s.api, s.job.id, ids[0]!, { ...body, completeBy: at(HOUR) }),
    );
    assert.equal(expiring.billing, 'included');
    ctx.clock.advance(HOUR);
    const next = created(await triggerScreening(s.api, s.job.id, ids[1]!, body));
    assert.equal(next.billing, 'included');
    assert.equal((await complete(s.account.id, next.screening.screeningId)).statusCode, 200);
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[2]!, body)).billing, 'overage');
  });
});

describe('the price is locked at the call', () => {
  test('a later price change does not touch an open screening: completing it bills the old price', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 100_000 });
    const [a, b] = await applicants(s.api, s.job.id, 2);
    const first = created(await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id }));
    assert.deepEqual([first.billing, first.priceCents], ['overage', 1500]);
    const patched = await consoleCall(ctx.app, 'PATCH', `${templates(s.account.id)}/${s.template.id}`, {
      priceCents: 9900,
    });
    assert.equal(patched.statusCode, 200, patched.body);
    ctx.clock.advance(HOUR);
    const second = created(await triggerScreening(s.api, s.job.id, b!, { templateId: s.template.id }));
    assert.deepEqual([second.billing, second.priceCents], ['overage', 9900]);
    ctx.clock.advance(HOUR);
    const done = await complete(s.account.id, first.screening.screeningId);
    assert.equal(done.statusCode, 200, done.body);
    assert.equal((await screeningRow(ctx.handle, first.screening.screeningId))?.price_cents, 1500);
    const report = await billing(s.account.id, '2026-03');
    assert.equal(report.spendCents, 1500);
    const line = report.screenings.find((x) => x.screeningId === first.screening.screeningId);
    assert.deepEqual([line?.priceCents, line?.billed, line?.status], [1500, true, 'completed']);
    // Even a template made unpriced afterwards leaves the locked price billable.
    await consoleCall(ctx.app, 'PATCH', `${templates(s.account.id)}/${s.template.id}`, { priceCents: null });
    assert.equal((await complete(s.account.id, second.screening.screeningId)).statusCode, 200);
    assert.equal((await billing(s.account.id, '2026-03')).spendCents, 1500 + 9900);
  });
});

describe('billing happens only on completion', () => {
  test('open overage is not billed; console complete bills it at the locked price, once', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 1, monthlyOverageCapCents: 100_000 });
    const [a, b] = await applicants(s.api, s.job.id, 2);
    const included = created(await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id }));
    const overage = created(await triggerScreening(s.api, s.job.id, b!, { templateId: s.template.id }));
    let report = await billing(s.account.id, '2026-03');
    assert.equal(report.month, '2026-03');
    assert.equal(report.spendCents, 0);
    assert.equal(report.capCents, 100_000);
    assert.deepEqual(
      report.screenings.map((x) => [x.screeningId, x.billing, x.status, x.billed]).sort(),
      [
        [included.screening.screeningId, 'included', 'invited', false],
        [overage.screening.screeningId, 'overage', 'invited', false],
      ].sort(),
    );
    ctx.clock.advance(2 * HOUR);
    const completedAt = ctx.clock.now();
    const res = await complete(s.account.id, overage.screening.screeningId);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().screening.screeningId, overage.screening.screeningId);
    assert.equal(res.json().screening.status, 'completed');
    const row = await screeningRow(ctx.handle, overage.screening.screeningId);
    assert.equal(row?.status, 'completed');
    assert.equal(row?.completed_at?.getTime(), completedAt.getTime());
    // The included one completes unbilled.
    assert.equal((await complete(s.account.id, included.screening.screeningId)).statusCode, 200);
    report = await billing(s.account.id, '2026-03');
    assert.equal(report.spendCents, 1500);
    assert.equal(report.currency, 'AUD');
    assert.deepEqual(report.spendByCurrency, { AUD: 1500 });
    const byId = new Map(report.screenings.map((x) => [x.screeningId, x]));
    assert.deepEqual(
      [byId.get(overage.screening.screeningId)?.billed, byId.get(overage.screening.screeningId)?.completedAt],
      [true, completedAt.toISOString()],
    );
    assert.equal(byId.get(included.screening.screeningId)?.billed, false);
    assert.equal(byId.get(included.screening.screeningId)?.status, 'completed');
    // Completing again is 409 and bills nothing more.
    assertError(await complete(s.account.id, overage.screening.screeningId), 409, 'conflict');
    assert.equal((await billing(s.account.id, '2026-03')).spendCents, 1500);
  });

  test('an expired or cancelled screening is never billed, and cannot be completed (409)', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 100_000 });
    const [a, b] = await applicants(s.api, s.job.id, 2);
    const expiring = created(
      await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id, completeBy: at(HOUR) }),
    );
    const cancelling = created(await triggerScreening(s.api, s.job.id, b!, { templateId: s.template.id }));
    ctx.clock.advance(HOUR);
    const error = assertError(await complete(s.account.id, expiring.screening.screeningId), 409, 'conflict');
    assert.match(error.message, /expired/);
    assert.equal((await s.api.post(`/v1/jobs/${s.job.id}/close`)).statusCode, 200);
    assertError(await complete(s.account.id, cancelling.screening.screeningId), 409, 'conflict');
    const expiredRow = await screeningRow(ctx.handle, expiring.screening.screeningId);
    assert.equal(expiredRow?.status, 'invited', 'expiry is computed, never written');
    assert.equal(expiredRow?.completed_at, null);
    const cancelledRow = await screeningRow(ctx.handle, cancelling.screening.screeningId);
    assert.equal(cancelledRow?.status, 'cancelled');
    assert.equal(cancelledRow?.completed_at, null);
    const report = await billing(s.account.id, '2026-03');
    assert.equal(report.spendCents, 0);
    assert.deepEqual(
      report.screenings.map((x) => [x.screeningId, x.status, x.billing, x.billed]).sort(),
      [
        [expiring.screening.screeningId, 'expired', 'overage', false],
        [cancelling.screening.screeningId, 'cancelled', 'overage', false],
      ].sort(),
    );
  });

  test('complete: an unknown screening or an unknown account is 404', async () => {
    const s = await scenario({});
    assertError(await complete(s.account.id, 'scr_unknown'), 404, 'not_found');
    assertError(await complete('acc_unknown', 'scr_unknown'), 404, 'not_found');
  });

  test('billed in the month it completes: requested on 31 March, completed on 1 April', async () => {
    ctx.clock.set('2026-03-31T20:00:00Z');
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 100_000 });
    const [a] = await applicants(s.api, s.job.id, 1);
    const late = created(await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id }));
    ctx.clock.set('2026-04-01T10:00:00Z');
    assert.equal((await complete(s.account.id, late.screening.screeningId)).statusCode, 200);
    const march = await billing(s.account.id, '2026-03');
    assert.deepEqual(
      march.screenings.map((x) => [x.screeningId, x.billed]),
      [[late.screening.screeningId, false]],
    );
    assert.equal(march.spendCents, 0);
    const april = await billing(s.account.id, '2026-04');
    assert.deepEqual(
      april.screenings.map((x) => [x.screeningId, x.billed, x.priceCents]),
      [[late.screening.screeningId, true, 1500]],
    );
    assert.equal(april.spendCents, 1500);
    const february = await billing(s.account.id, '2026-02');
    assert.deepEqual([february.spendCents, february.screenings], [0, []]);
    assert.equal(february.capCents, 100_000);
  });

  test('billing: a month that is not YYYY-MM is 400; an unknown account is 404; the console token is needed', async () => {
    const { id } = await newAccount(ctx.app);
    for (const month of ['2026-13', '2026-00', '2026-3', '26-03', 'march', '2026-03-01', '', '2026/03']) {
      assertError(
        await consoleCall(ctx.app, 'GET', `/accounts/${id}/billing?month=${encodeURIComponent(month)}`),
        400,
        'bad_request',
      );
    }
    assertError(await consoleCall(ctx.app, 'GET', `/accounts/${id}/billing`), 400, 'bad_request');
    assertError(
      await consoleCall(ctx.app, 'GET', '/accounts/acc_unknown/billing?month=2026-03'),
      404,
      'not_found',
    );
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/console/v1/accounts/${id}/billing?month=2026-03`,
    });
    assertError(anonymous, 401, 'unauthorized');
    const empty = await billing(id, '2026-03');
    assert.deepEqual(
      {
        month: empty.month,
        spendCents: empty.spendCents,
        capCents: empty.capCents,
        screenings: empty.screenings,
      },
      { month: '2026-03', spendCents: 0, capCents: 50_000, screenings: [] },
    );
  });
});

describe('the monthly overage cap (402 overage_cap_reached)', () => {
  test('the call that would pass the cap is refused with its figures; reaching it exactly is allowed', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 3000 });
    const ids = await applicants(s.api, s.job.id, 3);
    const body = { templateId: s.template.id };
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[0]!, body)).billing, 'overage');
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[1]!, body)).billing, 'overage');
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[2]!, body), {
      priceCents: 1500,
      currency: 'AUD',
      capCents: 3000,
      spendCents: 3000,
    });
    const cheap = await newTemplate(ctx.app, s.account.id, { priceCents: 1, currency: 'AUD' });
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[2]!, { templateId: cheap.id }), {
      priceCents: 1,
      currency: 'AUD',
      capCents: 3000,
      spendCents: 3000,
    });
    assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 2);
    // A billing admin raises the cap in the console.
    const raised = await consoleCall(ctx.app, 'PATCH', `/accounts/${s.account.id}`, {
      limits: { monthlyOverageCapCents: 3001 },
    });
    assert.equal(raised.statusCode, 200, raised.body);
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[2]!, body), {
      priceCents: 1500,
      currency: 'AUD',
      capCents: 3001,
      spendCents: 3000,
    });
    const fits = created(await triggerScreening(s.api, s.job.id, ids[2]!, { templateId: cheap.id }));
    assert.deepEqual([fits.billing, fits.priceCents], ['overage', 1]);
    assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 3);
  });

  test('included screenings never meet the cap; the first overage past them does', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 1, monthlyOverageCapCents: 0 });
    const [a, b] = await applicants(s.api, s.job.id, 2);
    const first = created(await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id }));
    assert.deepEqual([first.billing, first.priceCents], ['included', 1500]);
    assertCapReached(await triggerScreening(s.api, s.job.id, b!, { templateId: s.template.id }), {
      priceCents: 1500,
      currency: 'AUD',
      capCents: 0,
      spendCents: 0,
    });
    // A free template fits a zero cap.
    const free = await newTemplate(ctx.app, s.account.id, { priceCents: 0 });
    assert.deepEqual(
      [created(await triggerScreening(s.api, s.job.id, b!, { templateId: free.id })).billing],
      ['overage'],
    );
  });

  test('committed overage: open overage counts, completed this month counts, an expired or cancelled one stops counting', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 2000 });
    const ids = await applicants(s.api, s.job.id, 4);
    const body = { templateId: s.template.id };
    const figures = { priceCents: 1500, currency: 'AUD', capCents: 2000, spendCents: 1500 };
    // Open, may still complete: committed.
    const open = created(
      await triggerScreening(s.api, s.job.id, ids[0]!, { ...body, completeBy: at(2 * HOUR) }),
    );
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[1]!, body), figures);
    // Expired: no longer committed.
    ctx.clock.advance(2 * HOUR);
    assert.equal((await screeningRow(ctx.handle, open.screening.screeningId))?.status, 'invited');
    const second = created(await triggerScreening(s.api, s.job.id, ids[1]!, body));
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[2]!, body), figures);
    // Completed this month: committed (and billed).
    assert.equal((await complete(s.account.id, second.screening.screeningId)).statusCode, 200);
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[2]!, body), figures);
    assert.equal((await billing(s.account.id, '2026-03')).spendCents, 1500);
    assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 2);
    // Next month, March's completed overage no longer counts against April's cap.
    ctx.clock.set('2026-04-01T00:00:00Z');
    const april = created(await triggerScreening(s.api, s.job.id, ids[2]!, body));
    assert.equal(april.billing, 'overage');
    // An open April overage counts; cancelling it (the role closes) frees the cap.
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[3]!, body), figures);
    assert.equal((await s.api.post(`/v1/jobs/${s.job.id}/close`)).statusCode, 200);
    assert.equal((await s.api.post(`/v1/jobs/${s.job.id}/publish`, {})).statusCode, 200);
    await manageJob(ctx.app, s.account.id, s.job.id);
    // The re-managed ad has no included screenings either (limit 0): overage again, within the cap.
    assert.equal(created(await triggerScreening(s.api, s.job.id, ids[3]!, body)).billing, 'overage');
  });

  test('open overage from an earlier month still counts: it may yet complete', async () => {
    ctx.clock.set('2026-03-30T12:00:00Z');
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 2000 });
    const [a, b] = await applicants(s.api, s.job.id, 2);
    created(await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id }));
    ctx.clock.set('2026-04-02T12:00:00Z');
    assertCapReached(await triggerScreening(s.api, s.job.id, b!, { templateId: s.template.id }), {
      priceCents: 1500,
      currency: 'AUD',
      capCents: 2000,
      spendCents: 1500,
    });
  });

  test('the cap applies per currency: AUD overage does not count against a USD template', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 1500 });
    const usd = await newTemplate(ctx.app, s.account.id, { priceCents: 1500, currency: 'USD' });
    const ids = await applicants(s.api, s.job.id, 3);
    assert.equal(
      created(await triggerScreening(s.api, s.job.id, ids[0]!, { templateId: s.template.id })).currency,
      'AUD',
    );
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[1]!, { templateId: s.template.id }), {
      priceCents: 1500,
      currency: 'AUD',
      capCents: 1500,
      spendCents: 1500,
    });
    const dollars = created(await triggerScreening(s.api, s.job.id, ids[1]!, { templateId: usd.id }));
    assert.deepEqual([dollars.billing, dollars.priceCents, dollars.currency], ['overage', 1500, 'USD']);
    assertCapReached(await triggerScreening(s.api, s.job.id, ids[2]!, { templateId: usd.id }), {
      priceCents: 1500,
      currency: 'USD',
      capCents: 1500,
      spendCents: 1500,
    });
  });

  test('the price is checked before the cap: an unpriced template at the cap is 409 price_unavailable', async () => {
    ctx.clock.set(MARCH);
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 0 });
    const unpriced = await newTemplate(ctx.app, s.account.id, { priceCents: null });
    const [a] = await applicants(s.api, s.job.id, 1);
    assertError(
      await triggerScreening(s.api, s.job.id, a!, { templateId: unpriced.id }),
      409,
      'price_unavailable',
    );
    assertCapReached(await triggerScreening(s.api, s.job.id, a!, { templateId: s.template.id }), {
      priceCents: 1500,
      currency: 'AUD',
      capCents: 0,
      spendCents: 0,
    });
    assert.deepEqual(await screeningRows(ctx.handle, s.account.id), []);
  });
});
