import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { type ApiClient, client, newAccount, newKey, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applicationBody, candidateBody, pdfFixture, uploadPdf } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { drainAll, mailTo } from './support/mail.ts';

/**
 * Test mode's outcomes on demand (extensions.md §8): every row of docs/sandbox.md's table, read
 * from the document, through the public API with a test key; the suffixes mean nothing to a live key.
 */

const ctx = useTestApp({}, async (c) => {
  const account = await newAccount(c.app, { dpa: true, limits: { requestsPerMinute: 100_000 } });
  const scopes = ['jobs:read', 'jobs:write', 'applications:write'];
  testKey = client(c.app, (await newKey(c.app, account.id, scopes, 'test')).secret);
  liveKey = client(c.app, (await newKey(c.app, account.id, scopes)).secret);
});
const TABLE = fs.readFileSync(new URL('../docs/sandbox.md', import.meta.url), 'utf8');

let testKey: ApiClient;
let liveKey: ApiClient;

async function importAs(api: ApiClient, email: string, bytes = pdfFixture('cv-2-pages.pdf')) {
  const upload = await uploadPdf(ctx, api, bytes);
  return api.post('/v1/candidates', candidateBody(upload.uploadId, { email }), {
    'idempotency-key': unique('idem'),
  });
}

describe('import statuses on demand', () => {
  const rows = [...TABLE.matchAll(/^\| `(\w+)` \| `POST \/v1\/candidates`[^|]*?\(`[\w.-]+\+(\w+)@/gm)];

  test('the table names the three statuses', () => {
    assert.deepEqual(
      rows.map((r) => [r[1], r[2]]),
      [
        ['existing_account', 'existing'],
        ['suppressed', 'suppressed'],
        ['rejected', 'rejected'],
      ],
    );
  });

  for (const [, status, suffix] of rows) {
    test(`an address ending +${suffix} answers ${status} to a test key, and means nothing to a live key`, async () => {
      const email = `${unique('ana').toLowerCase()}+${suffix}@example.com`;
      const res = await importAs(testKey, email);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, status);
      if (status === 'rejected') assert.ok(res.json().rejection, 'the rejection is named');
      const live = await importAs(liveKey, `${unique('ana').toLowerCase()}+${suffix}@example.com`);
      assert.equal(live.statusCode, 201, live.body);
      assert.equal(live.json().status, 'queued');
    });
  }

  test('+existing: the account-holder notice is in the outbox', async () => {
    const email = `${unique('ana').toLowerCase()}+existing@example.com`;
    assert.equal((await importAs(testKey, email)).json().status, 'existing_account');
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, email)).length, 1);
  });
});

describe('every cv_rejected reason with the files the table names', () => {
  const rows = [
    ...TABLE.matchAll(/^\| `cv_rejected` \/ `(\w+)` \| upload `test\/fixtures\/pdf\/([\w.-]+)`/gm),
  ];
  const documented = [...TABLE.matchAll(/^\| `cv_rejected` \/ `(\w+)`/gm)].map((r) => r[1]);

  test('the table covers every reason of the catalogue', async () => {
    const { CV_REJECT_REASONS } = await import('../src/contract/errors.ts');
    assert.deepEqual([...documented].sort(), [...CV_REJECT_REASONS].sort());
  });

  for (const [, reason, file] of rows) {
    test(`${file}: 422 cv_rejected / ${reason}, to an application and to an import`, async () => {
      const bytes = pdfFixture(file!);
      const job = await createPublished(testKey);
      const upload = await uploadPdf(ctx, testKey, bytes);
      const applied = await testKey.post(
        `/v1/jobs/${job.id}/applications`,
        applicationBody(ctx.clock, upload.uploadId),
        {
          'idempotency-key': unique('idem'),
        },
      );
      assert.equal(assertError(applied, 422, 'cv_rejected').reason, reason);
      const imported = await importAs(testKey, `${unique('ana').toLowerCase()}@example.com`, bytes);
      assert.equal(assertError(imported, 422, 'cv_rejected').reason, reason);
    });
  }

  test('too_large: any file over CV_MAX_BYTES', async () => {
    assert.ok(documented.includes('too_large'));
    const res = await importAs(
      testKey,
      `${unique('ana').toLowerCase()}@example.com`,
      Buffer.alloc(10_485_761),
    );
    assert.equal(assertError(res, 422, 'cv_rejected').reason, 'too_large');
  });
});
