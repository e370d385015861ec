import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { openForm, send } from './apply-form-client.ts';
import { intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertNoTrace, dumpDatabase } from './support/dump.ts';
import { applicationBody, pdfFixture, uploadPdf, uploadRow } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, postForm } from './support/mail.ts';

/**
 * Issue 25.1: an erasure leaves no trace of the person anywhere in the database: not the consent
 * receipt's address, not the socket address kept beside it, not the upload's file name or client
 * address bucket. Used uploads are swept once past their lifetime.
 */

const TTL_SECONDS = 3_600;
const ctx = useTestApp({
  clock: new ManualClock('2026-03-16T09:00:00.000Z'),
  applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
  stagedTtlSeconds: TTL_SECONDS,
});

/** A client address no other test or run uses (it is looked for in the whole database, which on
 * PostgreSQL outlives a run): three-digit octets of the benchmarking range, so none is part of another. */
function freshIp(): string {
  const octet = () => 100 + Math.floor(Math.random() * 100);
  return `198.18.${octet()}.${octet()}`;
}

/** Applies through the hosted form (multipart, with its file), then lets the CV be built and mailed. */
async function hostedApplication(fileName: string) {
  const intake = await intakeAccount(ctx.app);
  const job = await createPublished(intake.api, { title: 'Erasure Clerk' });
  const ip = freshIp();
  const person = {
    name: `Quillon ${unique('Vasquez-Ortiz')}`,
    email: `${unique('erasable').toLowerCase()}@example.com`,
    phone: `+61 2 5550 ${1000 + Math.floor(Math.random() * 9000)} ${1000 + Math.floor(Math.random() * 9000)}`,
  };
  const form = await openForm(ctx.app, job.applyLink);
  const res = await send(ctx.app, form, person, {
    ip,
    file: { name: fileName, bytes: pdfFixture('cv-2-pages.pdf') },
  });
  assert.equal(res.statusCode, 201, res.body);
  await drainAll(ctx.worker);
  const application = await ctx.handle.db
    .selectFrom('applications')
    .selectAll()
    .where('job_id', '=', job.id)
    .executeTakeFirstOrThrow();
  assert.equal(application.cv_status, 'staged');
  assert.equal(application.consent_socket_address, ip, 'precondition: the socket address was kept');
  const traces = {
    name: person.name,
    email: person.email,
    phone: person.phone,
    'client address': ip,
    'file name': fileName,
  };
  return { intake, job, application, person, ip, traces };
}

describe('25.1 erasure leaves no trace', () => {
  test('a delete through the claim link erases name, email, phone, consent IP, socket address and file name everywhere', async () => {
    const fileName = `${unique('Quillon-CV')}.pdf`;
    const applied = await hostedApplication(fileName);
    const dumpBefore = await dumpDatabase(ctx);
    for (const value of [applied.ip, applied.person.name, applied.person.phone])
      assert.ok(dumpBefore.includes(value), `precondition: the dump finds ${value}`);

    const [message] = await mailTo(ctx.app, applied.person.email);
    const [link] = claimLinksIn(message!.text);
    ctx.clock.advance(1_000);
    const deleted = await postForm(ctx.app, `${linkPath(link!)}/delete`);
    assert.equal(deleted.statusCode, 200, deleted.body);

    assertNoTrace(await dumpDatabase(ctx), applied.traces);
  });

  test('the staged CV expiring unclaimed erases the same', async () => {
    const fileName = `${unique('Expiring-CV')}.pdf`;
    const applied = await hostedApplication(fileName);
    ctx.clock.advance(TTL_SECONDS * 1000 + 1_000);
    await ctx.services.cv.expireStaged();
    const row = await ctx.handle.db
      .selectFrom('applications')
      .select('cv_status')
      .where('id', '=', applied.application.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.cv_status, 'deleted');
    assertNoTrace(await dumpDatabase(ctx), applied.traces);
  });

  test('a used upload keeps neither file name nor client address, and is swept after its lifetime', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Sweep Clerk' });
    const fileName = `${unique('Swept-CV')}.pdf`;
    const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'), { fileName });
    const res = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId),
      {
        'idempotency-key': unique('idem'),
      },
    );
    assert.equal(res.statusCode, 201, res.body);
    const used = await uploadRow(ctx.handle, upload.uploadId);
    assert.ok(used?.used_at, 'the upload was spent');
    assert.equal(used.file_name, null, 'the file name goes when the upload is used');
    assert.equal(used.client_bucket, null);

    // Hosted: its client address bucket goes too.
    const hosted = await hostedApplication(`${unique('Hosted-CV')}.pdf`);
    const hostedUpload = await uploadRow(ctx.handle, hosted.application.blob_key!);
    assert.equal(hostedUpload?.client_bucket, null, 'the client address goes when the upload is used');
    assert.equal(hostedUpload?.file_name, null);

    ctx.clock.advance(60 * 60_000 + 1_000);
    await ctx.services.uploads.sweep();
    assert.equal(
      await uploadRow(ctx.handle, upload.uploadId),
      undefined,
      'a used upload is swept after its hour',
    );
    assert.equal(await uploadRow(ctx.handle, hosted.application.blob_key!), undefined);
  });
});
