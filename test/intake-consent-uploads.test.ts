import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { client, intakeAccount, newAccount, newKey, unique } from './support/accounts.ts';
import { BASE_URL, CV_LIMITS, startApp, type TestContext, useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import {
  applicationBody,
  pdfFixture,
  putUpload,
  uploadPath,
  uploadPdf,
  uploadRow,
} from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { MINUTE } from './support/time.ts';

/**
 * Consent text (GET /v1/consent-text) and uploads (POST /v1/uploads, the local presigned PUT, and
 * the rules on naming an upload in an application: within the hour, once, by its own account).
 */

const CV = pdfFixture('cv-2-pages.pdf');

const ctx = useTestApp();

type Api = ReturnType<typeof client>;

function apply(api: Api, jobId: string, body: Record<string, unknown>) {
  return api.post(`/v1/jobs/${jobId}/applications`, body, { 'idempotency-key': unique('idem') });
}

async function uploadsOf(accountId: string) {
  return ctx.handle.db.selectFrom('uploads').selectAll().where('account_id', '=', accountId).execute();
}

/** The store's temp files; the store's directory must exist (a missing one would hide leftovers). */
async function tempFilesLeft(c: TestContext): Promise<string[]> {
  return fs.readdirSync(c.files.directory).filter((name) => name.startsWith('.tmp-'));
}

describe('GET /v1/consent-text', () => {
  let api: Api;
  before(async () => {
    ({ api } = await intakeAccount(ctx.app));
  });

  test('defaults to en: the text id, the current version and real wording', async () => {
    const res = await api.get('/v1/consent-text');
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['consentTextId', 'locale', 'text', 'version']);
    assert.equal(body.consentTextId, 'console_api_apply');
    assert.equal(body.version, 'api_apply_v1');
    assert.equal(body.locale, 'en');
    // What the candidate agrees to, who processes the CV, the claim-or-delete email, withdrawal.
    assert.match(body.text, /CV/);
    assert.match(body.text, /claim/);
    assert.match(body.text, /delete/);
    assert.match(body.text, /withdraw/);
    const explicit = await api.get('/v1/consent-text?locale=en');
    assert.deepEqual(explicit.json(), body);
  });

  test('each of en, es, fr and pt has its own wording of the same version', async () => {
    const words: Record<string, RegExp> = {
      en: /withdraw your consent/,
      es: /retirar tu consentimiento/,
      fr: /retirer votre consentement/,
      pt: /retirar o seu consentimento/,
    };
    const texts = new Set<string>();
    for (const locale of ['en', 'es', 'fr', 'pt']) {
      const res = await api.get(`/v1/consent-text?locale=${locale}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.locale, locale);
      assert.equal(body.consentTextId, 'console_api_apply');
      assert.equal(body.version, 'api_apply_v1');
      assert.match(body.text, words[locale]!, locale);
      assert.ok(body.text.length > 200, `${locale}: a real text`);
      texts.add(body.text);
    }
    assert.equal(texts.size, 4);
  });

  test('an unknown locale, two locales, an empty one or another parameter is 400', async () => {
    for (const query of [
      'locale=de',
      'locale=EN',
      'locale=en-GB',
      'locale=',
      'locale=en&locale=fr',
      'lang=fr',
    ]) {
      const res = await api.get(`/v1/consent-text?${query}`);
      const error = assertError(res, 400, 'bad_request');
      assert.ok(error.message.length > 0, query);
    }
  });

  test('needs a key with applications:write: none is 401, jobs:read only is 403', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/v1/consent-text' });
    assertError(none, 401, 'unauthorized');
    const account = await newAccount(ctx.app, { dpa: true });
    const reader = await newKey(ctx.app, account.id, ['jobs:read']);
    const res = await client(ctx.app, reader.secret).get('/v1/consent-text');
    const error = assertError(res, 403, 'forbidden');
    assert.match(error.message, /applications:write/);
  });
});

describe('POST /v1/uploads', () => {
  let api: Api;
  let accountId: string;
  before(async () => {
    const made = await intakeAccount(ctx.app);
    api = made.api;
    accountId = made.account.id;
  });

  test('201 UploadSlot: an id, a presigned PUT address and a deadline five minutes away', async () => {
    const now = ctx.clock.now();
    const res = await api.post('/v1/uploads', { bytes: CV.length, fileName: 'Marisol CV.pdf' });
    assert.equal(res.statusCode, 201, res.body);
    const slot = res.json();
    assert.deepEqual(Object.keys(slot).sort(), ['expiresAt', 'uploadId', 'uploadUrl']);
    assert.match(slot.uploadId, /^upl_/);
    assert.equal(slot.expiresAt, new Date(now.getTime() + 5 * MINUTE).toISOString());
    const url = new URL(slot.uploadUrl);
    assert.equal(url.origin, BASE_URL);
    assert.equal(url.pathname, `/uploads/${slot.uploadId}`);
    assert.equal(url.searchParams.get('bytes'), String(CV.length));
    assert.ok(url.searchParams.get('sig'));

    const row = await uploadRow(ctx.handle, slot.uploadId);
    assert.ok(row);
    assert.equal(row.account_id, accountId);
    assert.equal(row.bytes, CV.length);
    assert.equal(row.file_name, 'Marisol CV.pdf');
    assert.equal(row.put_expires_at.getTime(), now.getTime() + 5 * MINUTE);
    assert.equal(row.expires_at.getTime(), now.getTime() + 60 * MINUTE);
    assert.equal(row.received_at, null);
    assert.equal(row.used_at, null);
    assert.equal(await ctx.files.size(slot.uploadId), null, 'nothing stored before the PUT');

    const put = await putUpload(ctx.app, slot.uploadUrl, CV);
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(await ctx.files.size(slot.uploadId), CV.length);
    const sent = await uploadRow(ctx.handle, slot.uploadId);
    assert.equal(sent?.received_at?.getTime(), now.getTime());
    assert.equal(sent?.used_at, null);
  });

  test('bytes must be a positive integer up to CV_MAX_BYTES: anything else is 400 and issues nothing', async () => {
    const before = (await uploadsOf(accountId)).length;
    const bodies: Record<string, unknown>[] = [
      { bytes: 0 },
      { bytes: -1 },
      { bytes: 1.5 },
      { bytes: '5' },
      { bytes: 104_857_601 },
      { bytes: CV_LIMITS.maxBytes + 1 },
      { bytes: null },
      {},
      { bytes: 100, fileName: '' },
      { bytes: 100, fileName: 'x'.repeat(256) },
      { bytes: 100, mime: 'application/pdf' },
    ];
    for (const body of bodies) {
      const res = await api.post('/v1/uploads', body);
      const error = assertError(res, 400, 'bad_request');
      assert.ok(error.message.length > 0, JSON.stringify(body));
    }
    assert.equal((await uploadsOf(accountId)).length, before, 'no upload row was created');
    // A size over the CV limit names the field and the limit: no slot for a file that would be refused.
    const over = await api.post('/v1/uploads', { bytes: CV_LIMITS.maxBytes + 1 });
    assert.equal(over.json().error.field, 'bytes');
    assert.match(over.json().error.message, new RegExp(String(CV_LIMITS.maxBytes)));
    // The largest CV the service accepts is the largest declared size.
    const largest = await api.post('/v1/uploads', { bytes: CV_LIMITS.maxBytes });
    assert.equal(largest.statusCode, 201, largest.body);
    assert.equal((await uploadsOf(accountId)).length, before + 1);
  });

  test('needs applications:write (403 with jobs:read only)', async () => {
    const account = await newAccount(ctx.app, { dpa: true });
    const reader = await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write']);
    const res = await client(ctx.app, reader.secret).post('/v1/uploads', { bytes: 10 });
    assertError(res, 403, 'forbidden');
    assert.equal((await uploadsOf(account.id)).length, 0);
  });
});

describe('the presigned PUT: refusals store nothing', () => {
  let api: Api;
  let jobId: string;
  before(async () => {
    ({ api } = await intakeAccount(ctx.app));
    jobId = (await createPublished(api)).id;
  });

  /** After a refused PUT: no object, no temp file, the upload not marked sent, unusable as a CV. */
  async function assertNothingStored(uploadId: string) {
    assert.equal(await ctx.files.size(uploadId), null);
    assert.deepEqual(await tempFilesLeft(ctx), []);
    const row = await uploadRow(ctx.handle, uploadId);
    assert.equal(row?.received_at, null);
    assert.equal(row?.used_at, null);
    const res = await apply(api, jobId, applicationBody(ctx.clock, uploadId));
    const error = assertError(res, 400, 'upload_invalid');
    assert.match(error.message, /no file was uploaded/);
  }

  test('a wrong Content-Type (415)', async () => {
    const slot = await uploadPdf(ctx, api, CV, { put: false });
    for (const type of ['text/plain', 'application/octet-stream', 'application/pdf; charset=binary']) {
      const res = await putUpload(ctx.app, slot.uploadUrl, CV, { 'content-type': type });
      assertError(res, 415, 'unsupported_media_type');
    }
    await assertNothingStored(slot.uploadId);
    // The URL itself is still good for the right request.
    assert.equal((await putUpload(ctx.app, slot.uploadUrl, CV)).statusCode, 200);
    assert.equal(await ctx.files.size(slot.uploadId), CV.length);
  });

  test('a size other than the one signed (400)', async () => {
    const slot = await uploadPdf(ctx, api, CV, { put: false });
    const shorter = await putUpload(ctx.app, slot.uploadUrl, CV.subarray(0, CV.length - 1));
    assertError(shorter, 400, 'bad_request');
    const longer = await putUpload(ctx.app, slot.uploadUrl, Buffer.concat([CV, Buffer.from('\n')]));
    assertError(longer, 400, 'bad_request');
    await assertNothingStored(slot.uploadId);
  });

  test('a late PUT, one second past the five minutes (403)', async () => {
    const c = await startApp();
    try {
      const { api: own } = await intakeAccount(c.app);
      const job = await createPublished(own);
      const slot = await uploadPdf(c, own, CV, { put: false });
      c.clock.advance(5 * MINUTE + 1000);
      const res = await putUpload(c.app, slot.uploadUrl, CV);
      const error = assertError(res, 403, 'forbidden');
      assert.match(error.message, /expired/);
      assert.equal(await c.files.size(slot.uploadId), null);
      assert.equal((await uploadRow(c.handle, slot.uploadId))?.received_at, null);
      const named = await apply(own, job.id, applicationBody(c.clock, slot.uploadId));
      assertError(named, 400, 'upload_invalid');
    } finally {
      await c.close();
    }
  });

  test('a tampered URL: signature, size, expiry or upload id changed (403)', async () => {
    const slot = await uploadPdf(ctx, api, CV, { put: false });
    const url = new URL(slot.uploadUrl);
    const sig = url.searchParams.get('sig')!;
    const variant = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return copy.href;
    };
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    const padded = Buffer.concat([CV, Buffer.from('%\n')]);
    const cases: [string, string, Buffer][] = [
      ['signature', variant((u) => u.searchParams.set('sig', flipped)), CV],
      ['no signature', variant((u) => u.searchParams.delete('sig')), CV],
      ['size', variant((u) => u.searchParams.set('bytes', String(padded.length))), padded],
      [
        'expiry',
        variant((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
        CV,
      ],
    ];
    for (const [what, href, bytes] of cases) {
      const res = await putUpload(ctx.app, href, bytes);
      assertError(res, 403, 'forbidden');
      assert.equal(await ctx.files.size(slot.uploadId), null, what);
    }
    // The same signature on another upload's path.
    const other = await uploadPdf(ctx, api, CV, { put: false });
    const moved = `/uploads/${other.uploadId}${url.search}`;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: moved,
      headers: { 'content-type': 'application/pdf' },
      payload: CV,
    });
    assertError(res, 403, 'forbidden');
    assert.equal(await ctx.files.size(other.uploadId), null);
    await assertNothingStored(slot.uploadId);
    await assertNothingStored(other.uploadId);
  });

  test('a second PUT to a used URL does not replace the file (409)', async () => {
    const slot = await uploadPdf(ctx, api, CV);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: uploadPath(slot.uploadUrl),
      headers: { 'content-type': 'application/pdf' },
      payload: Buffer.alloc(CV.length, 0x20),
    });
    assertError(res, 409, 'conflict');
    assert.equal(await ctx.files.size(slot.uploadId), CV.length);
  });

  test('a PUT after the upload was spent and its file discarded stores nothing (409), and nothing is left to sweep', async () => {
    const c = await startApp();
    try {
      const { api: own } = await intakeAccount(c.app);
      const job = await createPublished(own);
      const png = pdfFixture('png-renamed.pdf');
      const refused = await uploadPdf(c, own, png);
      const res = await apply(own, job.id, applicationBody(c.clock, refused.uploadId));
      assertError(res, 422, 'cv_rejected');
      assert.equal(await c.files.size(refused.uploadId), null);
      // Still inside the five-minute PUT window: the same URL again.
      assertError(await putUpload(c.app, refused.uploadUrl, png), 409, 'conflict');
      assert.equal(await c.files.size(refused.uploadId), null, 'the re-sent CV is not kept');
      c.clock.advance(2 * 60 * MINUTE);
      await c.services.uploads.sweep();
      assert.equal(await c.files.size(refused.uploadId), null);
    } finally {
      await c.close();
    }
  });
});

describe('naming an upload: within one hour, once, by the account that created it', () => {
  let owner: Awaited<ReturnType<typeof intakeAccount>>;
  let jobId: string;
  before(async () => {
    owner = await intakeAccount(ctx.app);
    jobId = (await createPublished(owner.api)).id;
  });

  test("another account's upload id is upload_invalid, and its file is left alone", async () => {
    const other = await intakeAccount(ctx.app);
    const theirs = await uploadPdf(ctx, other.api, CV);
    const res = await apply(owner.api, jobId, applicationBody(ctx.clock, theirs.uploadId));
    const error = assertError(res, 400, 'upload_invalid');
    assert.match(error.message, /not issued to this account/);
    assert.equal(await ctx.files.size(theirs.uploadId), CV.length);
    assert.equal((await uploadRow(ctx.handle, theirs.uploadId))?.used_at, null);
    // Still the other account's to use.
    const theirJob = await createPublished(other.api);
    const ok = await apply(other.api, theirJob.id, applicationBody(ctx.clock, theirs.uploadId));
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('an id never issued is upload_invalid', async () => {
    for (const id of ['upl_0000000000000000000000000000', 'nonsense']) {
      const res = await apply(owner.api, jobId, applicationBody(ctx.clock, id));
      assertError(res, 400, 'upload_invalid');
    }
  });

  test('an upload whose file was never PUT is upload_invalid; after the PUT it is accepted', async () => {
    const slot = await uploadPdf(ctx, owner.api, CV, { put: false });
    const res = await apply(owner.api, jobId, applicationBody(ctx.clock, slot.uploadId));
    const error = assertError(res, 400, 'upload_invalid');
    assert.match(error.message, /no file was uploaded/);
    assert.equal((await uploadRow(ctx.handle, slot.uploadId))?.used_at, null);
    assert.equal((await putUpload(ctx.app, slot.uploadUrl, CV)).statusCode, 200);
    const ok = await apply(owner.api, jobId, applicationBody(ctx.clock, slot.uploadId));
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('an upload serves one application: used twice is upload_invalid', async () => {
    const slot = await uploadPdf(ctx, owner.api, CV);
    const first = await apply(owner.api, jobId, applicationBody(ctx.clock, slot.uploadId));
    assert.equal(first.statusCode, 201, first.body);
    const used = await uploadRow(ctx.handle, slot.uploadId);
    assert.ok(used?.used_at, 'spent by the application');
    // Another candidate, and another job: the upload is spent either way.
    const otherJob = await createPublished(owner.api);
    for (const target of [jobId, otherJob.id]) {
      const again = await apply(owner.api, target, applicationBody(ctx.clock, slot.uploadId));
      const error = assertError(again, 400, 'upload_invalid');
      assert.match(error.message, /already been used/);
    }
    const rows = await ctx.handle.db
      .selectFrom('applications')
      .select('id')
      .where('blob_key', '=', slot.uploadId)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(await ctx.files.size(slot.uploadId), CV.length, 'the accepted file is kept');
  });

  test('an upload id lives one hour: accepted at 59 minutes, upload_invalid after the hour', async () => {
    const c = await startApp();
    try {
      const { api } = await intakeAccount(c.app);
      const job = await createPublished(api);
      const early = await uploadPdf(c, api, CV);
      const late = await uploadPdf(c, api, CV);
      c.clock.advance(59 * MINUTE);
      const ok = await apply(api, job.id, applicationBody(c.clock, early.uploadId));
      assert.equal(ok.statusCode, 201, ok.body);
      c.clock.advance(MINUTE);
      const res = await apply(api, job.id, applicationBody(c.clock, late.uploadId));
      const error = assertError(res, 400, 'upload_invalid');
      assert.match(error.message, /expired/);
      assert.equal((await uploadRow(c.handle, late.uploadId))?.used_at, null);
    } finally {
      await c.close();
    }
  });
});

describe('sweeping uploads', () => {
  test('unused uploads past their hour are deleted, row and file; used and live ones stay', async () => {
    const c = await startApp();
    try {
      const { api } = await intakeAccount(c.app);
      const job = await createPublished(api);
      const unused = await uploadPdf(c, api, CV);
      const neverSent = await uploadPdf(c, api, CV, { put: false });
      const used = await uploadPdf(c, api, CV);
      const applied = await apply(api, job.id, applicationBody(c.clock, used.uploadId));
      assert.equal(applied.statusCode, 201, applied.body);

      // Within the hour nothing of this account's is swept.
      c.clock.advance(59 * MINUTE);
      await c.services.uploads.sweep();
      assert.ok(await uploadRow(c.handle, unused.uploadId));
      assert.ok(await uploadRow(c.handle, neverSent.uploadId));
      assert.equal(await c.files.size(unused.uploadId), CV.length);

      const fresh = await uploadPdf(c, api, CV);
      c.clock.advance(MINUTE + 1);
      const swept = await c.services.uploads.sweep();
      assert.ok(swept >= 2, `swept ${swept}`);
      assert.equal(await uploadRow(c.handle, unused.uploadId), undefined);
      assert.equal(await c.files.size(unused.uploadId), null);
      assert.equal(await uploadRow(c.handle, neverSent.uploadId), undefined);
      // The used upload keeps its row and the application's file.
      assert.ok((await uploadRow(c.handle, used.uploadId))?.used_at);
      assert.equal(await c.files.size(used.uploadId), CV.length);
      // An upload still inside its hour stays, and works.
      assert.ok(await uploadRow(c.handle, fresh.uploadId));
      assert.equal(await c.files.size(fresh.uploadId), CV.length);
      const ok = await apply(api, job.id, applicationBody(c.clock, fresh.uploadId));
      assert.equal(ok.statusCode, 201, ok.body);
      // A swept id is upload_invalid.
      const gone = await apply(api, job.id, applicationBody(c.clock, unused.uploadId));
      assertError(gone, 400, 'upload_invalid');
    } finally {
      await c.close();
    }
  });
});
