import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertNoTrace, dumpDatabase } from './support/dump.ts';
import { applicationBody, consentReceipt, cvPdf, uploadPdf } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, postForm } from './support/mail.ts';
import { type LocalS3, startS3 } from './support/s3.ts';

/**
 * Issue 30, "Done when", on the S3 blob store (s3rver on a local directory): after retention, an
 * erasure request and the candidate's own delete through the claim link, the bucket's files hold
 * none of those people's PDFs and the database none of their words; a claimed CV survives
 * retention, and a neighbour's CV and words stay.
 */

const DAY = 86_400_000;
let s3: LocalS3;
const ctx = useTestApp(async () => {
  s3 = await startS3();
  return {
    // Now, not a fixed day: s3rver checks the presigned URLs' expiry against its own clock.
    clock: new ManualClock(new Date()),
    stagedTtlSeconds: 365 * 86_400,
    env: s3.env,
  };
});
after(async () => {
  await s3?.close();
});

type Intake = Awaited<ReturnType<typeof intakeAccount>>;

function person(label: string) {
  return {
    name: `${label} ${unique('Okonkwo').replace(/[-\d]/g, '')} ${unique('s').slice(-6)}`,
    email: `${unique(label.toLowerCase())}@example.com`,
    phone: `+61 2 5551 ${1000 + Math.floor(Math.random() * 9000)}`,
    ip: `198.19.${100 + Math.floor(Math.random() * 100)}.${100 + Math.floor(Math.random() * 100)}`,
    userAgent: `Agent/${unique('ua')}`,
  };
}
type Person = ReturnType<typeof person>;

/** Applies with a PDF of the person's own (so the bucket can be searched for exactly it). */
async function apply(intake: Intake, jobId: string, who: Person) {
  const pdf = await cvPdf({ name: who.name, email: who.email, employer: 'Acme Freight', title: 'Planner' });
  const upload = await uploadPdf(ctx, intake.api, pdf);
  const body = applicationBody(ctx.clock, upload.uploadId, {
    name: who.name,
    email: who.email,
    phone: who.phone,
    consent: consentReceipt(ctx.clock, { ip: who.ip, userAgent: who.userAgent }),
  });
  const res = await intake.api.post(`/v1/jobs/${jobId}/applications`, body, {
    'idempotency-key': unique('idem'),
  });
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().applicationId as string, pdf };
}

const inBucket = (pdf: Buffer) => s3.objects().some((bytes) => bytes.includes(pdf.subarray(0, 4096)));
const traces = (who: Person) => ({
  name: who.name,
  email: who.email,
  phone: who.phone,
  'consent address': who.ip,
  'user agent': who.userAgent,
});

async function claimLink(who: Person): Promise<string> {
  const [message] = await mailTo(ctx.app, who.email);
  const [link] = claimLinksIn(message!.text);
  return linkPath(link!);
}

describe('erasure on the S3 blob store', () => {
  test('retention, an erasure request and the claim-link delete leave none of the PDFs in the bucket', async () => {
    const intake = await intakeAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${intake.account.id}`, {
      retention: { applicationDays: 10 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const closing = await createPublished(intake.api, { title: 'Night Planner' });
    const live = await createPublished(intake.api, { title: 'Day Planner' });
    const [retained, claimer, requester, deleter, neighbour] = [
      person('Retained'),
      person('Claimer'),
      person('Requester'),
      person('Deleter'),
      person('Neighbour'),
    ];
    const sent = {
      retained: await apply(intake, closing.id, retained),
      claimer: await apply(intake, closing.id, claimer),
      requester: await apply(intake, live.id, requester),
      deleter: await apply(intake, live.id, deleter),
      neighbour: await apply(intake, live.id, neighbour),
    };
    await drainAll(ctx.worker);
    for (const { pdf } of Object.values(sent))
      assert.ok(inBucket(pdf), 'precondition: each PDF is in the bucket');
    // The claimer keeps theirs; the deleter deletes theirs through the link.
    assert.equal((await postForm(ctx.app, `${await claimLink(claimer)}/claim`)).statusCode, 200);
    const deleted = await postForm(ctx.app, `${await claimLink(deleter)}/delete`);
    assert.ok([200, 303].includes(deleted.statusCode), `delete: ${deleted.statusCode} ${deleted.body}`);

    // Retention: ten days after the role closed.
    assert.equal((await intake.api.post(`/v1/jobs/${closing.id}/close`)).statusCode, 200);
    ctx.clock.advance(11 * DAY);
    const swept = await ctx.services.maintenance();
    assert.equal(swept.retentionErasedApplications, 2);
    // An erasure request.
    const erased = await consoleCall(ctx.app, 'POST', `/accounts/${intake.account.id}/people/erase`, {
      email: requester.email,
    });
    assert.equal(erased.statusCode, 200, erased.body);
    assert.equal(erased.json().receipt.files, 1);

    assert.ok(!inBucket(sent.retained.pdf), 'the retained person’s PDF is gone from the bucket');
    assert.ok(!inBucket(sent.requester.pdf), 'the requester’s PDF is gone from the bucket');
    assert.ok(!inBucket(sent.deleter.pdf), 'the deleter’s PDF is gone from the bucket');
    assert.ok(inBucket(sent.claimer.pdf), 'a claimed CV is the candidate’s: it stays');
    assert.ok(inBucket(sent.neighbour.pdf), 'the neighbour’s PDF stays');
    const dump = await dumpDatabase(ctx);
    assertNoTrace(dump, traces(retained));
    assertNoTrace(dump, traces(requester));
    assertNoTrace(dump, traces(deleter));
    assert.ok(dump.includes(neighbour.name) && dump.includes(neighbour.ip), 'the neighbour’s words stay');
  });
});
