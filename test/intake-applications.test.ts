import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { client, consoleCall, intakeAccount, newKey, unique } from './support/accounts.ts';
import { startApp, type TestContext, useTestApp } from './support/app.ts';
import { assertError, errorOf } from './support/assert.ts';
import {
  applicationBody,
  consentReceipt,
  pdfFixture,
  putUpload,
  uploadPdf,
  uploadRow,
} from './support/intake.ts';
import { createDraft, createPublished } from './support/jobs.ts';
import { MINUTE } from './support/time.ts';

/**
 * POST /v1/jobs/{jobId}/applications: every check in the spec's order (one refusal per check, and
 * the order when two fail at once), refusals that spend nothing, the accepted application and what
 * it stores, duplicates, idempotent retries, the status read, the console's list, and isolation.
 */

const CV = pdfFixture('cv-2-pages.pdf');
const PNG = pdfFixture('png-renamed.pdf');
const MISSING_JOB = 'job_0000000000000000000000000a';

const ctx = useTestApp();

type Api = ReturnType<typeof client>;
type Intake = Awaited<ReturnType<typeof intakeAccount>>;

function apply(api: Api, jobId: string, body: Record<string, unknown>, key: string | null = unique('idem')) {
  return api.post(`/v1/jobs/${jobId}/applications`, body, key === null ? {} : { 'idempotency-key': key });
}

async function applicationsOf(c: TestContext, accountId: string) {
  return c.handle.db
    .selectFrom('applications')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** The upload can still be named: not spent, and its file still stored. */
async function assertUnspent(c: TestContext, uploadId: string, bytes = CV.length) {
  const row = await uploadRow(c.handle, uploadId);
  assert.ok(row, `upload ${uploadId} exists`);
  assert.equal(row.used_at, null, 'the upload was not spent');
  assert.equal(await c.files.size(uploadId), bytes, 'its file is still stored');
}

/** An account with a published job and a fresh uploaded CV. */
async function setup(c: TestContext = ctx, limits: Record<string, number> = {}) {
  const who = await intakeAccount(c.app, { limits });
  const job = await createPublished(who.api);
  const upload = await uploadPdf(c, who.api, CV);
  return { ...who, jobId: job.id, uploadId: upload.uploadId };
}

async function closedJob(api: Api): Promise<string> {
  const job = await createPublished(api);
  const res = await api.post(`/v1/jobs/${job.id}/close`);
  assert.equal(res.statusCode, 200, res.body);
  return job.id;
}

describe('check (1): the job is the account’s and published', () => {
  let s: Intake & { jobId: string; uploadId: string };
  before(async () => {
    s = await setup();
  });

  test('an unknown job and another account’s job are 404 not_found', async () => {
    const other = await intakeAccount(ctx.app);
    const theirs = await createPublished(other.api);
    const unknown = assertError(
      await apply(s.api, MISSING_JOB, applicationBody(ctx.clock, s.uploadId)),
      404,
      'not_found',
    );
    const foreign = assertError(
      await apply(s.api, theirs.id, applicationBody(ctx.clock, s.uploadId)),
      404,
      'not_found',
    );
    assert.equal(foreign.message, unknown.message, 'another account’s job reads as a missing one');
    assert.equal((await applicationsOf(ctx, other.account.id)).length, 0);
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
  });

  // The spec's check (1): "job belongs to the account and is published: 404 not_found, else 409
  // job_not_open"; drafts are 404 only "on read". The account's own draft is therefore not open.
  test('the account’s own draft is 409 job_not_open with status "draft"', async () => {
    const draft = await createDraft(s.api);
    const error = assertError(
      await apply(s.api, draft.id, applicationBody(ctx.clock, s.uploadId)),
      409,
      'job_not_open',
    );
    assert.equal(error.status, 'draft');
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
  });

  test('a closed job is 409 job_not_open with status "closed"', async () => {
    const jobId = await closedJob(s.api);
    const error = assertError(
      await apply(s.api, jobId, applicationBody(ctx.clock, s.uploadId)),
      409,
      'job_not_open',
    );
    assert.equal(error.status, 'closed');
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
  });

  test('an expired job is 409 job_not_open with status "expired"', async () => {
    const c = await startApp();
    try {
      const who = await intakeAccount(c.app);
      const job = await createPublished(who.api, {
        expiresAt: new Date(c.clock.now().getTime() + MINUTE).toISOString(),
      });
      const upload = await uploadPdf(c, who.api, CV);
      c.clock.advance(MINUTE);
      const error = assertError(
        await apply(who.api, job.id, applicationBody(c.clock, upload.uploadId)),
        409,
        'job_not_open',
      );
      assert.equal(error.status, 'expired');
      assert.equal((await applicationsOf(c, who.account.id)).length, 0);
      await assertUnspent(c, upload.uploadId);
    } finally {
      await c.close();
    }
  });

  test('the published job accepts the same upload afterwards', async () => {
    const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().job, { id: s.jobId, status: 'published' });
  });
});

describe('check (2): the consent receipt', () => {
  let s: Intake & { jobId: string; uploadId: string };
  before(async () => {
    s = await setup();
  });

  const at = (ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();

  test('each invalid receipt is 422 consent_invalid, and the message names the field', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['consent.consentTextId', { consentTextId: 'console_other_text' }],
      ['consent.version', { version: 'api_apply_v0' }],
      ['consent.version', { version: 'API_APPLY_V1' }],
      ['consent.acceptedAt', { acceptedAt: 'yesterday' }],
      ['consent.acceptedAt', { acceptedAt: '2026-13-45T99:00:00Z' }],
      ['consent.acceptedAt', { acceptedAt: '' }],
      ['consent.acceptedAt', { acceptedAt: at(5 * MINUTE + 1000) }],
      ['consent.acceptedAt', { acceptedAt: ctx.clock.now().getTime() + 6 * MINUTE }],
      ['consent.ip', { ip: '' }],
      ['consent.ip', { ip: '   ' }],
      ['consent.userAgent', { userAgent: '' }],
      ['consent.locale', { locale: 'de' }],
      ['consent.acceptedAt', { acceptedAt: ctx.clock.now().getTime() + 0.5 }],
      ['consent.acceptedAt', { acceptedAt: -5 }],
      // 1970: long before api_apply_v1 was first handed out.
      ['consent.acceptedAt', { acceptedAt: 0 }],
      ['consent.acceptedAt', { acceptedAt: '1999-01-01T00:00:00Z' }],
      // No zone: it would be read in the server's own zone.
      ['consent.acceptedAt', { acceptedAt: at(-MINUTE).replace('Z', '') }],
      ['consent.acceptedAt', { acceptedAt: at(-MINUTE).slice(0, 10) }],
    ];
    for (const [field, change] of cases) {
      const body = applicationBody(ctx.clock, s.uploadId, { consent: consentReceipt(ctx.clock, change) });
      const error = assertError(await apply(s.api, s.jobId, body), 422, 'consent_invalid');
      assert.ok(
        error.message.includes(field),
        `${JSON.stringify(change)}: "${error.message}" names ${field}`,
      );
      assert.equal(error.field, field);
    }
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
  });

  test('acceptedAt as ISO 8601 (any offset) or epoch ms, up to five minutes ahead, is accepted', async () => {
    const now = ctx.clock.now().getTime();
    const accepted: unknown[] = [
      at(4 * MINUTE),
      at(5 * MINUTE),
      at(-3 * 86_400_000),
      now - MINUTE,
      now + 4 * MINUTE,
      String(now),
      new Date(now).toISOString().replace('Z', '+00:00'),
      '2026-01-01T10:00:00+10:00',
    ];
    for (const acceptedAt of accepted) {
      const upload = await uploadPdf(ctx, s.api, CV);
      const body = applicationBody(ctx.clock, upload.uploadId, {
        consent: consentReceipt(ctx.clock, { acceptedAt }),
      });
      const res = await apply(s.api, s.jobId, body);
      assert.equal(res.statusCode, 201, `${JSON.stringify(acceptedAt)}: ${res.body}`);
    }
    assert.equal((await applicationsOf(ctx, s.account.id)).length, accepted.length);
  });

  test('a receipt of the wrong shape is 400 bad_request, not consent_invalid', async () => {
    const shapes: Record<string, unknown>[] = [
      consentReceipt(ctx.clock, { acceptedAt: true }),
      consentReceipt(ctx.clock, { locale: 7 }),
      consentReceipt(ctx.clock, { extra: 'x' }),
      (({ ip: _ip, ...rest }) => rest)(consentReceipt(ctx.clock)),
    ];
    for (const consent of shapes) {
      const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { consent }));
      assertError(res, 400, 'bad_request');
    }
    await assertUnspent(ctx, s.uploadId);
  });
});

describe('check (3): lawfulBasis.attested must be true', () => {
  test('attested false is 422 attestation_required; the upload is not spent', async () => {
    const s = await setup();
    const res = await apply(
      s.api,
      s.jobId,
      applicationBody(ctx.clock, s.uploadId, { lawfulBasis: { attested: false } }),
    );
    const error = assertError(res, 422, 'attestation_required');
    assert.match(error.message, /attested/);
    for (const lawfulBasis of [{}, { attested: 'true' }, { attested: 1 }]) {
      assertError(
        await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { lawfulBasis })),
        400,
        'bad_request',
      );
    }
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
  });
});

describe('check (4): the daily budgets (UTC days, on a clock at 23:40 UTC)', () => {
  let c: TestContext;
  const DAY_START = Date.parse('2031-03-10T00:00:00Z');
  const MIDNIGHT = DAY_START + 86_400_000;
  before(async () => {
    c = await startApp({ clock: new ManualClock(new Date(MIDNIGHT - 20 * MINUTE)) });
  });
  after(async () => {
    await c?.close();
  });

  test('the account’s dailyApplications: the next one is 429 daily_cap_reached until midnight UTC', async () => {
    c.clock.set(new Date(MIDNIGHT - 20 * MINUTE));
    const who = await intakeAccount(c.app, { limits: { dailyApplications: 2 } });
    const jobs = [
      await createPublished(who.api),
      await createPublished(who.api),
      await createPublished(who.api),
    ];
    for (const job of jobs.slice(0, 2)) {
      const upload = await uploadPdf(c, who.api, CV);
      assert.equal((await apply(who.api, job.id, applicationBody(c.clock, upload.uploadId))).statusCode, 201);
    }
    const third = await uploadPdf(c, who.api, CV);
    const key = unique('idem');
    const body = applicationBody(c.clock, third.uploadId);
    const res = await apply(who.api, jobs[2]!.id, body, key);
    const error = assertError(res, 429, 'daily_cap_reached');
    assert.equal(res.headers['retry-after'], String(20 * 60));
    assert.equal(error.resetsAt, new Date(MIDNIGHT).toISOString());
    assert.equal((await applicationsOf(c, who.account.id)).length, 2);
    await assertUnspent(c, third.uploadId);

    // One second before midnight: still spent.
    c.clock.set(new Date(MIDNIGHT - 1000));
    const late = await apply(who.api, jobs[2]!.id, body);
    assertError(late, 429, 'daily_cap_reached');
    assert.equal(late.headers['retry-after'], '1');

    // The next UTC day the budget is whole again; a 429 is not kept under the key, so the same
    // retry goes through with the same upload.
    c.clock.set(new Date(MIDNIGHT + 1000));
    const retried = await apply(who.api, jobs[2]!.id, body, key);
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    assert.equal((await applicationsOf(c, who.account.id)).length, 3);
  });

  test('the job’s own jobDailyApplications: 429 rate_limited with Retry-After; other jobs still take applications', async () => {
    c.clock.set(new Date(MIDNIGHT - 20 * MINUTE));
    const who = await intakeAccount(c.app, { limits: { jobDailyApplications: 1 } });
    const busy = await createPublished(who.api);
    const quiet = await createPublished(who.api);
    const first = await uploadPdf(c, who.api, CV);
    assert.equal((await apply(who.api, busy.id, applicationBody(c.clock, first.uploadId))).statusCode, 201);
    const second = await uploadPdf(c, who.api, CV);
    const res = await apply(who.api, busy.id, applicationBody(c.clock, second.uploadId));
    const error = assertError(res, 429, 'rate_limited');
    assert.equal(res.headers['retry-after'], String(20 * 60));
    assert.match(error.message, /1 application/);
    await assertUnspent(c, second.uploadId);
    // The same upload goes to another job at once.
    const elsewhere = await apply(who.api, quiet.id, applicationBody(c.clock, second.uploadId));
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    // And the busy job takes one again the next UTC day.
    c.clock.set(new Date(MIDNIGHT + MINUTE));
    const third = await uploadPdf(c, who.api, CV);
    const next = await apply(who.api, busy.id, applicationBody(c.clock, third.uploadId));
    assert.equal(next.statusCode, 201, next.body);
  });

  test('concurrent applications cannot overspend the budget', async () => {
    c.clock.set(new Date(MIDNIGHT - 20 * MINUTE));
    const who = await intakeAccount(c.app, { limits: { dailyApplications: 2 } });
    const job = await createPublished(who.api);
    const uploads: string[] = [];
    for (let i = 0; i < 5; i++) uploads.push((await uploadPdf(c, who.api, CV)).uploadId);
    const answers = await Promise.all(
      uploads.map((id) => apply(who.api, job.id, applicationBody(c.clock, id))),
    );
    assert.deepEqual(
      answers.map((r) => r.statusCode).sort(),
      [201, 201, 429, 429, 429],
      answers.map((r) => r.body).join('\n'),
    );
    for (const res of answers.filter((r) => r.statusCode === 429)) assertError(res, 429, 'daily_cap_reached');
    assert.equal((await applicationsOf(c, who.account.id)).length, 2);
  });

  test('both full: the account’s budget is checked first', async () => {
    c.clock.set(new Date(MIDNIGHT - 20 * MINUTE));
    const who = await intakeAccount(c.app, { limits: { dailyApplications: 0, jobDailyApplications: 0 } });
    const job = await createPublished(who.api);
    const upload = await uploadPdf(c, who.api, CV);
    assertError(
      await apply(who.api, job.id, applicationBody(c.clock, upload.uploadId)),
      429,
      'daily_cap_reached',
    );
  });
});

describe('check (5): the upload', () => {
  test('an upload that names no live upload is 400 upload_invalid', async () => {
    const s = await setup();
    const slot = await uploadPdf(ctx, s.api, CV, { put: false });
    for (const id of ['upl_0000000000000000000000000000', slot.uploadId]) {
      const error = assertError(
        await apply(s.api, s.jobId, applicationBody(ctx.clock, id)),
        400,
        'upload_invalid',
      );
      assert.match(error.message, /POST \/v1\/uploads/);
    }
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
  });
});

describe('the order when two checks fail at once', () => {
  const badConsent = () => consentReceipt(ctx.clock, { ip: '' });

  test('closed job and bad consent → 409 job_not_open; unknown job and bad consent → 404', async () => {
    const s = await setup();
    const closed = await closedJob(s.api);
    const body = applicationBody(ctx.clock, s.uploadId, {
      consent: badConsent(),
      lawfulBasis: { attested: false },
    });
    assertError(await apply(s.api, closed, body), 409, 'job_not_open');
    assertError(await apply(s.api, MISSING_JOB, body), 404, 'not_found');
    await assertUnspent(ctx, s.uploadId);
  });

  test('bad consent and attested false → consent_invalid', async () => {
    const s = await setup();
    const body = applicationBody(ctx.clock, 'upl_0000000000000000000000000000', {
      consent: badConsent(),
      lawfulBasis: { attested: false },
    });
    assertError(await apply(s.api, s.jobId, body), 422, 'consent_invalid');
  });

  test('attested false and an invalid upload → attestation_required', async () => {
    const s = await setup();
    const body = applicationBody(ctx.clock, 'upl_0000000000000000000000000000', {
      lawfulBasis: { attested: false },
    });
    assertError(await apply(s.api, s.jobId, body), 422, 'attestation_required');
  });

  test('bad consent and a full budget → consent_invalid', async () => {
    const s = await setup(ctx, { dailyApplications: 0 });
    const body = applicationBody(ctx.clock, s.uploadId, { consent: badConsent() });
    assertError(await apply(s.api, s.jobId, body), 422, 'consent_invalid');
  });

  test('a full budget and an invalid upload → 429 (account’s and job’s)', async () => {
    const account = await setup(ctx, { dailyApplications: 0 });
    const never = await uploadPdf(ctx, account.api, CV, { put: false });
    const res = await apply(account.api, account.jobId, applicationBody(ctx.clock, never.uploadId));
    assertError(res, 429, 'daily_cap_reached');
    assert.ok(Number(res.headers['retry-after']) >= 1);
    const job = await setup(ctx, { jobDailyApplications: 0 });
    const res2 = await apply(
      job.api,
      job.jobId,
      applicationBody(ctx.clock, 'upl_0000000000000000000000000000'),
    );
    assertError(res2, 429, 'rate_limited');
    assert.ok(Number(res2.headers['retry-after']) >= 1);
  });

  test('an invalid upload holding a bad PDF → upload_invalid, and that file is not touched', async () => {
    const s = await setup();
    const other = await intakeAccount(ctx.app);
    const theirPng = await uploadPdf(ctx, other.api, PNG);
    const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, theirPng.uploadId));
    assertError(res, 400, 'upload_invalid');
    await assertUnspent(ctx, theirPng.uploadId, PNG.length);
  });

  test('body-shape errors are 400 bad_request before any check, even on a closed or unknown job', async () => {
    const s = await setup();
    const closed = await closedJob(s.api);
    const valid = applicationBody(ctx.clock, s.uploadId, {
      consent: badConsent(),
      lawfulBasis: { attested: false },
    });
    const { name: _name, ...noName } = valid;
    const cases: [string, Record<string, unknown>][] = [
      ['name', noName],
      ['name', { ...valid, name: '' }],
      ['email', { ...valid, email: 'not-an-email' }],
      ['favouriteColour', { ...valid, favouriteColour: 'blue' }],
      ['cv.fileName', { ...valid, cv: { uploadId: s.uploadId, fileName: 'cv.pdf' } }],
      ['answers[0].answer', { ...valid, answers: [{ question: 'Why us?' }] }],
      ['name', { ...valid, name: 'x'.repeat(201) }],
    ];
    for (const jobId of [closed, MISSING_JOB]) {
      for (const [field, body] of cases) {
        const error = assertError(await apply(s.api, jobId, body), 400, 'bad_request');
        assert.equal(error.field, field, error.message);
      }
      // A well-formed body without an Idempotency-Key.
      const error = assertError(await apply(s.api, jobId, valid, null), 400, 'bad_request');
      assert.match(error.message, /Idempotency-Key/);
    }
    await assertUnspent(ctx, s.uploadId);
  });
});

describe('a refusal spends nothing', () => {
  test('refusals at checks 1 to 5 leave the upload usable and the budget whole', async () => {
    const s = await setup(ctx, { dailyApplications: 2 });
    const closed = await closedJob(s.api);
    const good = () => applicationBody(ctx.clock, s.uploadId);
    const refusals: [number, string, Promise<LightMyRequestResponse>][] = [
      [404, 'not_found', apply(s.api, MISSING_JOB, good())],
      [409, 'job_not_open', apply(s.api, closed, good())],
      [
        422,
        'consent_invalid',
        apply(s.api, s.jobId, { ...good(), consent: consentReceipt(ctx.clock, { version: 'v0' }) }),
      ],
      [422, 'attestation_required', apply(s.api, s.jobId, { ...good(), lawfulBasis: { attested: false } })],
    ];
    for (const [status, code, res] of refusals) assertError(await res, status, code);
    const pending = await uploadPdf(ctx, s.api, CV, { put: false });
    assertError(
      await apply(s.api, s.jobId, applicationBody(ctx.clock, pending.uploadId)),
      400,
      'upload_invalid',
    );
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    await assertUnspent(ctx, s.uploadId);
    assert.equal((await uploadRow(ctx.handle, pending.uploadId))?.used_at, null);

    // Both uploads and the whole budget of two are still there.
    assert.equal((await apply(s.api, s.jobId, good())).statusCode, 201);
    assert.equal((await putUpload(ctx.app, pending.uploadUrl, CV)).statusCode, 200);
    const second = await apply(s.api, s.jobId, applicationBody(ctx.clock, pending.uploadId));
    assert.equal(second.statusCode, 201, second.body);
    // Check (4) refuses the third without spending its upload.
    const third = await uploadPdf(ctx, s.api, CV);
    assertError(
      await apply(s.api, s.jobId, applicationBody(ctx.clock, third.uploadId)),
      429,
      'daily_cap_reached',
    );
    await assertUnspent(ctx, third.uploadId);
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 2);
  });

  test('a refused CV spends its upload and discards the file, but not the budget', async () => {
    const s = await setup(ctx, { dailyApplications: 1 });
    const png = await uploadPdf(ctx, s.api, PNG);
    const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, png.uploadId));
    const error = assertError(res, 422, 'cv_rejected');
    assert.equal(error.reason, 'wrong_type');
    assert.equal(await ctx.files.size(png.uploadId), null, 'the refused file is discarded');
    assert.ok((await uploadRow(ctx.handle, png.uploadId))?.used_at, 'and its upload spent');
    assertError(await apply(s.api, s.jobId, applicationBody(ctx.clock, png.uploadId)), 400, 'upload_invalid');
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 0);
    // The budget of one is still whole.
    const ok = await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId));
    assert.equal(ok.statusCode, 201, ok.body);
  });
});

describe('201 ApplicationCreated', () => {
  test('answers the ids and statuses, and stores everything the recruiter needs, with the receipt verbatim', async () => {
    const s = await setup();
    const consent = {
      consentTextId: 'console_api_apply',
      version: 'api_apply_v1',
      locale: 'fr',
      acceptedAt: ctx.clock.now().getTime() - 30_000,
      ip: '2001:db8::17',
      userAgent: 'Mozilla/5.0 (Macintosh) Safari/605.1.15',
    };
    const answers = [
      { question: 'Are you allowed to work in Australia?', answer: 'Yes, permanent resident.' },
      { question: 'Notice period?', answer: 'Four weeks' },
    ];
    const lawfulBasis = { attested: true, basis: 'consent', recordedBy: 'careers-page' };
    const email = `${unique('marisol').toLowerCase()}@example.com`;
    const body = {
      name: 'Marisol Quintero-Ávila',
      email,
      phone: '+61 2 5550 1234',
      location: 'Brisbane, QLD',
      cv: { uploadId: s.uploadId },
      coverNote: 'I would love to build your careers service.\nThank you!',
      answers,
      consent,
      lawfulBasis,
    };
    const res = await apply(s.api, s.jobId, body);
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.applicationId, /^app_/);
    assert.deepEqual(created, {
      applicationId: created.applicationId,
      candidateId: created.applicationId,
      status: 'received',
      cvStatus: 'processing',
      job: { id: s.jobId, status: 'published' },
    });

    const rows = await applicationsOf(ctx, s.account.id);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.id, created.applicationId);
    assert.equal(row.job_id, s.jobId);
    assert.equal(row.name, body.name);
    assert.equal(row.email, email);
    assert.equal(row.phone, body.phone);
    assert.equal(row.location, body.location);
    assert.equal(row.cover_note, body.coverNote);
    assert.deepEqual(row.answers, answers);
    assert.deepEqual(row.consent_receipt, consent, 'the receipt as sent (acceptedAt stays epoch ms)');
    assert.deepEqual(row.lawful_basis, lawfulBasis);
    assert.equal(row.consent_text_id, 'console_api_apply');
    assert.equal(row.consent_version, 'api_apply_v1');
    assert.equal(row.consent_locale, 'fr');
    const fr = (await s.api.get('/v1/consent-text?locale=fr')).json();
    assert.equal(row.consent_text, fr.text, 'the service’s own copy of the words, in the receipt’s locale');
    assert.equal(row.status, 'received');
    assert.equal(row.cv_status, 'processing');
    assert.equal(row.created_at.getTime(), ctx.clock.now().getTime());
    assert.equal(row.blob_key, s.uploadId);
    // The upload is spent and its file kept for the virtual CV.
    assert.ok((await uploadRow(ctx.handle, s.uploadId))?.used_at);
    assert.equal(await ctx.files.size(s.uploadId), CV.length);
  });

  test('without a locale the receipt is read in en, and the optional fields stay empty', async () => {
    const s = await setup();
    const { locale: _locale, ...consent } = consentReceipt(ctx.clock);
    const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { consent }));
    assert.equal(res.statusCode, 201, res.body);
    const [row] = await applicationsOf(ctx, s.account.id);
    assert.equal(row?.consent_locale, 'en');
    assert.equal(row?.consent_text, (await s.api.get('/v1/consent-text')).json().text);
    assert.deepEqual(row?.consent_receipt, consent);
    assert.equal(row?.phone, null);
    assert.equal(row?.location, null);
    assert.equal(row?.cover_note, null);
  });
});

describe('duplicates: one application per address per job', () => {
  test('the same email in other case on the same job is 200 duplicate with the existing ids; the new file is discarded', async () => {
    const s = await setup();
    const local = unique('Dana.Lee');
    const first = await apply(
      s.api,
      s.jobId,
      applicationBody(ctx.clock, s.uploadId, { email: `${local}@Example.com` }),
    );
    assert.equal(first.statusCode, 201, first.body);
    const { applicationId } = first.json();
    const again = await uploadPdf(ctx, s.api, CV);
    const res = await apply(
      s.api,
      s.jobId,
      applicationBody(ctx.clock, again.uploadId, {
        email: `  ${local.toUpperCase()}@example.COM`.trim(),
        name: 'Dana',
      }),
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      applicationId,
      candidateId: applicationId,
      status: 'received',
      cvStatus: 'processing',
      duplicate: true,
    });
    const rows = await applicationsOf(ctx, s.account.id);
    assert.equal(rows.length, 1, 'no new application');
    assert.equal(rows[0]!.name, 'Marisol Quintero-Ávila', 'the first application is unchanged');
    assert.equal(await ctx.files.size(again.uploadId), null, 'the new file is discarded');
    assert.equal(await ctx.files.size(s.uploadId), CV.length, 'the first file is kept');
  });

  test('the duplicate answer carries the existing application’s current cvStatus', async () => {
    const s = await setup();
    const email = `${unique('staged').toLowerCase()}@example.com`;
    const first = await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { email }));
    const { applicationId } = first.json();
    await ctx.handle.db
      .updateTable('applications')
      .set({ cv_status: 'staged' })
      .where('id', '=', applicationId)
      .execute();
    const again = await uploadPdf(ctx, s.api, CV);
    const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, again.uploadId, { email }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().cvStatus, 'staged');
    assert.equal(res.json().duplicate, true);
  });

  test('the same email on another job is a new application', async () => {
    const s = await setup();
    const email = `${unique('twice').toLowerCase()}@example.com`;
    const first = await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { email }));
    const otherJob = await createPublished(s.api);
    const upload = await uploadPdf(ctx, s.api, CV);
    const res = await apply(s.api, otherJob.id, applicationBody(ctx.clock, upload.uploadId, { email }));
    assert.equal(res.statusCode, 201, res.body);
    assert.notEqual(res.json().applicationId, first.json().applicationId);
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 2);
    assert.equal(await ctx.files.size(upload.uploadId), CV.length);
  });

  test('the same address sent concurrently makes one application; the others are duplicates whose files are discarded', async () => {
    const s = await setup();
    const email = `${unique('race').toLowerCase()}@example.com`;
    const uploads = [s.uploadId];
    for (let i = 0; i < 3; i++) uploads.push((await uploadPdf(ctx, s.api, CV)).uploadId);
    const answers = await Promise.all(
      uploads.map((id, i) =>
        apply(s.api, s.jobId, applicationBody(ctx.clock, id, { email: i % 2 ? email.toUpperCase() : email })),
      ),
    );
    assert.deepEqual(
      answers.map((r) => r.statusCode).sort(),
      [200, 200, 200, 201],
      answers.map((r) => r.body).join('\n'),
    );
    const created = answers.find((r) => r.statusCode === 201)!.json();
    for (const res of answers.filter((r) => r.statusCode === 200)) {
      assert.equal(res.json().applicationId, created.applicationId);
      assert.equal(res.json().duplicate, true);
    }
    const rows = await applicationsOf(ctx, s.account.id);
    assert.equal(rows.length, 1);
    for (const id of uploads) {
      const expected = id === rows[0]!.blob_key ? CV.length : null;
      assert.equal(await ctx.files.size(id), expected, `file of ${id}`);
      assert.ok((await uploadRow(ctx.handle, id))?.used_at, `upload ${id} spent`);
    }
  });

  test('consent and attestation are still checked first; a duplicate spends no budget', async () => {
    const s = await setup(ctx, { dailyApplications: 1 });
    const email = `${unique('budget').toLowerCase()}@example.com`;
    assert.equal(
      (await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { email }))).statusCode,
      201,
    );
    const again = await uploadPdf(ctx, s.api, CV);
    const bad = applicationBody(ctx.clock, again.uploadId, {
      email,
      consent: consentReceipt(ctx.clock, { userAgent: '' }),
    });
    assertError(await apply(s.api, s.jobId, bad), 422, 'consent_invalid');
    const unattested = applicationBody(ctx.clock, again.uploadId, {
      email,
      lawfulBasis: { attested: false },
    });
    assertError(await apply(s.api, s.jobId, unattested), 422, 'attestation_required');
    await assertUnspent(ctx, again.uploadId);
    // The account's budget of one is spent, yet the duplicate is answered (docs/decisions.md).
    const res = await apply(s.api, s.jobId, applicationBody(ctx.clock, again.uploadId, { email }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().duplicate, true);
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 1);
  });
});

describe('idempotent retries', () => {
  test('the same key and body replays the first answer; one application', async () => {
    const s = await setup();
    const key = unique('idem');
    const body = applicationBody(ctx.clock, s.uploadId);
    const first = await apply(s.api, s.jobId, body, key);
    assert.equal(first.statusCode, 201, first.body);
    const second = await apply(s.api, s.jobId, body, key);
    assert.equal(second.statusCode, 201, second.body);
    assert.deepEqual(second.json(), first.json());
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 1);
    assert.equal(await ctx.files.size(s.uploadId), CV.length);
  });

  test('a duplicate’s 200 is replayed as a 200', async () => {
    const s = await setup();
    const email = `${unique('dup').toLowerCase()}@example.com`;
    await apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId, { email }));
    const again = await uploadPdf(ctx, s.api, CV);
    const key = unique('idem');
    const body = applicationBody(ctx.clock, again.uploadId, { email });
    const first = await apply(s.api, s.jobId, body, key);
    const replay = await apply(s.api, s.jobId, body, key);
    assert.equal(first.statusCode, 200);
    assert.equal(replay.statusCode, 200);
    assert.deepEqual(replay.json(), first.json());
  });

  test('the same key with a different body is 409 conflict, and writes nothing', async () => {
    const s = await setup();
    const key = unique('idem');
    const body = applicationBody(ctx.clock, s.uploadId);
    assert.equal((await apply(s.api, s.jobId, body, key)).statusCode, 201);
    const other = await uploadPdf(ctx, s.api, CV);
    const changed = { ...applicationBody(ctx.clock, other.uploadId), email: 'someone.else@example.com' };
    assertError(await apply(s.api, s.jobId, changed, key), 409, 'conflict');
    assertError(await apply(s.api, s.jobId, { ...body, name: 'Renamed' }, key), 409, 'conflict');
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 1);
    await assertUnspent(ctx, other.uploadId);
  });

  test('concurrent requests with one key make one application', async () => {
    const s = await setup();
    const key = unique('idem');
    const body = applicationBody(ctx.clock, s.uploadId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => apply(s.api, s.jobId, body, key)));
    const created = answers.filter((r) => r.statusCode === 201);
    assert.ok(created.length >= 1, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
    for (const res of answers) {
      if (res.statusCode === 201) assert.equal(res.json().applicationId, created[0]!.json().applicationId);
      else assertError(res, 409, 'conflict');
    }
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 1);
  });

  test('concurrent requests with different keys naming one upload: one application, the rest upload_invalid', async () => {
    const s = await setup();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => apply(s.api, s.jobId, applicationBody(ctx.clock, s.uploadId))),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [201, 400, 400, 400], answers.map((r) => r.body).join('\n'));
    for (const res of answers.filter((r) => r.statusCode === 400)) assertError(res, 400, 'upload_invalid');
    assert.equal((await applicationsOf(ctx, s.account.id)).length, 1);
    assert.equal(await ctx.files.size(s.uploadId), CV.length);
  });
});

describe('GET /v1/applications/{applicationId}', () => {
  let s: Intake & { jobId: string; uploadId: string };
  let applicationId: string;
  const PERSON = { name: 'Zoë Ngata-Hollis', email: '', phone: '+64 21 555 0199' };
  before(async () => {
    s = await setup();
    PERSON.email = `${unique('zoe').toLowerCase()}@example.com`;
    const res = await apply(
      s.api,
      s.jobId,
      applicationBody(ctx.clock, s.uploadId, { ...PERSON, coverNote: 'Kia ora' }),
    );
    assert.equal(res.statusCode, 201, res.body);
    applicationId = res.json().applicationId;
  });

  test('answers ApplicationStatus only: never the name, address, phone or CV', async () => {
    const res = await s.api.get(`/v1/applications/${applicationId}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      applicationId,
      jobId: s.jobId,
      candidateId: applicationId,
      status: 'received',
      cvStatus: 'processing',
      createdAt: ctx.clock.now().toISOString(),
    });
    for (const secret of [PERSON.name, PERSON.email, PERSON.phone, s.uploadId, 'Kia ora', 'consent']) {
      assert.ok(!res.body.includes(secret), `the body holds ${secret}`);
    }
  });

  test('claimedAt and reason appear when the application has them', async () => {
    const claimedAt = new Date(ctx.clock.now().getTime() + MINUTE);
    await ctx.handle.db
      .updateTable('applications')
      .set({ cv_status: 'claimed', claimed_at: claimedAt })
      .where('id', '=', applicationId)
      .execute();
    const claimed = (await s.api.get(`/v1/applications/${applicationId}`)).json();
    assert.equal(claimed.cvStatus, 'claimed');
    assert.equal(claimed.claimedAt, claimedAt.toISOString());
    await ctx.handle.db
      .updateTable('applications')
      .set({ status: 'withdrawn', cv_status: 'failed', claimed_at: null, reason: 'cv_unreadable' })
      .where('id', '=', applicationId)
      .execute();
    const withdrawn = (await s.api.get(`/v1/applications/${applicationId}`)).json();
    assert.equal(withdrawn.status, 'withdrawn');
    assert.equal(withdrawn.cvStatus, 'failed');
    assert.equal(withdrawn.reason, 'cv_unreadable');
    assert.equal(withdrawn.claimedAt, undefined);
  });

  test('another account’s application and unknown ids are 404; a malformed id is 400', async () => {
    const other = await intakeAccount(ctx.app);
    const foreign = assertError(await other.api.get(`/v1/applications/${applicationId}`), 404, 'not_found');
    const unknown = assertError(
      await s.api.get('/v1/applications/app_00000000000000000000000000'),
      404,
      'not_found',
    );
    assert.equal(foreign.message, unknown.message);
    assert.ok(!JSON.stringify(foreign).includes(PERSON.email));
    assertError(await s.api.get(`/v1/applications/${'a'.repeat(65)}`), 400, 'bad_request');
  });

  test('needs applications:write', async () => {
    const reader = await newKey(ctx.app, s.account.id, ['jobs:read']);
    assertError(
      await client(ctx.app, reader.secret).get(`/v1/applications/${applicationId}`),
      403,
      'forbidden',
    );
  });
});

describe('console: a job’s applications, people and suppressions', () => {
  test('the recruiter’s list shows name, email, phone, answers, cover note, consent receipt and status', async () => {
    const s = await setup();
    const email = `${unique('list').toLowerCase()}@example.com`;
    const consent = consentReceipt(ctx.clock, { locale: 'pt' });
    const answers = [{ question: 'Salary expectation?', answer: 'AUD 150k' }];
    const res = await apply(
      s.api,
      s.jobId,
      applicationBody(ctx.clock, s.uploadId, {
        email,
        phone: '0400 000 000',
        location: 'Lisboa',
        coverNote: 'Olá!',
        answers,
        consent,
      }),
    );
    const { applicationId } = res.json();
    const list = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/jobs/${s.jobId}/applications`);
    assert.equal(list.statusCode, 200, list.body);
    const { applications } = list.json();
    assert.equal(applications.length, 1);
    const seen = applications[0];
    assert.equal(seen.applicationId, applicationId);
    assert.equal(seen.candidateId, applicationId);
    assert.equal(seen.name, 'Marisol Quintero-Ávila');
    assert.equal(seen.email, email);
    assert.equal(seen.phone, '0400 000 000');
    assert.equal(seen.location, 'Lisboa');
    assert.equal(seen.coverNote, 'Olá!');
    assert.deepEqual(seen.answers, answers);
    assert.deepEqual(seen.consent, consent);
    const pt = (await s.api.get('/v1/consent-text?locale=pt')).json();
    assert.deepEqual(seen.consentText, pt);
    assert.equal(seen.status, 'received');
    assert.equal(seen.cvStatus, 'processing');
    assert.equal(seen.createdAt, ctx.clock.now().toISOString());
  });

  test('a job of another account, an unknown job, or no token is refused', async () => {
    const owner = await setup();
    const other = await intakeAccount(ctx.app);
    const theirs = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${other.account.id}/jobs/${owner.jobId}/applications`,
    );
    assertError(theirs, 404, 'not_found');
    const unknown = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${owner.account.id}/jobs/${MISSING_JOB}/applications`,
    );
    assertError(unknown, 404, 'not_found');
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/console/v1/accounts/${owner.account.id}/jobs/${owner.jobId}/applications`,
    });
    assertError(anonymous, 401, 'unauthorized');
  });

  test('people: 201 and stored; the same address again (any case) is 409; a bad email is 400', async () => {
    const email = `${unique('Seeker')}@Example.com`;
    const res = await consoleCall(ctx.app, 'POST', '/people', { email, name: 'Job Seeker' });
    assert.equal(res.statusCode, 201, res.body);
    const { person } = res.json();
    assert.match(person.id, /^per_/);
    assert.equal(person.name, 'Job Seeker');
    const row = await ctx.handle.db
      .selectFrom('people')
      .selectAll()
      .where('id', '=', person.id)
      .executeTakeFirst();
    assert.equal(row?.email_key, email.toLowerCase());
    assertError(
      await consoleCall(ctx.app, 'POST', '/people', { email: email.toUpperCase(), name: 'Again' }),
      409,
      'conflict',
    );
    for (const body of [
      { email: 'nobody', name: 'X' },
      { email: `${unique('p')}@example.com` },
      { name: 'X' },
    ]) {
      assertError(await consoleCall(ctx.app, 'POST', '/people', body), 400, 'bad_request');
    }
    const count = await ctx.handle.db
      .selectFrom('people')
      .select('id')
      .where('email_key', '=', email.toLowerCase())
      .execute();
    assert.equal(count.length, 1);
  });

  test('suppressions: 201, kept as a digest only; a bad email is 400', async () => {
    const email = `${unique('gone').toLowerCase()}@example.com`;
    const before = await ctx.handle.db.selectFrom('suppressions').selectAll().execute();
    const res = await consoleCall(ctx.app, 'POST', '/suppressions', { email });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().suppression.createdAt, ctx.clock.now().toISOString());
    const after = await ctx.handle.db.selectFrom('suppressions').selectAll().execute();
    assert.equal(after.length, before.length + 1);
    assert.ok(!JSON.stringify(after).includes(email), 'the address itself is not stored');
    for (const body of [{ email: 'not-an-email' }, {}, { email, reason: 'asked' }]) {
      assertError(await consoleCall(ctx.app, 'POST', '/suppressions', body), 400, 'bad_request');
    }
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/console/v1/suppressions',
      payload: { email },
    });
    assertError(anonymous, 401, 'unauthorized');
  });
});

describe('account isolation', () => {
  test('another account’s key cannot read an application, use an upload, or apply to a job', async () => {
    const owner = await setup();
    const created = await apply(owner.api, owner.jobId, applicationBody(ctx.clock, owner.uploadId));
    assert.equal(created.statusCode, 201, created.body);
    const { applicationId } = created.json();
    const ownerUpload = await uploadPdf(ctx, owner.api, CV);
    const intruder = await setup();
    const before = await applicationsOf(ctx, owner.account.id);

    const attempts: [string, () => Promise<LightMyRequestResponse>, number, string][] = [
      ['read the application', () => intruder.api.get(`/v1/applications/${applicationId}`), 404, 'not_found'],
      [
        'name the owner’s upload on its own job',
        () => apply(intruder.api, intruder.jobId, applicationBody(ctx.clock, ownerUpload.uploadId)),
        400,
        'upload_invalid',
      ],
      [
        'apply to the owner’s job with its own upload',
        () => apply(intruder.api, owner.jobId, applicationBody(ctx.clock, intruder.uploadId)),
        404,
        'not_found',
      ],
      [
        'apply to the owner’s job with the owner’s upload',
        () => apply(intruder.api, owner.jobId, applicationBody(ctx.clock, ownerUpload.uploadId)),
        404,
        'not_found',
      ],
    ];
    for (const [what, attempt, status, code] of attempts) {
      const res = await attempt();
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
      assert.equal(errorOf(res).code, code, what);
    }
    assert.deepEqual(await applicationsOf(ctx, owner.account.id), before);
    assert.equal((await applicationsOf(ctx, intruder.account.id)).length, 0);
    await assertUnspent(ctx, ownerUpload.uploadId);
    await assertUnspent(ctx, intruder.uploadId);
  });
});
