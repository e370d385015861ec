import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { signedIn } from './console-web-client.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertNoTrace, dumpDatabase } from './support/dump.ts';
import { applyTo, consentReceipt, importCandidate } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, postForm } from './support/mail.ts';

/**
 * Issue 30 (extensions.md §6): retention, erasure requests, access exports and Art. 14, all through
 * the one erasure routine. "Erased" is checked the hard way: a dump of every table of the database
 * and the object store no longer hold the person, while another person's data stays.
 */

const DAY = 86_400_000;
const ctx = useTestApp({
  clock: new ManualClock('2026-03-16T09:00:00.000Z'),
  // The staged CV's own expiry must not be what erases here.
  stagedTtlSeconds: 365 * 86_400,
});

type Intake = Awaited<ReturnType<typeof intakeAccount>>;

/** A person no other test or run uses: every value is looked for in the whole database. */
function person(label: string) {
  const octet = () => 100 + Math.floor(Math.random() * 100);
  return {
    name: `${label} ${unique('Vandermeer').replace(/[-\d]/g, '')} ${unique('x').slice(-6)}`,
    email: `${unique(label.toLowerCase())}@example.com`,
    phone: `+61 2 5550 ${1000 + Math.floor(Math.random() * 9000)}`,
    ip: `198.18.${octet()}.${octet()}`,
    userAgent: `Agent/${unique('ua')}`,
    answer: unique('my-answer'),
  };
}
type Person = ReturnType<typeof person>;

async function apply(intake: Intake, jobId: string, who: Person, email = who.email) {
  const { candidateId } = await applyTo(ctx, intake.api, jobId, {
    name: who.name,
    email,
    phone: who.phone,
    answers: [{ question: 'Why us?', answer: who.answer }],
    consent: consentReceipt(ctx.clock, { ip: who.ip, userAgent: who.userAgent }),
  });
  return candidateId;
}

const traces = (who: Person) => ({
  name: who.name,
  phone: who.phone,
  answer: who.answer,
  'consent address': who.ip,
  'user agent': who.userAgent,
});

async function application(id: string) {
  return ctx.handle.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function statusRead(intake: Intake, id: string) {
  const res = await intake.api.get(`/v1/applications/${id}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { cvStatus: string; erasedAt?: string };
}

async function eventsOf(accountId: string, type: string): Promise<Record<string, unknown>[]> {
  const rows = await ctx.handle.db
    .selectFrom('events')
    .select('data')
    .where('account_id', '=', accountId)
    .where('type', '=', type)
    .execute();
  return rows.map((r) => r.data);
}

async function setRetention(accountId: string, retention: Record<string, number>) {
  const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${accountId}`, { retention });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().account;
}

describe('retention', () => {
  test('applications are erased applicationDays after their job closed, never while it is live; a claimed CV stays the candidate’s', async () => {
    const intake = await intakeAccount(ctx.app);
    const account = await setRetention(intake.account.id, { applicationDays: 10 });
    assert.deepEqual(account.retention, { applicationDays: 10, candidateDays: 180 });
    const closing = await createPublished(intake.api, { title: 'Retention Clerk' });
    const live = await createPublished(intake.api, { title: 'Live Role' });
    const [gone, claimer, stays] = [person('Gone'), person('Claimer'), person('Stays')];
    const goneId = await apply(intake, closing.id, gone);
    const claimerId = await apply(intake, closing.id, claimer);
    const staysId = await apply(intake, live.id, stays);
    await drainAll(ctx.worker);
    const [message] = await mailTo(ctx.app, claimer.email);
    const [link] = claimLinksIn(message!.text);
    assert.equal((await postForm(ctx.app, `${linkPath(link!)}/claim`)).statusCode, 200);
    const goneFile = (await application(goneId)).blob_key!;
    const claimedFile = (await application(claimerId)).blob_key!;
    assert.ok((await ctx.files.size(goneFile)) !== null, 'precondition: the file is held');

    assert.equal((await intake.api.post(`/v1/jobs/${closing.id}/close`)).statusCode, 200);
    ctx.clock.advance(9 * DAY);
    const early = await ctx.services.maintenance();
    assert.equal(early.retentionErasedApplications, 0, 'nine days after the close: nothing is due');

    ctx.clock.advance(2 * DAY);
    const swept = await ctx.services.maintenance();
    assert.equal(swept.retentionErasedApplications, 2);

    const dump = await dumpDatabase(ctx);
    assertNoTrace(dump, { ...traces(gone), email: gone.email });
    assertNoTrace(dump, { ...traces(claimer), email: claimer.email });
    assert.ok(dump.includes(stays.name) && dump.includes(stays.ip), 'the live role’s applicant is untouched');
    assert.equal(await ctx.files.size(goneFile), null, 'the unclaimed CV file is gone');
    assert.ok((await ctx.files.size(claimedFile)) !== null, 'the claimed CV file is the candidate’s');

    const goneRead = await statusRead(intake, goneId);
    assert.equal(goneRead.cvStatus, 'deleted');
    assert.equal(goneRead.erasedAt, ctx.clock.now().toISOString());
    const claimedRead = await statusRead(intake, claimerId);
    assert.equal(claimedRead.cvStatus, 'claimed');
    assert.ok(claimedRead.erasedAt);
    assert.equal((await statusRead(intake, staysId)).erasedAt, undefined);
    const erased = await eventsOf(intake.account.id, 'application.erased');
    assert.deepEqual(erased.map((e) => e.applicationId).sort(), [goneId, claimerId].sort());
    assert.ok(erased.every((e) => e.jobId === closing.id && Object.keys(e).length === 2));

    // The claimed CV is still the candidate's: their link shows it.
    const theirs = await ctx.app.inject({ method: 'GET', url: linkPath(link!) });
    assert.equal(theirs.statusCode, 200, theirs.body);
    assert.ok(theirs.body.includes('<section class="cv">') && !/>null</.test(theirs.body), theirs.body);

    // Erased once: the next sweep finds nothing.
    assert.equal((await ctx.services.maintenance()).retentionErasedApplications, 0);
  });

  test('retention 0 erases at the next sweep after the close; the days are bounded 0–1095', async () => {
    const intake = await intakeAccount(ctx.app);
    await setRetention(intake.account.id, { applicationDays: 0 });
    const job = await createPublished(intake.api, { title: 'Zero Days' });
    const who = person('Zero');
    const id = await apply(intake, job.id, who);
    assert.equal((await ctx.services.privacy.sweepRetention()).applications, 0, 'live: never');
    assert.equal((await intake.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    assert.equal((await ctx.services.privacy.sweepRetention()).applications, 1);
    assert.ok((await application(id)).erased_at);

    for (const bad of [
      { applicationDays: 1096 },
      { candidateDays: -1 },
      { applicationDays: 1.5 },
      { other: 3 },
    ]) {
      const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${intake.account.id}`, { retention: bad });
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
      assert.equal(res.json().error.code, 'bad_request');
    }
  });

  test('Art. 14: an import nobody was told about goes after 30 days unless the account records it informed them', async () => {
    const intake = await intakeAccount(ctx.app);
    const untold = await importCandidate(ctx, intake.api, {
      sendClaimEmail: false,
      name: person('Untold').name,
    });
    const told = await importCandidate(ctx, intake.api, { sendClaimEmail: false });
    const mailed = await importCandidate(ctx, intake.api);
    await drainAll(ctx.worker);
    const informed = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${intake.account.id}/candidates/${told.candidateId}/informed`,
    );
    assert.equal(informed.statusCode, 200, informed.body);
    assert.equal(informed.json().informedAt, ctx.clock.now().toISOString());

    ctx.clock.advance(31 * DAY);
    assert.equal((await ctx.services.privacy.sweepRetention()).candidates, 1);
    const rows = await ctx.handle.db
      .selectFrom('candidates')
      .select(['id', 'erased_at', 'name', 'email'])
      .where('id', 'in', [untold.candidateId, told.candidateId, mailed.candidateId])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    assert.ok(byId.get(untold.candidateId)!.erased_at && byId.get(untold.candidateId)!.name === null);
    assert.equal(byId.get(told.candidateId)!.erased_at, null);
    assert.equal(byId.get(mailed.candidateId)!.erased_at, null);
    assert.deepEqual(await eventsOf(intake.account.id, 'candidate.erased'), [
      { candidateId: untold.candidateId },
    ]);

    ctx.clock.advance(150 * DAY);
    assert.equal(
      (await ctx.services.privacy.sweepRetention()).candidates,
      2,
      'candidateDays (180) for the rest',
    );

    const other = await intakeAccount(ctx.app);
    const foreign = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${other.account.id}/candidates/${mailed.candidateId}/informed`,
    );
    assert.equal(foreign.statusCode, 404, 'another account’s candidate');
  });
});

describe('access and erasure requests', () => {
  async function heldPerson() {
    const intake = await intakeAccount(ctx.app);
    const [first, second] = [
      await createPublished(intake.api, { title: 'Picker' }),
      await createPublished(intake.api, { title: 'Packer' }),
    ];
    const who = person('Requester');
    // Imported first: an import of an address whose application holds a CV is already_imported.
    const imported = await importCandidate(ctx, intake.api, {
      email: who.email.toUpperCase(),
      name: who.name,
    });
    assert.equal(imported.status, 'queued');
    const applications = [await apply(intake, first.id, who), await apply(intake, second.id, who)];
    const neighbour = person('Neighbour');
    const neighbourId = await apply(intake, first.id, neighbour);
    await drainAll(ctx.worker);
    return { intake, who, applications, imported, neighbour, neighbourId };
  }

  test('the export holds both applications and the import, with their words, and nothing of anyone else; audited without the address', async () => {
    const { intake, who, applications, imported, neighbour } = await heldPerson();
    const res = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${intake.account.id}/people/export?email=${encodeURIComponent(who.email)}`,
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const doc = res.json();
    assert.deepEqual(doc.applications.map((a: { id: string }) => a.id).sort(), [...applications].sort());
    assert.deepEqual(doc.applications.map((a: { jobTitle: string }) => a.jobTitle).sort(), [
      'Packer',
      'Picker',
    ]);
    assert.equal(doc.applications[0].phone, who.phone);
    assert.deepEqual(doc.applications[0].answers, [{ question: 'Why us?', answer: who.answer }]);
    assert.equal(doc.applications[0].consent.receipt.ip, who.ip);
    assert.ok(doc.applications[0].consent.text.length > 20, 'the words the person accepted');
    assert.deepEqual(
      doc.imports.map((c: { id: string }) => c.id),
      [imported.candidateId],
    );
    assert.ok(doc.virtualCvs.length >= 2, 'the virtual CVs the account holds');
    assert.ok(doc.events.some((e: { type: string }) => e.type === 'application.received'));
    const text = JSON.stringify(doc);
    assert.ok(!text.includes(neighbour.name) && !text.includes(neighbour.email), 'nothing of the neighbour');

    const audit = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}/audit`);
    const entry = audit.json().entries.find((e: { action: string }) => e.action === 'people.exported');
    assert.ok(entry, audit.body);
    assert.match(entry.detail.addressHash, /^[0-9a-f]{64}$/);
    assert.ok(!audit.body.toLowerCase().includes(who.email.toLowerCase()), 'the address is not in the trail');
  });

  test('an erasure request erases every application and import of the address at once, keeps a receipt without it, and later imports are suppressed', async () => {
    const { intake, who, applications, imported, neighbour, neighbourId } = await heldPerson();
    // The same address in another account is that account's business.
    const elsewhere = await intakeAccount(ctx.app);
    const elsewhereJob = await createPublished(elsewhere.api, { title: 'Elsewhere' });
    const elsewhereId = await apply(elsewhere, elsewhereJob.id, person('Elsewhere'), who.email);
    const files = await Promise.all(applications.map(async (id) => (await application(id)).blob_key!));

    const res = await consoleCall(ctx.app, 'POST', `/accounts/${intake.account.id}/people/erase`, {
      email: ` ${who.email.toUpperCase()} `,
    });
    assert.equal(res.statusCode, 200, res.body);
    const { receipt } = res.json();
    assert.equal(receipt.applications, 2);
    assert.equal(receipt.candidates, 1);
    assert.equal(receipt.files, 3, 'two application CVs and the import’s');
    assert.equal(receipt.erasedAt, ctx.clock.now().toISOString());

    assertNoTrace(await dumpDatabase(ctx), traces(who));
    for (const key of files) assert.equal(await ctx.files.size(key), null, 'the CV files are gone');
    for (const id of applications) assert.ok((await statusRead(intake, id)).erasedAt);
    assert.equal((await application(neighbourId)).name, neighbour.name, 'the neighbour is untouched');
    assert.equal(
      (await application(elsewhereId)).email,
      who.email,
      'the other account keeps its application',
    );
    assert.deepEqual(await eventsOf(intake.account.id, 'candidate.erased'), [
      { candidateId: imported.candidateId },
    ]);

    const listed = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}/people/erasures`);
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(listed.json().receipts, [receipt]);
    assert.equal(listed.json().nextCursor, null);
    const trail = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}/audit`);
    assert.ok(trail.json().entries.some((e: { action: string }) => e.action === 'people.erased'));
    const stored = await ctx.handle.db
      .selectFrom('erasure_receipts')
      .selectAll()
      .where('id', '=', receipt.id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(who.email.split('@')[0]!), 'the receipt holds no address');
    assert.ok(!trail.body.toLowerCase().includes(who.email.toLowerCase()));

    const again = await importCandidate(ctx, intake.api, { email: who.email });
    assert.equal(again.status, 'suppressed', 'a later import of the address, in this account');
    const there = await importCandidate(ctx, elsewhere.api, { email: who.email });
    assert.notEqual(there.status, 'suppressed', 'another account is not bound by this request');

    // Nothing left: a second request erases nothing and says so.
    const second = await consoleCall(ctx.app, 'POST', `/accounts/${intake.account.id}/people/erase`, {
      email: who.email,
    });
    assert.equal(second.json().receipt.applications, 0);
  });

  test('bad addresses are 400 naming the field, an unknown account 404', async () => {
    const intake = await intakeAccount(ctx.app);
    for (const email of ['', 'no-at-sign', 'x'.repeat(300)]) {
      const erase = await consoleCall(ctx.app, 'POST', `/accounts/${intake.account.id}/people/erase`, {
        email,
      });
      assert.equal(erase.statusCode, 400, erase.body);
      assert.equal(erase.json().error.code, 'bad_request');
    }
    const exported = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}/people/export`);
    assert.equal(exported.statusCode, 400, exported.body);
    const unknown = await consoleCall(ctx.app, 'POST', '/accounts/acc_nope/people/erase', {
      email: 'a@b.example',
    });
    assert.equal(unknown.statusCode, 404, unknown.body);
    const listUnknown = await consoleCall(ctx.app, 'GET', '/accounts/acc_nope/people/erasures');
    assert.equal(listUnknown.statusCode, 404);
  });
});

describe('the Data protection page (admins)', () => {
  test('an admin sets the retention, downloads a person’s data and erases it; a recruiter cannot; nothing of the address in a URL or the trail', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Console Clerk' });
    const who = person('Console');
    const id = await apply(intake, job.id, who);
    await drainAll(ctx.worker);
    const { web } = await signedIn(ctx.app, intake.account.id, 'admin');

    const shown = await web.get('/console/privacy');
    assert.equal(shown.statusCode, 200, shown.body);
    assert.match(shown.body, /value="180"/);
    assert.ok(shown.body.includes('No erasure requests yet.'));

    const saved = await web.post('/console/privacy/retention', {
      applicationDays: '30',
      candidateDays: '60',
    });
    assert.equal(saved.statusCode, 303, saved.body);
    const account = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}`);
    assert.deepEqual(account.json().account.retention, { applicationDays: 30, candidateDays: 60 });
    await web.get('/console/privacy');
    const refused = await web.post('/console/privacy/retention', {
      applicationDays: '2000',
      candidateDays: '1',
    });
    assert.equal(refused.statusCode, 303);
    assert.ok((await web.get('/console/privacy')).body.includes('from 0 to 1,095'), 'told why');

    const exported = await web.post('/console/privacy/export', { email: who.email });
    assert.equal(exported.statusCode, 200, exported.body);
    assert.match(String(exported.headers['content-disposition']), /^attachment; filename="data-export-/);
    assert.equal(exported.json().applications[0].id, id);

    await web.get('/console/privacy');
    const unconfirmed = await web.post('/console/privacy/erase', { email: who.email });
    assert.equal(unconfirmed.statusCode, 303);
    assert.equal((await application(id)).erased_at, null, 'not without the confirmation');
    await web.get('/console/privacy');
    const erased = await web.post('/console/privacy/erase', { email: who.email, confirm: 'yes' });
    assert.equal(erased.statusCode, 303, erased.body);
    assert.ok((await application(id)).erased_at);
    const after = await web.get('/console/privacy');
    assert.ok(after.body.includes('Erased: 1 application'), 'the flash gives the receipt');
    assert.ok(after.body.includes('<table class="receipts">'), 'the receipts table');
    assert.ok(!after.body.toLowerCase().includes(who.email.toLowerCase()), 'no address on the page');

    const trail = await web.get('/console/activity');
    assert.ok(trail.body.includes('erased everything held about a person'), 'in Activity');
    assert.ok(trail.body.includes('downloaded everything held about a person'));
    assert.ok(!trail.body.toLowerCase().includes(who.email.toLowerCase()));

    const recruiter = await signedIn(ctx.app, intake.account.id, 'recruiter');
    assert.equal((await recruiter.web.get('/console/privacy')).statusCode, 403);
    await recruiter.web.get('/console/jobs');
    const forged = await recruiter.web.post('/console/privacy/export', { email: who.email });
    assert.equal(forged.statusCode, 403, 'a forged post by a role without the right');
  });
});
