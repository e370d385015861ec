import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { rejectionMessage } from '../src/pdf/cv-check.ts';
import { client, consoleCall, intakeAccount, newAccount, newKey, unique } from './support/accounts.ts';
import { CV_LIMITS, startApp, type TestContext, useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applyTo, candidateBody, pdfFixture, uploadPdf, uploadRow } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { MINUTE } from './support/time.ts';

/**
 * POST /v1/candidates: every import outcome decided in the call (queued, suppressed,
 * existing_account, already_imported, rejected), cv_rejected, attestation, the daily import
 * budget, and suppressing an address that was already imported.
 */

const CV = pdfFixture('cv-2-pages.pdf');
// A one-page lunch menu printed by Chromium: a readable PDF with a text layer that is not a CV.
const MENU = pdfFixture('not-a-cv-menu.pdf');

const ctx = useTestApp();

type Api = ReturnType<typeof client>;

function importCandidate(api: Api, body: Record<string, unknown>, key: string | null = unique('idem')) {
  return api.post('/v1/candidates', body, key === null ? {} : { 'idempotency-key': key });
}

const address = (prefix = 'person') => `${unique(prefix).toLowerCase()}@example.com`;

async function candidatesOf(c: TestContext, accountId: string) {
  return c.handle.db
    .selectFrom('candidates')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

async function candidateRow(c: TestContext, id: string) {
  return c.handle.db.selectFrom('candidates').selectAll().where('id', '=', id).executeTakeFirst();
}

async function assertUnspent(c: TestContext, uploadId: string, bytes = CV.length) {
  assert.equal((await uploadRow(c.handle, uploadId))?.used_at, null, 'the upload was not spent');
  assert.equal(await c.files.size(uploadId), bytes, 'its file is still stored');
}

/** The upload was spent and its file erased. */
async function assertErased(c: TestContext, uploadId: string) {
  assert.ok((await uploadRow(c.handle, uploadId))?.used_at, 'the upload was spent');
  assert.equal(await c.files.size(uploadId), null, 'its file was erased');
}

describe('import outcomes', () => {
  test('queued: a new address with a CV; the file is kept for the virtual CV', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const { uploadId } = await uploadPdf(ctx, api, CV);
    const email = address('Queued');
    const lawfulBasis = { attested: true, basis: 'legitimate_interest', source: 'talent pool 2025' };
    const res = await importCandidate(
      api,
      candidateBody(uploadId, { email, name: 'Ana Souza', lawfulBasis }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.match(created.candidateId, /^cand_/);
    assert.deepEqual(created, { candidateId: created.candidateId, status: 'queued', cvStatus: 'processing' });
    const rows = await candidatesOf(ctx, account.id);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.id, created.candidateId);
    assert.equal(row.outcome, 'queued');
    assert.equal(row.cv_status, 'processing');
    assert.equal(row.name, 'Ana Souza');
    assert.equal(row.email, email);
    assert.equal(row.email_key, email.toLowerCase());
    assert.deepEqual(row.lawful_basis, lawfulBasis);
    assert.equal(row.blob_key, uploadId);
    assert.equal(row.rejection, null);
    // Defaults: the claim email is sent, in en.
    assert.equal(row.send_claim_email, true);
    assert.equal(row.locale, 'en');
    assert.ok((await uploadRow(ctx.handle, uploadId))?.used_at);
    assert.equal(await ctx.files.size(uploadId), CV.length);
  });

  test('sendClaimEmail and locale are stored as sent', async () => {
    const { api } = await intakeAccount(ctx.app);
    for (const [sendClaimEmail, locale] of [
      [false, 'pt'],
      [true, 'fr'],
      [false, 'es'],
    ] as const) {
      const { uploadId } = await uploadPdf(ctx, api, CV);
      const res = await importCandidate(api, candidateBody(uploadId, { sendClaimEmail, locale }));
      assert.equal(res.statusCode, 201, res.body);
      const row = await candidateRow(ctx, res.json().candidateId);
      assert.equal(row?.send_claim_email, sendClaimEmail);
      assert.equal(row?.locale, locale);
    }
    const { uploadId } = await uploadPdf(ctx, api, CV);
    assertError(await importCandidate(api, candidateBody(uploadId, { locale: 'de' })), 400, 'bad_request');
    assertError(
      await importCandidate(api, candidateBody(uploadId, { sendClaimEmail: 'no' })),
      400,
      'bad_request',
    );
    await assertUnspent(ctx, uploadId);
  });

  test('suppressed: nothing of the person is stored and the file is erased', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const email = address('Suppressed');
    const suppressed = await consoleCall(ctx.app, 'POST', '/suppressions', { email: email.toUpperCase() });
    assert.equal(suppressed.statusCode, 201, suppressed.body);
    const { uploadId } = await uploadPdf(ctx, api, CV);
    const res = await importCandidate(api, candidateBody(uploadId, { email, name: 'Do Not Keep' }));
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(created, { candidateId: created.candidateId, status: 'suppressed', cvStatus: 'none' });
    const row = await candidateRow(ctx, created.candidateId);
    assert.equal(row?.outcome, 'suppressed');
    assert.equal(row?.name, null);
    assert.equal(row?.email, null);
    assert.equal(row?.email_key, null);
    assert.equal(row?.lawful_basis, null);
    assert.equal(row?.blob_key, null);
    assert.ok(!JSON.stringify(await candidatesOf(ctx, account.id)).includes('Do Not Keep'));
    assert.ok(
      !JSON.stringify(await candidatesOf(ctx, account.id))
        .toLowerCase()
        .includes(email),
    );
    await assertErased(ctx, uploadId);
  });

  test('existing_account: a job seeker with an account; nothing is built and the file is erased', async () => {
    const { api } = await intakeAccount(ctx.app);
    const email = address('Seeker');
    const person = await consoleCall(ctx.app, 'POST', '/people', { email, name: 'Jo Seeker' });
    assert.equal(person.statusCode, 201, person.body);
    const { uploadId } = await uploadPdf(ctx, api, CV);
    const res = await importCandidate(api, candidateBody(uploadId, { email: email.toUpperCase() }));
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(created, {
      candidateId: created.candidateId,
      status: 'existing_account',
      cvStatus: 'none',
    });
    const row = await candidateRow(ctx, created.candidateId);
    assert.equal(row?.outcome, 'existing_account');
    assert.equal(row?.cv_status, 'none');
    assert.equal(row?.blob_key, null);
    assert.equal(row?.email_key, email);
    await assertErased(ctx, uploadId);
  });

  test('already_imported: the same address in other case answers the first candidateId; the new file is erased', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const email = address('Twice');
    const first = await uploadPdf(ctx, api, CV);
    const created = await importCandidate(api, candidateBody(first.uploadId, { email }));
    assert.equal(created.statusCode, 201, created.body);
    const { candidateId } = created.json();
    const second = await uploadPdf(ctx, api, CV);
    const res = await importCandidate(
      api,
      candidateBody(second.uploadId, { email: email.toUpperCase(), name: 'Other' }),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), { candidateId, status: 'already_imported', cvStatus: 'none' });
    const rows = await candidatesOf(ctx, account.id);
    assert.equal(rows.length, 1, 'no second row');
    assert.equal(rows[0]!.name, 'Ana Beatriz Souza', 'the first import is unchanged');
    assert.equal(await ctx.files.size(first.uploadId), CV.length, 'the first file is kept');
    await assertErased(ctx, second.uploadId);

    // One import per address per account: another account imports the same person afresh.
    const other = await intakeAccount(ctx.app);
    const theirs = await uploadPdf(ctx, other.api, CV);
    const elsewhere = await importCandidate(other.api, candidateBody(theirs.uploadId, { email }));
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    assert.equal(elsewhere.json().status, 'queued');
    assert.notEqual(elsewhere.json().candidateId, candidateId);
  });

  test('already_imported: an address that applied to one of the account’s roles; no second CV, no second mail', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const job = await createPublished(api, { title: 'Data Engineer' });
    const email = address('Applied');
    const applied = await applyTo(ctx, api, job.id, { email });
    const upload = await uploadPdf(ctx, api, CV);
    const res = await importCandidate(api, candidateBody(upload.uploadId, { email: email.toUpperCase() }));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), {
      candidateId: applied.candidateId,
      status: 'already_imported',
      cvStatus: 'none',
    });
    assert.equal(
      (await candidatesOf(ctx, account.id)).length,
      0,
      'no pool row, so no second build or claim mail',
    );
    await assertErased(ctx, upload.uploadId);

    // Another account holds nothing for the address: its import is queued.
    const other = await intakeAccount(ctx.app);
    const theirs = await uploadPdf(ctx, other.api, CV);
    const elsewhere = await importCandidate(other.api, candidateBody(theirs.uploadId, { email }));
    assert.equal(elsewhere.json().status, 'queued', elsewhere.body);
  });

  test('rejected carries detail and fix like cv_rejected, in the import’s locale', async () => {
    const { api } = await intakeAccount(ctx.app);
    const menu = await uploadPdf(ctx, api, MENU);
    const res = await importCandidate(
      api,
      candidateBody(menu.uploadId, { email: address('Menu'), locale: 'fr' }),
    );
    assert.equal(res.json().status, 'rejected', res.body);
    const { rejection } = res.json();
    assert.deepEqual(Object.keys(rejection).sort(), ['detail', 'fix', 'reason']);
    assert.match(rejection.detail, /n'est pas un CV/);
    assert.match(rejection.fix, /^Envoyez le CV/);
  });

  test('rejected: a readable PDF that is not a CV; nothing personal kept, the address can be imported again', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const email = address('Menu');
    const menu = await uploadPdf(ctx, api, MENU);
    const res = await importCandidate(api, candidateBody(menu.uploadId, { email, name: 'Chef' }));
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.equal(created.status, 'rejected');
    assert.equal(created.cvStatus, 'none');
    assert.equal(created.rejection.reason, 'not_a_cv');
    assert.ok(typeof created.rejection.detail === 'string' && created.rejection.detail.length > 20);
    assert.ok(typeof created.rejection.fix === 'string' && created.rejection.fix.length > 20);
    assert.deepEqual(Object.keys(created).sort(), ['candidateId', 'cvStatus', 'rejection', 'status']);
    const row = await candidateRow(ctx, created.candidateId);
    assert.equal(row?.outcome, 'rejected');
    assert.equal(row?.name, null);
    assert.equal(row?.email, null);
    assert.equal(row?.email_key, null);
    assert.deepEqual(row?.rejection, created.rejection);
    await assertErased(ctx, menu.uploadId);

    const cv = await uploadPdf(ctx, api, CV);
    const again = await importCandidate(api, candidateBody(cv.uploadId, { email }));
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().status, 'queued');
    assert.equal((await candidatesOf(ctx, account.id)).length, 2);
  });

  test('an existing account wins over a file that is not a CV, and suppression over an existing account', async () => {
    const { api } = await intakeAccount(ctx.app);
    const seeker = address('SeekerMenu');
    await consoleCall(ctx.app, 'POST', '/people', { email: seeker, name: 'Seeker' });
    const menu = await uploadPdf(ctx, api, MENU);
    const res = await importCandidate(api, candidateBody(menu.uploadId, { email: seeker }));
    assert.equal(res.json().status, 'existing_account', res.body);

    const both = address('Both');
    await consoleCall(ctx.app, 'POST', '/people', { email: both, name: 'Both' });
    await consoleCall(ctx.app, 'POST', '/suppressions', { email: both });
    const cv = await uploadPdf(ctx, api, CV);
    const res2 = await importCandidate(api, candidateBody(cv.uploadId, { email: both }));
    assert.equal(res2.json().status, 'suppressed', res2.body);
  });
});

describe('concurrent imports', () => {
  test('the same address sent concurrently is imported once; the others answer already_imported', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const email = address('Concurrent');
    const uploads: string[] = [];
    for (let i = 0; i < 4; i++) uploads.push((await uploadPdf(ctx, api, CV)).uploadId);
    const answers = await Promise.all(
      uploads.map((id, i) =>
        importCandidate(api, candidateBody(id, { email: i % 2 ? email.toUpperCase() : email })),
      ),
    );
    for (const res of answers) assert.equal(res.statusCode, 201, res.body);
    const statuses = answers.map((r) => r.json().status).sort();
    assert.deepEqual(statuses, ['already_imported', 'already_imported', 'already_imported', 'queued']);
    const queued = answers.find((r) => r.json().status === 'queued')!.json();
    for (const res of answers) assert.equal(res.json().candidateId, queued.candidateId);
    const rows = await candidatesOf(ctx, account.id);
    assert.equal(rows.length, 1);
    for (const id of uploads) {
      assert.equal(await ctx.files.size(id), id === rows[0]!.blob_key ? CV.length : null, `file of ${id}`);
    }
  });
});

describe('refusals', () => {
  test('cv_rejected for a bad PDF, worded in the import’s locale; the file is discarded and nothing stored', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const png = await uploadPdf(ctx, api, pdfFixture('png-renamed.pdf'));
    const res = await importCandidate(api, candidateBody(png.uploadId, { locale: 'es' }));
    const error = assertError(res, 422, 'cv_rejected');
    assert.equal(error.reason, 'wrong_type');
    assert.deepEqual(
      { detail: error.detail, fix: error.fix },
      rejectionMessage('wrong_type', 'es', CV_LIMITS),
    );
    assert.equal((await candidatesOf(ctx, account.id)).length, 0);
    await assertErased(ctx, png.uploadId);
    const scan = await uploadPdf(ctx, api, pdfFixture('scan-image-only.pdf'));
    const res2 = await importCandidate(api, candidateBody(scan.uploadId));
    assert.equal(assertError(res2, 422, 'cv_rejected').reason, 'no_text_layer');
    assert.equal((await candidatesOf(ctx, account.id)).length, 0);
  });

  test('attestation_required, before the budget and the upload; the upload stays usable', async () => {
    const { api, account } = await intakeAccount(ctx.app, { limits: { dailyCandidateImports: 0 } });
    const { uploadId } = await uploadPdf(ctx, api, CV);
    const error = assertError(
      await importCandidate(
        api,
        candidateBody('upl_0000000000000000000000000000', { lawfulBasis: { attested: false } }),
      ),
      422,
      'attestation_required',
    );
    assert.match(error.message, /attested/);
    assertError(
      await importCandidate(api, candidateBody(uploadId, { lawfulBasis: { attested: false } })),
      422,
      'attestation_required',
    );
    assertError(await importCandidate(api, candidateBody(uploadId, { lawfulBasis: {} })), 400, 'bad_request');
    assert.equal((await candidatesOf(ctx, account.id)).length, 0);
    await assertUnspent(ctx, uploadId);
  });

  test('upload_invalid: never issued, another account’s, never PUT, already used', async () => {
    const { api } = await intakeAccount(ctx.app);
    const other = await intakeAccount(ctx.app);
    const theirs = await uploadPdf(ctx, other.api, CV);
    const pending = await uploadPdf(ctx, api, CV, { put: false });
    const used = await uploadPdf(ctx, api, CV);
    assert.equal((await importCandidate(api, candidateBody(used.uploadId))).statusCode, 201);
    for (const id of ['upl_0000000000000000000000000000', theirs.uploadId, pending.uploadId, used.uploadId]) {
      assertError(await importCandidate(api, candidateBody(id)), 400, 'upload_invalid');
    }
    await assertUnspent(ctx, theirs.uploadId);
  });

  test('body-shape errors and a missing Idempotency-Key are 400 bad_request, and spend nothing', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const { uploadId } = await uploadPdf(ctx, api, CV);
    const valid = candidateBody(uploadId);
    const { name: _name, ...noName } = valid;
    for (const body of [
      noName,
      { ...valid, email: 'nope' },
      { ...valid, phone: '123' },
      { ...valid, cv: {} },
    ]) {
      assertError(await importCandidate(api, body), 400, 'bad_request');
    }
    const error = assertError(await importCandidate(api, valid, null), 400, 'bad_request');
    assert.match(error.message, /Idempotency-Key/);
    assert.equal((await candidatesOf(ctx, account.id)).length, 0);
    await assertUnspent(ctx, uploadId);
    assert.equal((await importCandidate(api, valid)).statusCode, 201);
  });

  test('needs applications:write', async () => {
    const account = await newAccount(ctx.app, { dpa: true });
    const key = await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write']);
    const res = await importCandidate(
      client(ctx.app, key.secret),
      candidateBody('upl_0000000000000000000000000000'),
    );
    assertError(res, 403, 'forbidden');
  });

  test('the same key and body replays the answer; a different body is 409', async () => {
    const { api, account } = await intakeAccount(ctx.app);
    const { uploadId } = await uploadPdf(ctx, api, CV);
    const key = unique('idem');
    const body = candidateBody(uploadId);
    const first = await importCandidate(api, body, key);
    const replay = await importCandidate(api, body, key);
    assert.equal(first.statusCode, 201);
    assert.equal(replay.statusCode, 201);
    assert.deepEqual(replay.json(), first.json());
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assertError(await importCandidate(api, { ...body, name: 'Changed' }, key), 409, 'conflict');
    assert.equal((await candidatesOf(ctx, account.id)).length, 1);
  });
});

describe('the daily import budget (UTC days, on a clock at 23:30 UTC)', () => {
  const MIDNIGHT = Date.parse('2031-06-21T00:00:00Z');
  let c: TestContext;
  before(async () => {
    c = await startApp({ clock: new ManualClock(new Date(MIDNIGHT - 30 * MINUTE)) });
  });
  after(async () => {
    await c?.close();
  });

  test('dailyCandidateImports = 1: the second queued import is 429 daily_cap_reached until midnight UTC', async () => {
    c.clock.set(new Date(MIDNIGHT - 30 * MINUTE));
    const { api, account } = await intakeAccount(c.app, { limits: { dailyCandidateImports: 1 } });
    const first = await uploadPdf(c, api, CV);
    assert.equal((await importCandidate(api, candidateBody(first.uploadId))).json().status, 'queued');
    const second = await uploadPdf(c, api, CV);
    const body = candidateBody(second.uploadId);
    const key = unique('idem');
    const res = await importCandidate(api, body, key);
    const error = assertError(res, 429, 'daily_cap_reached');
    assert.equal(res.headers['retry-after'], String(30 * 60));
    assert.equal(error.resetsAt, new Date(MIDNIGHT).toISOString());
    await assertUnspent(c, second.uploadId);
    assert.equal((await candidatesOf(c, account.id)).length, 1);
    // The next UTC day the same request (same key, same upload) goes through.
    c.clock.set(new Date(MIDNIGHT + MINUTE));
    const next = await importCandidate(api, body, key);
    assert.equal(next.statusCode, 201, next.body);
    assert.equal(next.json().status, 'queued');
  });

  test('suppressed and already_imported spend nothing; existing_account and rejected do', async () => {
    c.clock.set(new Date(MIDNIGHT - 30 * MINUTE));
    const { api, account } = await intakeAccount(c.app, { limits: { dailyCandidateImports: 3 } });
    const email = address('Budget');
    const up = () => uploadPdf(c, api, CV);
    // 1 of 3
    assert.equal(
      (await importCandidate(api, candidateBody((await up()).uploadId, { email }))).json().status,
      'queued',
    );
    // Free: the same address again, and a suppressed address, several times over.
    const muted = address('Muted');
    await consoleCall(c.app, 'POST', '/suppressions', { email: muted });
    for (let i = 0; i < 3; i++) {
      const again = await importCandidate(api, candidateBody((await up()).uploadId, { email }));
      assert.equal(again.json().status, 'already_imported', again.body);
      const quiet = await importCandidate(api, candidateBody((await up()).uploadId, { email: muted }));
      assert.equal(quiet.json().status, 'suppressed', quiet.body);
    }
    // 2 of 3: an existing account.
    const seeker = address('BudgetSeeker');
    await consoleCall(c.app, 'POST', '/people', { email: seeker, name: 'Seeker' });
    assert.equal(
      (await importCandidate(api, candidateBody((await up()).uploadId, { email: seeker }))).json().status,
      'existing_account',
    );
    // 3 of 3: a file that is not a CV.
    const menu = await uploadPdf(c, api, MENU);
    assert.equal((await importCandidate(api, candidateBody(menu.uploadId))).json().status, 'rejected');
    // The budget is spent.
    const last = await up();
    assertError(await importCandidate(api, candidateBody(last.uploadId)), 429, 'daily_cap_reached');
    await assertUnspent(c, last.uploadId);
    const outcomes = (await candidatesOf(c, account.id)).map((r) => r.outcome).sort();
    assert.deepEqual(outcomes, [
      'existing_account',
      'queued',
      'rejected',
      'suppressed',
      'suppressed',
      'suppressed',
    ]);
  });
});

describe('suppressing an address that was already imported', () => {
  test('erases every account’s held copy: name, address and file', async () => {
    const a = await intakeAccount(ctx.app);
    const b = await intakeAccount(ctx.app);
    const email = address('Erase');
    const fileA = await uploadPdf(ctx, a.api, CV);
    const fileB = await uploadPdf(ctx, b.api, CV);
    const idA = (await importCandidate(a.api, candidateBody(fileA.uploadId, { email }))).json().candidateId;
    const idB = (
      await importCandidate(b.api, candidateBody(fileB.uploadId, { email: email.toUpperCase() }))
    ).json().candidateId;
    const bystander = await uploadPdf(ctx, a.api, CV);
    const other = (await importCandidate(a.api, candidateBody(bystander.uploadId))).json().candidateId;
    assert.equal(await ctx.files.size(fileA.uploadId), CV.length);

    const res = await consoleCall(ctx.app, 'POST', '/suppressions', {
      email: ` ${email}`.trim().toUpperCase(),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().suppression.erased, 2);
    for (const [id, uploadId] of [
      [idA, fileA.uploadId],
      [idB, fileB.uploadId],
    ] as const) {
      const row = await candidateRow(ctx, id);
      assert.equal(row?.name, null);
      assert.equal(row?.email, null);
      assert.equal(row?.email_key, null);
      assert.equal(row?.blob_key, null);
      assert.equal(row?.cv_status, 'deleted');
      assert.equal(await ctx.files.size(uploadId), null, 'the held file is erased');
    }
    // Someone else's import is untouched.
    const kept = await candidateRow(ctx, other);
    assert.ok(kept?.email);
    assert.equal(await ctx.files.size(bystander.uploadId), CV.length);
    // And the address now imports as suppressed.
    const again = await uploadPdf(ctx, a.api, CV);
    const res2 = await importCandidate(a.api, candidateBody(again.uploadId, { email }));
    assert.equal(res2.json().status, 'suppressed', res2.body);
  });
});
