import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { openForm, send, textOf } from './apply-form-client.ts';
import { intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { applicationBody, pdfFixture, putUpload, uploadPdf, uploadRow } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { mailTo } from './support/mail.ts';

/**
 * Issue 25.2: the hosted apply form takes only uploads it issued itself, and the API only its own.
 * Issue 25.3: one email check for the API and the apply page; an address with display text or a
 * second recipient is refused by both.
 */

const ctx = useTestApp({
  clock: new ManualClock('2026-03-16T09:00:00.000Z'),
  applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
});

let ipSeq = 0;
function freshIp(): string {
  ipSeq += 1;
  return `203.0.113.${ipSeq + 20}`;
}

function person(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: 'Inès Oliveira-Núñez',
    email: `${unique('channel').toLowerCase()}@example.com`,
    ...overrides,
  };
}

/** A hosted-page upload slot (the page's script asks for it), with the file PUT. */
async function hostedUpload(job: { id: string; applyLink: string }) {
  const form = await openForm(ctx.app, job.applyLink);
  const bytes = pdfFixture('cv-2-pages.pdf');
  const slot = await ctx.app.inject({
    method: 'POST',
    url: `/apply/${job.id}/upload`,
    payload: { bytes: bytes.length, csrf: form.token },
    headers: { cookie: `apply_csrf=${form.nonce}` },
    remoteAddress: freshIp(),
  });
  assert.equal(slot.statusCode, 201, slot.body);
  const { uploadId, uploadUrl } = slot.json() as { uploadId: string; uploadUrl: string };
  const put = await putUpload(ctx.app, uploadUrl, bytes);
  assert.equal(put.statusCode, 200, put.body);
  return uploadId;
}

describe('25.2 an upload serves only the channel that issued it', () => {
  test('an uploadId from POST /v1/uploads is refused by the hosted apply form, and stays usable by the API', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Channel Clerk' });
    const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
    const form = await openForm(ctx.app, job.applyLink);
    const res = await send(ctx.app, form, { ...person(), uploadId: upload.uploadId }, { ip: freshIp() });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(textOf(res.body), /This field is required\./, 'the form asks for the CV again');
    const row = await uploadRow(ctx.handle, upload.uploadId);
    assert.equal(row?.used_at, null, 'the API upload was not spent');
    const api = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId),
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(api.statusCode, 201, api.body);
  });

  test('an uploadId from the hosted form is refused by the API (400 upload_invalid), and stays usable by the form', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Form Clerk' });
    const uploadId = await hostedUpload(job);
    const api = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, uploadId),
      {
        'idempotency-key': unique('idem'),
      },
    );
    assert.equal(api.statusCode, 400, api.body);
    assert.equal(api.json().error.code, 'upload_invalid');
    const candidate = await intake.api.post(
      '/v1/candidates',
      {
        name: 'Ana',
        email: `${unique('imp').toLowerCase()}@example.com`,
        cv: { uploadId },
        lawfulBasis: { attested: true },
      },
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(candidate.statusCode, 400, candidate.body);
    assert.equal(candidate.json().error.code, 'upload_invalid');

    const form = await openForm(ctx.app, job.applyLink);
    const res = await send(ctx.app, form, { ...person(), uploadId }, { ip: freshIp() });
    assert.equal(res.statusCode, 201, res.body);
  });
});

describe('25.3 one email check for the API and the apply page', () => {
  const HOSTILE = [
    'x<eve@evil.test>,y',
    'Eve <eve@evil.test>',
    'a@example.com,eve@evil.test',
    'a@b@evil.test',
  ];

  test('the apply page refuses an address with display text or a second recipient, with a field error', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Email Clerk' });
    for (const email of HOSTILE) {
      const form = await openForm(ctx.app, job.applyLink);
      const res = await send(ctx.app, form, person({ email }), {
        ip: freshIp(),
        file: { name: 'cv.pdf', bytes: pdfFixture('cv-2-pages.pdf') },
      });
      assert.equal(res.statusCode, 400, `${email}: ${res.statusCode}`);
      assert.match(textOf(res.body), /Enter an email address like name@example.com\./, email);
    }
    assert.deepEqual(await mailTo(ctx.app, 'eve@evil.test'), [], 'nothing goes to the smuggled address');
    const stored = await ctx.handle.db
      .selectFrom('applications')
      .select('email')
      .where('job_id', '=', job.id)
      .execute();
    assert.deepEqual(stored, [], 'no application was stored');
  });

  test('the intake service itself refuses them from the hosted page (400 naming email), before anything is spent', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Email Service Clerk' });
    for (const email of HOSTILE) {
      await assert.rejects(
        ctx.services.hostedApply.submit(intake.account.id, job.id, {
          name: 'Eve',
          email,
          locale: 'en',
          clientAddress: '203.0.113.200',
          socketAddress: '203.0.113.200',
          userAgent: 'test',
          source: 'job_page',
          uploadId: 'upl_none',
        }),
        (error: { code?: string; extra?: { field?: string } }) =>
          error.code === 'bad_request' && error.extra?.field === 'email',
      );
    }
  });

  test('the API refuses the same addresses with 400 naming email', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Email Api Clerk' });
    for (const email of HOSTILE) {
      const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
      const res = await intake.api.post(
        `/v1/jobs/${job.id}/applications`,
        applicationBody(ctx.clock, upload.uploadId, { email }),
        { 'idempotency-key': unique('idem') },
      );
      assert.equal(res.statusCode, 400, `${email}: ${res.body}`);
      assert.equal(res.json().error.code, 'bad_request');
    }
  });

  test('the apply page and the API take the same ordinary addresses, and count one person once', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Duplicate Clerk' });
    const email = `${unique('Twice').toLowerCase()}@example.com`;
    const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
    const api = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId, { email }),
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(api.statusCode, 201, api.body);
    const form = await openForm(ctx.app, job.applyLink);
    const res = await send(ctx.app, form, person({ email: `  ${email.toUpperCase()} ` }), {
      ip: freshIp(),
      file: { name: 'cv.pdf', bytes: pdfFixture('cv-2-pages.pdf') },
    });
    assert.equal(res.statusCode, 201, res.body);
    const rows = await ctx.handle.db
      .selectFrom('applications')
      .select('id')
      .where('job_id', '=', job.id)
      .execute();
    assert.equal(rows.length, 1, 'the page found the API application of the same address');
  });
});
