import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { client, consoleCall, newKey, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError, assertNoRateHeaders, errorOf } from './support/assert.ts';
import { applyTo, candidateBody, importCandidate, pdfFixture, uploadPdf } from './support/intake.ts';
import { createDraft, createPublished, managedJob, manageJob } from './support/jobs.ts';
import { newTemplate, screeningRow, screeningRows, triggerScreening } from './support/screening.ts';
import { DAY, HOUR, SECOND } from './support/time.ts';

/**
 * POST /v1/jobs/{jobId}/candidates/{candidateId}/screening: the answer and its defaults, every
 * error code in the decided check order, the scope, one open screening per candidate per role,
 * no per-minute limit and no X-RateLimit-* headers, and isolation between accounts.
 */

const ctx = useTestApp({ clock: new ManualClock('2026-03-10T09:00:00Z') });

/** An error answer (assertError) without X-RateLimit-* headers: the route has no per-minute limit. */
function assertRefused(res: LightMyRequestResponse, status: number, code: string) {
  const error = assertError(res, status, code);
  assertNoRateHeaders(res);
  return error;
}

function assertCreated(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 201, res.body);
  assertNoRateHeaders(res);
  return res.json() as {
    screening: {
      screeningId: string;
      jobId: string;
      candidateId: string;
      templateId: string;
      status: string;
      deliveryPath: string;
      completeBy: string;
      requestedAt: string;
    };
    billing: string;
    priceCents: number;
    currency: string;
  };
}

/** An account with a template and a managed ad; `applicant` applied to it. */
async function scenario(limits: Record<string, number> = {}) {
  const s = await screeningAccount(ctx.app, { limits });
  const template = await newTemplate(ctx.app, s.account.id, { priceCents: 1500, currency: 'AUD' });
  const job = await managedJob(ctx.app, s.api, s.account.id);
  const applicant = await applyTo(ctx, s.api, job.id);
  return { ...s, template, job, applicant };
}

const at = (ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();

async function rowsOf(accountId: string) {
  return screeningRows(ctx.handle, accountId);
}

describe('the answer', () => {
  test('201 ScreeningTriggered for an applicant: defaults completeBy = now + 7 days and language en', async () => {
    const s = await scenario();
    const now = ctx.clock.now();
    const res = await triggerScreening(s.api, s.job.id, s.applicant.candidateId, {
      templateId: s.template.id,
    });
    const body = assertCreated(res);
    assert.match(body.screening.screeningId, /^scr_/);
    assert.deepEqual(body, {
      screening: {
        screeningId: body.screening.screeningId,
        jobId: s.job.id,
        candidateId: s.applicant.candidateId,
        templateId: s.template.id,
        status: 'invited',
        deliveryPath: 'email',
        completeBy: new Date(now.getTime() + 7 * DAY).toISOString(),
        requestedAt: now.toISOString(),
      },
      billing: 'included',
      priceCents: 1500,
      currency: 'AUD',
    });
    assert.ok(!res.body.includes(s.applicant.email), 'the address is never returned');
    const row = await screeningRow(ctx.handle, body.screening.screeningId);
    assert.ok(row);
    assert.equal(row.account_id, s.account.id);
    assert.equal(row.job_id, s.job.id);
    assert.equal(row.candidate_kind, 'application');
    assert.equal(row.candidate_id, s.applicant.candidateId);
    assert.equal(row.template_id, s.template.id);
    assert.equal(row.status, 'invited');
    assert.equal(row.delivery_path, 'email');
    assert.equal(row.billing, 'included');
    assert.equal(row.price_cents, 1500);
    assert.equal(row.currency, 'AUD');
    assert.equal(row.unsolicited, false);
    assert.equal(row.message, null);
    assert.equal(row.language, 'en');
    assert.equal(row.complete_by.getTime(), now.getTime() + 7 * DAY);
    assert.equal(row.requested_at.getTime(), now.getTime());
    assert.equal(row.completed_at, null);
    assert.equal(row.cancelled_at, null);
    const job = await ctx.handle.db
      .selectFrom('jobs')
      .select('managed_since')
      .where('id', '=', s.job.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.managed_since.getTime(), job.managed_since?.getTime());
  });

  test('201 for an imported candidate: completeBy, message (2000 characters) and language are kept', async () => {
    const s = await scenario();
    const person = await importCandidate(ctx, s.api);
    const message = `${'m'.repeat(1992)} see you`;
    assert.equal(message.length, 2000);
    const completeBy = at(3 * DAY + 90 * 60_000);
    const body = assertCreated(
      await triggerScreening(s.api, s.job.id, person.candidateId, {
        templateId: s.template.id,
        completeBy,
        message,
        language: 'pt',
      }),
    );
    assert.equal(body.screening.candidateId, person.candidateId);
    assert.equal(body.screening.completeBy, completeBy);
    assert.equal(body.screening.status, 'invited');
    const row = await screeningRow(ctx.handle, body.screening.screeningId);
    assert.equal(row?.candidate_kind, 'candidate');
    assert.equal(row?.unsolicited, true);
    assert.equal(row?.message, message);
    assert.equal(row?.language, 'pt');
    assert.equal(row?.complete_by.toISOString(), completeBy);
  });

  test('completeBy may be given with an offset and up to exactly 90 days out', async () => {
    const s = await scenario();
    const exactly90 = at(90 * DAY);
    const body = assertCreated(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, {
        templateId: s.template.id,
        completeBy: exactly90,
      }),
    );
    assert.equal(body.screening.completeBy, exactly90);
    const person = await importCandidate(ctx, s.api);
    // The same instant as now + 1 day, written in UTC+02:00 local time.
    const instant = ctx.clock.now().getTime() + DAY;
    const withOffset = `${new Date(instant + 2 * HOUR).toISOString().slice(0, 19)}+02:00`;
    const offsetBody = assertCreated(
      await triggerScreening(s.api, s.job.id, person.candidateId, {
        templateId: s.template.id,
        completeBy: withOffset,
      }),
    );
    assert.equal(offsetBody.screening.completeBy, new Date(instant).toISOString());
  });

  test('Idempotency-Key is honoured: the same key and body replays the answer and opens one screening', async () => {
    const s = await scenario();
    const key = unique('idem');
    const body = { templateId: s.template.id };
    const first = assertCreated(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body, { 'idempotency-key': key }),
    );
    const again = await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body, {
      'idempotency-key': key,
    });
    assert.equal(again.statusCode, 201, again.body);
    assert.deepEqual(again.json(), first);
    assertNoRateHeaders(again);
    assert.equal((await rowsOf(s.account.id)).length, 1);
    // Without the key, the same call is the one-open-screening conflict.
    assertRefused(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body), 409, 'conflict');
  });
});

describe('400 bad_request', () => {
  test('templateId missing, unknown, inactive or another account’s', async () => {
    const s = await scenario();
    const inactive = await newTemplate(ctx.app, s.account.id, { active: false });
    const other = await screeningAccount(ctx.app);
    const foreign = await newTemplate(ctx.app, other.account.id);
    const deactivated = await newTemplate(ctx.app, s.account.id);
    const patched = await consoleCall(
      ctx.app,
      'PATCH',
      `/accounts/${s.account.id}/screening-templates/${deactivated.id}`,
      {
        active: false,
      },
    );
    assert.equal(patched.statusCode, 200, patched.body);
    const bodies: Record<string, unknown>[] = [
      {},
      { templateId: '' },
      { templateId: 'tpl_does_not_exist' },
      { templateId: inactive.id },
      { templateId: deactivated.id },
      { templateId: foreign.id },
      { templateId: 42 },
    ];
    for (const body of bodies) {
      assertRefused(
        await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body),
        400,
        'bad_request',
      );
    }
    assert.deepEqual(await rowsOf(s.account.id), []);
    // Active again, the same template is accepted.
    await consoleCall(ctx.app, 'PATCH', `/accounts/${s.account.id}/screening-templates/${deactivated.id}`, {
      active: true,
    });
    assertCreated(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: deactivated.id }),
    );
  });

  test('completeBy in the past, now, malformed, or more than 90 days out', async () => {
    const s = await scenario();
    const values: unknown[] = [
      at(-SECOND),
      at(-30 * DAY),
      at(0),
      'next tuesday',
      '2026-02-30T10:00:00Z',
      '2026-03-12',
      '',
      at(90 * DAY + SECOND),
      at(365 * DAY),
      1_900_000_000_000,
      null,
    ];
    for (const completeBy of values) {
      const error = assertRefused(
        await triggerScreening(s.api, s.job.id, s.applicant.candidateId, {
          templateId: s.template.id,
          completeBy,
        }),
        400,
        'bad_request',
      );
      assert.match(error.message, /completeBy/, `${JSON.stringify(completeBy)}: ${error.message}`);
    }
    assert.deepEqual(await rowsOf(s.account.id), []);
  });

  test('message longer than 2000 characters, language not en/es/fr/pt, unknown fields, a body that is not an object', async () => {
    const s = await scenario();
    const base = { templateId: s.template.id };
    const bodies: unknown[] = [
      { ...base, message: 'x'.repeat(2001) },
      { ...base, message: 17 },
      { ...base, language: 'de' },
      { ...base, language: 'EN' },
      { ...base, language: 'pt-BR' },
      { ...base, language: '' },
      { ...base, deliveryPath: 'virtual_cv' },
      { ...base, priceCents: 0 },
      [base],
    ];
    for (const body of bodies) {
      assertRefused(
        await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body as Record<string, unknown>),
        400,
        'bad_request',
      );
    }
    const noBody = await s.api.post(`/v1/jobs/${s.job.id}/candidates/${s.applicant.candidateId}/screening`);
    assertRefused(noBody, 400, 'bad_request');
    assert.deepEqual(await rowsOf(s.account.id), []);
    for (const language of ['en', 'es', 'fr', 'pt']) {
      const person = await importCandidate(ctx, s.api);
      const body = assertCreated(
        await triggerScreening(s.api, s.job.id, person.candidateId, { ...base, language }),
      );
      assert.equal((await screeningRow(ctx.handle, body.screening.screeningId))?.language, language);
    }
  });

  test('a malformed body (its schema) is 400 even on an unknown job: nothing is looked up for it', async () => {
    const s = await scenario();
    for (const body of [{ templateId: s.template.id, language: 'de' }, { templateId: 42 }, {}]) {
      assertRefused(await triggerScreening(s.api, 'job_unknown', 'cand_unknown', body), 400, 'bad_request');
    }
  });
});

describe('check order: the path’s resources (job, then candidate), then the body', () => {
  test('another account’s job is 404 whatever the template: its own, the caller’s, or one that does not exist', async () => {
    const a = await scenario();
    const b = await scenario();
    for (const templateId of [a.template.id, b.template.id, 'tpl_does_not_exist']) {
      assertRefused(
        await triggerScreening(b.api, a.job.id, a.applicant.candidateId, { templateId }),
        404,
        'not_found',
      );
    }
    assertRefused(
      await triggerScreening(b.api, a.job.id, a.applicant.candidateId, {
        templateId: a.template.id,
        completeBy: at(-DAY),
      }),
      404,
      'not_found',
    );
    assert.deepEqual(await rowsOf(a.account.id), []);
    assert.deepEqual(await rowsOf(b.account.id), []);
  });

  test('an unknown or draft job is 404 before an inactive template or a past completeBy', async () => {
    const s = await scenario();
    const inactive = await newTemplate(ctx.app, s.account.id, { active: false });
    const draft = await createDraft(s.api);
    for (const jobId of ['job_unknown', draft.id]) {
      for (const body of [
        { templateId: inactive.id },
        { templateId: s.template.id, completeBy: at(-DAY) },
        { templateId: s.template.id, completeBy: at(365 * DAY) },
      ]) {
        assertRefused(await triggerScreening(s.api, jobId, s.applicant.candidateId, body), 404, 'not_found');
      }
    }
  });

  test('an unknown candidate, or another account’s, is 404 before the body; then the body is 400', async () => {
    const s = await scenario();
    const other = await scenario();
    const inactive = await newTemplate(ctx.app, s.account.id, { active: false });
    for (const candidateId of ['cand_unknown', other.applicant.candidateId]) {
      assertRefused(
        await triggerScreening(s.api, s.job.id, candidateId, { templateId: inactive.id }),
        404,
        'not_found',
      );
      assertRefused(
        await triggerScreening(s.api, s.job.id, candidateId, {
          templateId: s.template.id,
          completeBy: at(-DAY),
        }),
        404,
        'not_found',
      );
    }
    // The same bodies on the role's own candidate: now the body is what is wrong.
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: inactive.id }),
      400,
      'bad_request',
    );
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, {
        templateId: s.template.id,
        completeBy: at(-DAY),
      }),
      400,
      'bad_request',
    );
    assert.deepEqual(await rowsOf(s.account.id), []);
  });

  test('an ad that is not managed is 409 before the candidate and the body', async () => {
    const s = await scenario();
    const inactive = await newTemplate(ctx.app, s.account.id, { active: false });
    const plain = await createPublished(s.api, { title: 'Plain ad' });
    for (const body of [{ templateId: inactive.id }, { templateId: s.template.id, completeBy: at(-DAY) }]) {
      assertRefused(await triggerScreening(s.api, plain.id, 'cand_unknown', body), 409, 'ad_not_managed');
    }
  });

  test('the body before the open screening, the price, the contact limit and the cap', async () => {
    const s = await scenario({ includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 0 });
    const inactive = await newTemplate(ctx.app, s.account.id, { active: false });
    const unpriced = await newTemplate(ctx.app, s.account.id, { priceCents: null });
    // Past the cap: 402 only once the body is good.
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: inactive.id }),
      400,
      'bad_request',
    );
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: unpriced.id }),
      409,
      'price_unavailable',
    );
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: s.template.id }),
      402,
      'overage_cap_reached',
    );
  });
});

describe('401 and 403', () => {
  test('no key, an unknown key and a revoked key are 401 unauthorized', async () => {
    const s = await scenario();
    const url = `/v1/jobs/${s.job.id}/candidates/${s.applicant.candidateId}/screening`;
    const body = { templateId: s.template.id };
    const none = await ctx.app.inject({ method: 'POST', url, payload: body });
    assertRefused(none, 401, 'unauthorized');
    assertRefused(await client(ctx.app, 'not-a-real-key').post(url, body), 401, 'unauthorized');
    const revoked = await newKey(ctx.app, s.account.id, ['screening']);
    const del = await consoleCall(ctx.app, 'DELETE', `/accounts/${s.account.id}/keys/${revoked.id}`);
    assert.equal(del.statusCode, 204, del.body);
    assertRefused(await client(ctx.app, revoked.secret).post(url, body), 401, 'unauthorized');
    assert.deepEqual(await rowsOf(s.account.id), []);
  });

  test('a key without the screening scope is 403 forbidden naming the scope; the screening scope alone is enough', async () => {
    const s = await scenario();
    const body = { templateId: s.template.id };
    const without = await newKey(ctx.app, s.account.id, ['jobs:read', 'jobs:write', 'applications:write']);
    const error = assertRefused(
      await triggerScreening(client(ctx.app, without.secret), s.job.id, s.applicant.candidateId, body),
      403,
      'forbidden',
    );
    assert.match(error.message, /screening/);
    assert.equal(error.missingScope, 'screening');
    assert.deepEqual(await rowsOf(s.account.id), []);
    const only = await newKey(ctx.app, s.account.id, ['screening']);
    assertCreated(
      await triggerScreening(client(ctx.app, only.secret), s.job.id, s.applicant.candidateId, body),
    );
  });
});

describe('404 not_found', () => {
  test('an unknown job, another account’s job and a draft', async () => {
    const s = await scenario();
    const other = await screeningAccount(ctx.app);
    await newTemplate(ctx.app, other.account.id);
    const theirs = await managedJob(ctx.app, other.api, other.account.id);
    const theirApplicant = await applyTo(ctx, other.api, theirs.id);
    const draft = await createDraft(s.api);
    const body = { templateId: s.template.id };
    assertRefused(
      await triggerScreening(s.api, 'job_00000000000000000000', s.applicant.candidateId, body),
      404,
      'not_found',
    );
    assertRefused(
      await triggerScreening(s.api, theirs.id, theirApplicant.candidateId, body),
      404,
      'not_found',
    );
    assertRefused(await triggerScreening(s.api, theirs.id, s.applicant.candidateId, body), 404, 'not_found');
    assertRefused(await triggerScreening(s.api, draft.id, s.applicant.candidateId, body), 404, 'not_found');
    assert.deepEqual(await rowsOf(s.account.id), []);
    assert.deepEqual(await rowsOf(other.account.id), []);
  });

  test('an unknown candidate, an application to another of the account’s jobs, another account’s candidate', async () => {
    const s = await scenario();
    const otherJob = await managedJob(ctx.app, s.api, s.account.id, { title: 'Data Engineer' });
    const elsewhere = await applyTo(ctx, s.api, otherJob.id);
    const other = await screeningAccount(ctx.app);
    const theirJob = await createPublished(other.api);
    const theirApplicant = await applyTo(ctx, other.api, theirJob.id);
    const theirImport = await importCandidate(ctx, other.api);
    const body = { templateId: s.template.id };
    for (const candidateId of [
      'cand_unknown',
      'app_unknown',
      elsewhere.candidateId,
      theirApplicant.candidateId,
      theirImport.candidateId,
    ]) {
      assertRefused(await triggerScreening(s.api, s.job.id, candidateId, body), 404, 'not_found');
    }
    assert.deepEqual(await rowsOf(s.account.id), []);
    // The application to the other job is that job's candidate.
    assertCreated(await triggerScreening(s.api, otherJob.id, elsewhere.candidateId, body));
  });

  test('a suppressed import, an import erased by a later suppression, a rejected import', async () => {
    const s = await scenario();
    const body = { templateId: s.template.id };
    // Suppressed before the import: nothing of the person is held.
    const suppressedEmail = `${unique('suppressed').toLowerCase()}@example.com`;
    assert.equal(
      (await consoleCall(ctx.app, 'POST', '/suppressions', { email: suppressedEmail })).statusCode,
      201,
    );
    const suppressed = await importCandidate(ctx, s.api, { email: suppressedEmail });
    assert.equal(suppressed.status, 'suppressed');
    // Imported, then the person asked to be forgotten.
    const erased = await importCandidate(ctx, s.api);
    assert.equal(erased.status, 'queued');
    assertCreated(
      await triggerScreening(s.api, s.job.id, erased.candidateId, { ...body, completeBy: at(HOUR) }),
    );
    ctx.clock.advance(HOUR);
    assert.equal(
      (await consoleCall(ctx.app, 'POST', '/suppressions', { email: erased.email })).statusCode,
      201,
    );
    // A readable PDF that is not a CV.
    const menu = await uploadPdf(ctx, s.api, pdfFixture('not-a-cv-menu.pdf'));
    const rejectedRes = await s.api.post('/v1/candidates', candidateBody(menu.uploadId), {
      'idempotency-key': unique('idem'),
    });
    assert.equal(rejectedRes.json().status, 'rejected', rejectedRes.body);
    const before = (await rowsOf(s.account.id)).length;
    for (const candidateId of [suppressed.candidateId, erased.candidateId, rejectedRes.json().candidateId]) {
      assertRefused(await triggerScreening(s.api, s.job.id, candidateId, body), 404, 'not_found');
    }
    assert.equal((await rowsOf(s.account.id)).length, before);
  });

  test('a withdrawn application and an application whose details were erased', async () => {
    const s = await scenario();
    const second = await applyTo(ctx, s.api, s.job.id);
    await ctx.handle.db
      .updateTable('applications')
      .set({ status: 'withdrawn' })
      .where('id', '=', s.applicant.candidateId)
      .execute();
    await ctx.handle.db
      .updateTable('applications')
      .set({ email: null, name: null })
      .where('id', '=', second.candidateId)
      .execute();
    for (const candidateId of [s.applicant.candidateId, second.candidateId]) {
      assertRefused(
        await triggerScreening(s.api, s.job.id, candidateId, { templateId: s.template.id }),
        404,
        'not_found',
      );
    }
    assert.deepEqual(await rowsOf(s.account.id), []);
  });
});

describe('409 ad_not_managed', () => {
  test('a published ad that is not managed, or no longer is', async () => {
    const s = await scenario();
    const plain = await createPublished(s.api, { title: 'Plain ad' });
    const applicant = await applyTo(ctx, s.api, plain.id);
    const body = { templateId: s.template.id };
    assertRefused(
      await triggerScreening(s.api, plain.id, applicant.candidateId, body),
      409,
      'ad_not_managed',
    );
    const unmanaged = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/jobs/${s.job.id}/unmanage`,
    );
    assert.equal(unmanaged.statusCode, 200, unmanaged.body);
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body),
      409,
      'ad_not_managed',
    );
    assert.deepEqual(await rowsOf(s.account.id), []);
    await manageJob(ctx.app, s.account.id, plain.id);
    assertCreated(await triggerScreening(s.api, plain.id, applicant.candidateId, body));
  });

  test('a closed ad and an expired ad', async () => {
    const s = await scenario();
    const body = { templateId: s.template.id };
    const closed = await s.api.post(`/v1/jobs/${s.job.id}/close`);
    assert.equal(closed.statusCode, 200, closed.body);
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body),
      409,
      'ad_not_managed',
    );
    const short = await createPublished(s.api, { title: 'Short ad' }, { expiryDays: 30 });
    await manageJob(ctx.app, s.account.id, short.id);
    const applicant = await applyTo(ctx, s.api, short.id);
    ctx.clock.advance(30 * DAY - SECOND);
    assertCreated(
      await triggerScreening(s.api, short.id, applicant.candidateId, { ...body, completeBy: at(SECOND / 2) }),
    );
    ctx.clock.advance(SECOND);
    assertRefused(
      await triggerScreening(s.api, short.id, applicant.candidateId, body),
      409,
      'ad_not_managed',
    );
    assert.equal((await rowsOf(s.account.id)).length, 1);
  });

  test('managed is checked before the candidate: an unknown candidate on an unmanaged ad is 409', async () => {
    const s = await scenario();
    const plain = await createPublished(s.api, { title: 'Plain ad' });
    assertRefused(
      await triggerScreening(s.api, plain.id, 'cand_unknown', { templateId: s.template.id }),
      409,
      'ad_not_managed',
    );
  });
});

describe('409 conflict: one open screening per candidate per role', () => {
  test('a second screening of the same candidate on the same role; the same person on another role is allowed', async () => {
    const s = await scenario();
    const person = await importCandidate(ctx, s.api);
    const otherRole = await managedJob(ctx.app, s.api, s.account.id, { title: 'Second role' });
    const body = { templateId: s.template.id };
    const first = assertCreated(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body));
    const error = assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body),
      409,
      'conflict',
    );
    assert.match(error.message, /already open/);
    // With another template, still one at a time.
    const another = await newTemplate(ctx.app, s.account.id, { name: 'Another' });
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: another.id }),
      409,
      'conflict',
    );
    assertCreated(await triggerScreening(s.api, s.job.id, person.candidateId, body));
    assertCreated(await triggerScreening(s.api, otherRole.id, person.candidateId, body));
    assertRefused(await triggerScreening(s.api, otherRole.id, person.candidateId, body), 409, 'conflict');
    const rows = await rowsOf(s.account.id);
    assert.deepEqual(
      rows.map((r) => `${r.job_id} ${r.candidate_id} ${r.status}`).sort(),
      [
        `${s.job.id} ${s.applicant.candidateId} invited`,
        `${s.job.id} ${person.candidateId} invited`,
        `${otherRole.id} ${person.candidateId} invited`,
      ].sort(),
    );
    assert.ok(rows.some((r) => r.id === first.screening.screeningId));
  });

  test('once the first has expired (clock past completeBy) a new one is allowed', async () => {
    const s = await scenario();
    const body = { templateId: s.template.id };
    const first = assertCreated(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { ...body, completeBy: at(2 * HOUR) }),
    );
    ctx.clock.advance(2 * HOUR - SECOND);
    assertRefused(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body), 409, 'conflict');
    ctx.clock.advance(SECOND);
    const second = assertCreated(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body));
    assert.notEqual(second.screening.screeningId, first.screening.screeningId);
    assertRefused(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body), 409, 'conflict');
    const rows = await rowsOf(s.account.id);
    assert.equal(rows.length, 2);
    // Expiry is computed: the first row is still `invited`, past its complete_by.
    assert.equal(rows[0]?.status, 'invited');
    assert.ok((rows[0]?.complete_by.getTime() ?? Infinity) <= ctx.clock.now().getTime());
  });

  test('closing the role cancels its open screenings; re-published and managed again, the candidate is free', async () => {
    const s = await scenario();
    const body = { templateId: s.template.id };
    const bystanderRole = await managedJob(ctx.app, s.api, s.account.id, { title: 'Bystander role' });
    const bystander = await applyTo(ctx, s.api, bystanderRole.id);
    const first = assertCreated(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body));
    const kept = assertCreated(await triggerScreening(s.api, bystanderRole.id, bystander.candidateId, body));
    ctx.clock.advance(HOUR);
    const closedAt = ctx.clock.now();
    const closed = await s.api.post(`/v1/jobs/${s.job.id}/close`);
    assert.equal(closed.statusCode, 200, closed.body);
    const cancelled = await screeningRow(ctx.handle, first.screening.screeningId);
    assert.equal(cancelled?.status, 'cancelled');
    assert.equal(cancelled?.cancelled_at?.getTime(), closedAt.getTime());
    // Another role's screening is untouched.
    assert.equal((await screeningRow(ctx.handle, kept.screening.screeningId))?.status, 'invited');
    // Closing made the ad unmanaged.
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body),
      409,
      'ad_not_managed',
    );
    const republished = await s.api.post(`/v1/jobs/${s.job.id}/publish`, {});
    assert.equal(republished.statusCode, 200, republished.body);
    await manageJob(ctx.app, s.account.id, s.job.id);
    const second = assertCreated(await triggerScreening(s.api, s.job.id, s.applicant.candidateId, body));
    assert.equal(second.screening.status, 'invited');
    assert.equal(second.billing, 'included');
    const rows = (await rowsOf(s.account.id)).filter((r) => r.job_id === s.job.id);
    assert.deepEqual(
      rows.map((r) => r.status),
      ['cancelled', 'invited'],
    );
  });

  test('the open screening is checked before the price', async () => {
    const s = await scenario();
    const unpriced = await newTemplate(ctx.app, s.account.id, { priceCents: null });
    assertCreated(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: s.template.id }),
    );
    assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: unpriced.id }),
      409,
      'conflict',
    );
  });
});

describe('409 price_unavailable', () => {
  test('a template whose price cannot be read; once priced it is accepted', async () => {
    const s = await scenario();
    const unpriced = await newTemplate(ctx.app, s.account.id, { priceCents: null, currency: 'USD' });
    assert.equal(unpriced.priceCents, null);
    const error = assertRefused(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: unpriced.id }),
      409,
      'price_unavailable',
    );
    assert.equal(error.priceCents, undefined);
    assert.deepEqual(await rowsOf(s.account.id), []);
    // The candidate is checked before the price.
    assertRefused(
      await triggerScreening(s.api, s.job.id, 'cand_unknown', { templateId: unpriced.id }),
      404,
      'not_found',
    );
    const priced = await consoleCall(
      ctx.app,
      'PATCH',
      `/accounts/${s.account.id}/screening-templates/${unpriced.id}`,
      {
        priceCents: 900,
      },
    );
    assert.equal(priced.statusCode, 200, priced.body);
    const body = assertCreated(
      await triggerScreening(s.api, s.job.id, s.applicant.candidateId, { templateId: unpriced.id }),
    );
    assert.equal(body.priceCents, 900);
    assert.equal(body.currency, 'USD');
  });
});

describe('no per-minute limit, no X-RateLimit-* headers', () => {
  test('130 calls in one minute on an account limited to 120 a minute are never 429, and carry no rate headers', async () => {
    const s = await screeningAccount(ctx.app, { limits: { requestsPerMinute: 120 } });
    const template = await newTemplate(ctx.app, s.account.id);
    const job = await managedJob(ctx.app, s.api, s.account.id);
    const applicant = await applyTo(ctx, s.api, job.id);
    const key = await newKey(ctx.app, s.account.id, ['screening', 'jobs:read']);
    const api = client(ctx.app, key.secret);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 130; i += 1) {
      const res = await triggerScreening(api, job.id, applicant.candidateId, { templateId: template.id });
      assertNoRateHeaders(res);
      assert.notEqual(res.statusCode, 429, res.body);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 201: 1, 409: 129 });
    // None of them counted against the key's per-minute budget.
    const list = await api.get('/v1/jobs');
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.headers['x-ratelimit-limit'], '120');
    assert.equal(list.headers['x-ratelimit-remaining'], '119');
    // Errors of every kind carry no rate headers either (assertError checks each).
    assertRefused(
      await triggerScreening(api, job.id, applicant.candidateId, { templateId: 'nope' }),
      400,
      'bad_request',
    );
    assertRefused(
      await triggerScreening(api, 'job_unknown', applicant.candidateId, { templateId: template.id }),
      404,
      'not_found',
    );
    assertRefused(
      await triggerScreening(client(ctx.app, key.secret + 'x'), job.id, applicant.candidateId, {
        templateId: template.id,
      }),
      401,
      'unauthorized',
    );
    const jobsOnly = await newKey(ctx.app, s.account.id, ['jobs:read']);
    assertRefused(
      await triggerScreening(client(ctx.app, jobsOnly.secret), job.id, applicant.candidateId, {
        templateId: template.id,
      }),
      403,
      'forbidden',
    );
  });

  test('an exhausted per-minute budget does not stop the screening route', async () => {
    const s = await screeningAccount(ctx.app, { limits: { requestsPerMinute: 2 } });
    const template = await newTemplate(ctx.app, s.account.id);
    // Setup through the console and the database, so that only the budget below is spent.
    const intakeKey = await newKey(ctx.app, s.account.id, ['jobs:read', 'jobs:write', 'applications:write']);
    const jobRes = await client(ctx.app, intakeKey.secret).post('/v1/jobs', {
      title: 'Backend Engineer',
      category: 'engineering',
      description: '<p>Build it.</p>',
    });
    assert.equal(jobRes.statusCode, 201, jobRes.body);
    const jobId = jobRes.json().job.id;
    const publish = await consoleCall(ctx.app, 'POST', `/accounts/${s.account.id}/jobs/${jobId}/publish`, {});
    assert.equal(publish.statusCode, 200, publish.body);
    await manageJob(ctx.app, s.account.id, jobId);
    const person = await importCandidateDirect(s.account.id);
    const key = await newKey(ctx.app, s.account.id, ['screening', 'jobs:read']);
    const api = client(ctx.app, key.secret);
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);
    const limited = await api.get('/v1/jobs');
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal(errorOf(limited).code, 'rate_limited');
    assertCreated(await triggerScreening(api, jobId, person, { templateId: template.id }));
  });
});

/** A person in the account's pool, written straight to the database (no API call spent). */
async function importCandidateDirect(accountId: string): Promise<string> {
  const id = `cand_${unique('direct').replace(/[^a-z0-9]/gi, '')}`.slice(0, 60);
  // queued, with a staged (unclaimed) virtual CV: reachable by email.
  const email = `${unique('direct').toLowerCase()}@example.com`;
  const now = ctx.clock.now();
  await ctx.handle.db
    .insertInto('candidates')
    .values({
      id,
      account_id: accountId,
      email_key: email,
      name: 'Direct Person',
      email,
      lawful_basis: JSON.stringify({ attested: true }),
      outcome: 'queued',
      cv_status: 'staged',
      blob_key: null,
      locale: 'en',
      send_claim_email: false,
      rejection: null,
      claimed_at: null,
      staged_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

describe('isolation', () => {
  test('another account’s key sees none of this account’s jobs, candidates, templates or screenings', async () => {
    const a = await scenario();
    const b = await scenario();
    const bodyA = { templateId: a.template.id };
    const bodyB = { templateId: b.template.id };
    // B's key, on A's job and candidate, with either template.
    assertRefused(await triggerScreening(b.api, a.job.id, a.applicant.candidateId, bodyB), 404, 'not_found');
    assertRefused(await triggerScreening(b.api, a.job.id, a.applicant.candidateId, bodyA), 404, 'not_found');
    // B's key, on its own job, with A's candidate.
    assertRefused(await triggerScreening(b.api, b.job.id, a.applicant.candidateId, bodyB), 404, 'not_found');
    const aPerson = await importCandidate(ctx, a.api);
    assertRefused(await triggerScreening(b.api, b.job.id, aPerson.candidateId, bodyB), 404, 'not_found');
    assert.deepEqual(await rowsOf(a.account.id), []);
    assert.deepEqual(await rowsOf(b.account.id), []);
    // A's screening is A's alone: B cannot complete it, and B's billing does not list it.
    const mine = assertCreated(await triggerScreening(a.api, a.job.id, a.applicant.candidateId, bodyA));
    const completeAsB = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${b.account.id}/screenings/${mine.screening.screeningId}/complete`,
    );
    assert.equal(completeAsB.statusCode, 404, completeAsB.body);
    assert.equal(errorOf(completeAsB).code, 'not_found');
    assert.equal((await screeningRow(ctx.handle, mine.screening.screeningId))?.status, 'invited');
    const month = ctx.clock.now().toISOString().slice(0, 7);
    const billingB = await consoleCall(ctx.app, 'GET', `/accounts/${b.account.id}/billing?month=${month}`);
    assert.equal(billingB.statusCode, 200, billingB.body);
    assert.deepEqual(billingB.json().screenings, []);
    // B's screening of its own applicant does not collide with A's.
    assertCreated(await triggerScreening(b.api, b.job.id, b.applicant.candidateId, bodyB));
    assert.equal((await rowsOf(a.account.id)).length, 1);
    assert.equal((await rowsOf(b.account.id)).length, 1);
  });
});
