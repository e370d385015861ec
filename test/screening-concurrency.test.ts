import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { screeningAccount } from './support/accounts.ts';
import { testConfig, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applyTo, importCandidate } from './support/intake.ts';
import { managedJob } from './support/jobs.ts';
import { newTemplate, screeningRows, triggerScreening } from './support/screening.ts';

/**
 * Concurrent calls at the edges: the checks and the insert are one step under the account's row
 * lock, so of calls fired together exactly one passes the overage cap, the included allowance, the
 * one-open-screening rule or the unsolicited-contact limit. With DATABASE_URL set the calls run on
 * separate PostgreSQL connections.
 */

const ROUNDS = 3;

const ctx = useTestApp({ clock: new ManualClock('2026-06-15T10:00:00Z') });

/** Statuses and error codes of the answers, counted: e.g. { '201': 1, '402 overage_cap_reached': 4 }. */
function tally(answers: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const res of answers) {
    const label = res.statusCode === 201 ? '201' : `${res.statusCode} ${errorOf(res).code}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

async function applicants(api: Parameters<typeof applyTo>[1], jobId: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push((await applyTo(ctx, api, jobId)).candidateId);
  return ids;
}

describe(`concurrent calls at the edges (${testConfig.databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  test('the cap fits exactly one more overage: of 5 concurrent calls for 5 candidates, one is 201, four are 402', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const s = await screeningAccount(ctx.app, {
        limits: { includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 3000 },
      });
      const template = await newTemplate(ctx.app, s.account.id, { priceCents: 1500 });
      const job = await managedJob(ctx.app, s.api, s.account.id);
      const [first, ...rest] = await applicants(s.api, job.id, 6);
      // 1500 of the 3000 is already committed by an open overage screening.
      assert.equal(
        (await triggerScreening(s.api, job.id, first!, { templateId: template.id })).statusCode,
        201,
      );
      const answers = await Promise.all(
        rest.map((id) => triggerScreening(s.api, job.id, id, { templateId: template.id })),
      );
      assert.deepEqual(tally(answers), { '201': 1, '402 overage_cap_reached': 4 }, `round ${round}`);
      const winner = answers.find((res) => res.statusCode === 201)!;
      assert.equal(winner.json().billing, 'overage');
      for (const res of answers.filter((r) => r.statusCode === 402)) {
        const error = errorOf(res);
        assert.deepEqual(
          [error.priceCents, error.currency, error.capCents, error.spendCents],
          [1500, 'AUD', 3000, 3000],
        );
      }
      const rows = await screeningRows(ctx.handle, s.account.id);
      assert.equal(rows.length, 2);
      assert.equal(
        rows.reduce((sum, r) => sum + r.price_cents, 0),
        3000,
        'committed overage never passes the cap',
      );
    }
  });

  test('the last included screening: of 5 concurrent calls (cap 0), one is included, four are 402', async () => {
    const s = await screeningAccount(ctx.app, {
      limits: { includedScreeningsPerManagedAd: 1, monthlyOverageCapCents: 0 },
    });
    const template = await newTemplate(ctx.app, s.account.id, { priceCents: 1500 });
    const job = await managedJob(ctx.app, s.api, s.account.id);
    const ids = await applicants(s.api, job.id, 5);
    const answers = await Promise.all(
      ids.map((id) => triggerScreening(s.api, job.id, id, { templateId: template.id })),
    );
    assert.deepEqual(tally(answers), { '201': 1, '402 overage_cap_reached': 4 });
    assert.equal(answers.find((res) => res.statusCode === 201)!.json().billing, 'included');
    const rows = await screeningRows(ctx.handle, s.account.id);
    assert.deepEqual(
      rows.map((r) => r.billing),
      ['included'],
    );
  });

  test('one open screening: 5 concurrent calls for the same candidate and role open exactly one', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const s = await screeningAccount(ctx.app);
      const template = await newTemplate(ctx.app, s.account.id);
      const job = await managedJob(ctx.app, s.api, s.account.id);
      const [id] = await applicants(s.api, job.id, 1);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => triggerScreening(s.api, job.id, id!, { templateId: template.id })),
      );
      assert.deepEqual(tally(answers), { '201': 1, '409 conflict': 4 }, `round ${round}`);
      assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 1);
    }
  });

  test('the unsolicited-contact limit: 5 concurrent invitations of one imported person on 5 roles, limit 1, pass once', async () => {
    const s = await screeningAccount(ctx.app, {
      limits: { weeklyUnsolicitedContacts: 1, managedAdSlots: 10 },
    });
    const template = await newTemplate(ctx.app, s.account.id);
    const jobs = [];
    for (let i = 0; i < 5; i += 1)
      jobs.push(await managedJob(ctx.app, s.api, s.account.id, { title: `Role ${i}` }));
    const person = await importCandidate(ctx, s.api);
    const answers = await Promise.all(
      jobs.map((job) => triggerScreening(s.api, job.id, person.candidateId, { templateId: template.id })),
    );
    assert.deepEqual(tally(answers), { '201': 1, '429 unsolicited_contact_limit': 4 });
    assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 1);
  });

  test('two accounts at their caps at once do not block each other', async () => {
    const setups = [];
    for (let i = 0; i < 2; i += 1) {
      const s = await screeningAccount(ctx.app, {
        limits: { includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 1500 },
      });
      const template = await newTemplate(ctx.app, s.account.id, { priceCents: 1500 });
      const job = await managedJob(ctx.app, s.api, s.account.id);
      const ids = await applicants(s.api, job.id, 3);
      setups.push({ s, template, job, ids });
    }
    const answers = await Promise.all(
      setups.flatMap(({ s, template, job, ids }) =>
        ids.map((id) => triggerScreening(s.api, job.id, id, { templateId: template.id })),
      ),
    );
    assert.deepEqual(tally(answers.slice(0, 3)), { '201': 1, '402 overage_cap_reached': 2 });
    assert.deepEqual(tally(answers.slice(3)), { '201': 1, '402 overage_cap_reached': 2 });
  });
});
