import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { consoleCall, screeningAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applyTo, importCandidate } from './support/intake.ts';
import { managedJob } from './support/jobs.ts';
import { newTemplate, screeningRows, triggerScreening } from './support/screening.ts';
import { DAY, HOUR, SECOND } from './support/time.ts';

/**
 * The unsolicited-contact limit: a person who did not apply to the role (an imported candidate) is
 * invited at most `weeklyUnsolicitedContacts` times in any rolling seven days across the account's
 * roles; beyond it 429 `unsolicited_contact_limit` with `limit` and Retry-After. Applicants to the
 * role are never limited.
 */

const ctx = useTestApp({ clock: new ManualClock('2026-05-04T08:00:00Z') });

function created(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { screening: { screeningId: string }; billing: string };
}

/** Asserts the 429 and answers its Retry-After in seconds. */
function assertLimited(res: LightMyRequestResponse, limit: number): number {
  assert.equal(res.statusCode, 429, res.body);
  const error = errorOf(res);
  assert.equal(error.code, 'unsolicited_contact_limit', res.body);
  assert.equal(error.limit, limit);
  assert.match(error.requestId, /^req_/);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.equal(res.headers[name], undefined, name);
  }
  const retryAfter = res.headers['retry-after'];
  assert.match(String(retryAfter), /^\d+$/, 'Retry-After in whole seconds');
  return Number(retryAfter);
}

/** An account with `roles` managed ads and a template; `limits` add or override. */
async function scenario(roles: number, limits: Record<string, number> = {}) {
  const s = await screeningAccount(ctx.app, { limits: { managedAdSlots: 10, ...limits } });
  const template = await newTemplate(ctx.app, s.account.id);
  const jobs = [];
  for (let i = 0; i < roles; i += 1)
    jobs.push(await managedJob(ctx.app, s.api, s.account.id, { title: `Role ${i + 1}` }));
  return { ...s, template, jobs };
}

describe('the rolling seven days', () => {
  test('weeklyUnsolicitedContacts = 2: the third role is 429 until the oldest contact is seven days old', async () => {
    const s = await scenario(4, { weeklyUnsolicitedContacts: 2 });
    const person = await importCandidate(ctx, s.api);
    const body = { templateId: s.template.id };
    const [r1, r2, r3, r4] = s.jobs.map((j) => j.id) as [string, string, string, string];
    const t0 = ctx.clock.now().getTime();
    created(await triggerScreening(s.api, r1, person.candidateId, body));
    ctx.clock.set(new Date(t0 + DAY));
    created(await triggerScreening(s.api, r2, person.candidateId, body));
    ctx.clock.set(new Date(t0 + 2 * DAY + 5 * SECOND));
    // Retry-After: seconds until the oldest contact (t0) is seven days old.
    assert.equal(
      assertLimited(await triggerScreening(s.api, r3, person.candidateId, body), 2),
      (7 * DAY - 2 * DAY - 5 * SECOND) / SECOND,
    );
    assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 2, 'nothing written');
    ctx.clock.set(new Date(t0 + 7 * DAY - SECOND));
    assert.equal(assertLimited(await triggerScreening(s.api, r3, person.candidateId, body), 2), 1);
    ctx.clock.set(new Date(t0 + 7 * DAY));
    created(await triggerScreening(s.api, r3, person.candidateId, body));
    // The window rolls: now the oldest contact inside it is the one of t0 + 1 day.
    assert.equal(assertLimited(await triggerScreening(s.api, r4, person.candidateId, body), 2), DAY / SECOND);
    ctx.clock.set(new Date(t0 + 8 * DAY));
    created(await triggerScreening(s.api, r4, person.candidateId, body));
    const rows = await screeningRows(ctx.handle, s.account.id);
    assert.deepEqual(
      rows.map((r) => [r.job_id, r.unsolicited, r.requested_at.getTime() - t0]),
      [
        [r1, true, 0],
        [r2, true, DAY],
        [r3, true, 7 * DAY],
        [r4, true, 8 * DAY],
      ],
    );
  });

  test('every invitation counts, whatever became of it: cancelled, expired and completed ones too', async () => {
    const s = await scenario(4, { weeklyUnsolicitedContacts: 3 });
    const person = await importCandidate(ctx, s.api);
    const body = { templateId: s.template.id };
    const [r1, r2, r3, r4] = s.jobs.map((j) => j.id) as [string, string, string, string];
    created(await triggerScreening(s.api, r1, person.candidateId, body));
    assert.equal((await s.api.post(`/v1/jobs/${r1}/close`)).statusCode, 200);
    created(
      await triggerScreening(s.api, r2, person.candidateId, {
        ...body,
        completeBy: new Date(ctx.clock.now().getTime() + HOUR).toISOString(),
      }),
    );
    ctx.clock.advance(HOUR);
    const third = created(await triggerScreening(s.api, r3, person.candidateId, body));
    const done = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/screenings/${third.screening.screeningId}/complete`,
    );
    assert.equal(done.statusCode, 200, done.body);
    assertLimited(await triggerScreening(s.api, r4, person.candidateId, body), 3);
    // A closed role freed the person on that role, but not from the weekly limit.
    const rows = await screeningRows(ctx.handle, s.account.id);
    assert.deepEqual(rows.map((r) => r.status).sort(), ['cancelled', 'completed', 'invited']);
  });

  test('the limit is per person: another imported candidate is not affected', async () => {
    const s = await scenario(2, { weeklyUnsolicitedContacts: 1 });
    const [r1, r2] = s.jobs.map((j) => j.id) as [string, string];
    const ana = await importCandidate(ctx, s.api);
    const bea = await importCandidate(ctx, s.api);
    const body = { templateId: s.template.id };
    created(await triggerScreening(s.api, r1, ana.candidateId, body));
    assertLimited(await triggerScreening(s.api, r2, ana.candidateId, body), 1);
    created(await triggerScreening(s.api, r1, bea.candidateId, body));
    assertLimited(await triggerScreening(s.api, r2, bea.candidateId, body), 1);
  });

  test('the limit follows the account’s setting when it changes', async () => {
    const s = await scenario(3, { weeklyUnsolicitedContacts: 1 });
    const [r1, r2, r3] = s.jobs.map((j) => j.id) as [string, string, string];
    const person = await importCandidate(ctx, s.api);
    const body = { templateId: s.template.id };
    created(await triggerScreening(s.api, r1, person.candidateId, body));
    assertLimited(await triggerScreening(s.api, r2, person.candidateId, body), 1);
    const raised = await consoleCall(ctx.app, 'PATCH', `/accounts/${s.account.id}`, {
      limits: { weeklyUnsolicitedContacts: 2 },
    });
    assert.equal(raised.statusCode, 200, raised.body);
    created(await triggerScreening(s.api, r2, person.candidateId, body));
    assertLimited(await triggerScreening(s.api, r3, person.candidateId, body), 2);
  });

  test('weeklyUnsolicitedContacts = 0: an imported candidate cannot be invited at all (429, never a 500)', async () => {
    const s = await scenario(1, { weeklyUnsolicitedContacts: 0 });
    const person = await importCandidate(ctx, s.api);
    const retryAfter = assertLimited(
      await triggerScreening(s.api, s.jobs[0]!.id, person.candidateId, { templateId: s.template.id }),
      0,
    );
    assert.ok(retryAfter >= 1 && retryAfter <= 7 * 24 * 3600, String(retryAfter));
    // An applicant is still invited.
    const applicant = await applyTo(ctx, s.api, s.jobs[0]!.id);
    created(
      await triggerScreening(s.api, s.jobs[0]!.id, applicant.candidateId, { templateId: s.template.id }),
    );
  });
});

describe('applicants are never limited', () => {
  test('an applicant is invited again and again on their role within a week, even at a limit of 1', async () => {
    const s = await scenario(1, { weeklyUnsolicitedContacts: 1 });
    const job = s.jobs[0]!;
    const applicant = await applyTo(ctx, s.api, job.id);
    for (let i = 0; i < 4; i += 1) {
      const completeBy = new Date(ctx.clock.now().getTime() + HOUR).toISOString();
      created(
        await triggerScreening(s.api, job.id, applicant.candidateId, {
          templateId: s.template.id,
          completeBy,
        }),
      );
      ctx.clock.advance(HOUR);
    }
    const rows = await screeningRows(ctx.handle, s.account.id);
    assert.equal(rows.length, 4);
    assert.ok(rows.every((r) => r.unsolicited === false && r.candidate_kind === 'application'));
  });

  test('applicants’ invitations do not spend an imported person’s allowance', async () => {
    const s = await scenario(2, { weeklyUnsolicitedContacts: 1 });
    const [r1, r2] = s.jobs.map((j) => j.id) as [string, string];
    const applicant = await applyTo(ctx, s.api, r1);
    created(await triggerScreening(s.api, r1, applicant.candidateId, { templateId: s.template.id }));
    const person = await importCandidate(ctx, s.api);
    created(await triggerScreening(s.api, r2, person.candidateId, { templateId: s.template.id }));
  });
});

describe('where the limit sits in the check order', () => {
  test('after the open screening (409 conflict) and the price (409), before the overage cap (402)', async () => {
    const s = await scenario(3, {
      weeklyUnsolicitedContacts: 1,
      includedScreeningsPerManagedAd: 0,
      monthlyOverageCapCents: 0,
    });
    const [r1, r2, r3] = s.jobs.map((j) => j.id) as [string, string, string];
    const free = await newTemplate(ctx.app, s.account.id, { priceCents: 0 });
    const unpriced = await newTemplate(ctx.app, s.account.id, { priceCents: null });
    const person = await importCandidate(ctx, s.api);
    // A free overage fits a zero cap.
    assert.equal(
      created(await triggerScreening(s.api, r1, person.candidateId, { templateId: free.id })).billing,
      'overage',
    );
    // Same role again: the open screening answers first.
    const again = await triggerScreening(s.api, r1, person.candidateId, { templateId: s.template.id });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(errorOf(again).code, 'conflict');
    // An unreadable price answers before the limit.
    const unpricedRes = await triggerScreening(s.api, r2, person.candidateId, { templateId: unpriced.id });
    assert.equal(unpricedRes.statusCode, 409, unpricedRes.body);
    assert.equal(errorOf(unpricedRes).code, 'price_unavailable');
    // Past both the limit and the cap: the limit answers.
    assertLimited(await triggerScreening(s.api, r2, person.candidateId, { templateId: s.template.id }), 1);
    // An applicant past the cap: 402.
    const applicant = await applyTo(ctx, s.api, r3);
    const capped = await triggerScreening(s.api, r3, applicant.candidateId, { templateId: s.template.id });
    assert.equal(capped.statusCode, 402, capped.body);
    assert.equal(errorOf(capped).code, 'overage_cap_reached');
    assert.equal((await screeningRows(ctx.handle, s.account.id)).length, 1);
  });
});
