import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type CvLocale, type CvRejectReason, rejectionMessage } from '../src/pdf/cv-check.ts';
import { type client, intakeAccount, unique } from './support/accounts.ts';
import { CV_LIMITS, startApp, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applicationBody, consentReceipt, pdfFixture, uploadPdf, uploadRow } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

/**
 * Check (6) of an application: each cv_rejected reason with a PDF made by a real producer
 * (scripts/make-pdf-fixtures.sh), its detail and fix in the receipt's locale, the refused file
 * discarded; and a PDF with only an owner password accepted.
 */

let api: ReturnType<typeof client>;
let accountId: string;
let jobId: string;

const CV = pdfFixture('cv-2-pages.pdf');

/** The Chromium CV padded with a trailing PDF comment to one byte over CV_MAX_BYTES. */
function oversizedCv(): Buffer {
  const padding = Buffer.alloc(CV_LIMITS.maxBytes + 1 - CV.length, 0x20);
  padding[0] = 0x25; // '%'
  padding[padding.length - 1] = 0x0a;
  return Buffer.concat([CV, padding]);
}

const REASONS: [CvRejectReason, string, () => Buffer][] = [
  ['wrong_type', 'a PNG named .pdf', () => pdfFixture('png-renamed.pdf')],
  [
    'too_many_pages',
    'a twelve-page portfolio printed by Chromium',
    () => pdfFixture('portfolio-12-pages.pdf'),
  ],
  ['encrypted', 'the CV behind a user password (qpdf, AES-256)', () => pdfFixture('cv-user-password.pdf')],
  ['no_text_layer', 'the CV rasterised to JPEG pages (img2pdf)', () => pdfFixture('scan-image-only.pdf')],
  ['corrupt', 'the first half of the CV (a truncated download)', () => pdfFixture('truncated.pdf')],
];

const ctx = useTestApp({}, async () => {
  const made = await intakeAccount(ctx.app);
  api = made.api;
  accountId = made.account.id;
  jobId = (await createPublished(api)).id;
});

async function applicationCount(): Promise<number> {
  const rows = await ctx.handle.db
    .selectFrom('applications')
    .select('id')
    .where('account_id', '=', accountId)
    .execute();
  return rows.length;
}

async function applyWith(
  bytes: Buffer,
  locale?: CvLocale,
): Promise<{ res: LightMyRequestResponse; uploadId: string }> {
  const { uploadId } = await uploadPdf(ctx, api, bytes);
  assert.equal(await ctx.files.size(uploadId), bytes.length);
  const consent = consentReceipt(ctx.clock, locale === undefined ? {} : { locale });
  const res = await api.post(
    `/v1/jobs/${jobId}/applications`,
    applicationBody(ctx.clock, uploadId, { consent }),
    { 'idempotency-key': unique('idem') },
  );
  return { res, uploadId };
}

/** 422 cv_rejected with the reason and the candidate's wording; the file gone, nothing stored. */
async function assertRejected(
  run: { res: LightMyRequestResponse; uploadId: string },
  reason: CvRejectReason,
  locale: CvLocale,
  countBefore: number,
) {
  const { res, uploadId } = run;
  assert.equal(res.statusCode, 422, res.body);
  const error = errorOf(res);
  assert.equal(error.code, 'cv_rejected');
  assert.equal(error.reason, reason);
  const wording = rejectionMessage(reason, locale, CV_LIMITS);
  assert.equal(error.detail, wording.detail);
  assert.equal(error.fix, wording.fix);
  assert.ok(String(error.detail).length > 20 && String(error.fix).length > 20);
  assert.equal(await ctx.files.size(uploadId), null, 'the refused file is discarded');
  assert.ok((await uploadRow(ctx.handle, uploadId))?.used_at, 'its upload is spent');
  assert.equal(await applicationCount(), countBefore, 'no application was stored');
  return error;
}

describe('cv_rejected: one real PDF per reason', () => {
  for (const [reason, what, bytes] of REASONS) {
    test(`${reason}: ${what}`, async () => {
      const count = await applicationCount();
      await assertRejected(await applyWith(bytes()), reason, 'en', count);
    });
  }

  test('too_large: a CV over CV_MAX_BYTES gets its slot and its PUT (never stored), and is refused when named', async () => {
    const count = await applicationCount();
    const bytes = oversizedCv();
    const { uploadId } = await uploadPdf(ctx, api, bytes);
    assert.equal(await ctx.files.size(uploadId), null, 'the body was read and dropped');
    const res = await api.post(`/v1/jobs/${jobId}/applications`, applicationBody(ctx.clock, uploadId), {
      'idempotency-key': unique('idem'),
    });
    await assertRejected({ res, uploadId }, 'too_large', 'en', count);
  });

  test('a refused upload cannot be named again', async () => {
    const run = await applyWith(pdfFixture('truncated.pdf'));
    assert.equal(run.res.statusCode, 422);
    const again = await api.post(`/v1/jobs/${jobId}/applications`, applicationBody(ctx.clock, run.uploadId), {
      'idempotency-key': unique('idem'),
    });
    assert.equal(again.statusCode, 400, again.body);
    assert.equal(errorOf(again).code, 'upload_invalid');
  });
});

describe('cv_rejected: detail and fix in the receipt’s locale', () => {
  test('each reason in es, fr and pt, each different from en', async () => {
    const locales: CvLocale[] = ['es', 'fr', 'pt'];
    let i = 0;
    for (const [reason, , bytes] of REASONS) {
      // One locale per reason, every locale used.
      const locale = locales[i++ % locales.length]!;
      const count = await applicationCount();
      const error = await assertRejected(await applyWith(bytes(), locale), reason, locale, count);
      const en = rejectionMessage(reason, 'en', CV_LIMITS);
      assert.notEqual(error.detail, en.detail, `${reason} in ${locale}`);
      assert.notEqual(error.fix, en.fix, `${reason} in ${locale}`);
    }
  });

  test('the same file in en and fr: French wording with the limit in it', async () => {
    const count = await applicationCount();
    const en = await assertRejected(
      await applyWith(pdfFixture('portfolio-12-pages.pdf'), 'en'),
      'too_many_pages',
      'en',
      count,
    );
    const fr = await assertRejected(
      await applyWith(pdfFixture('portfolio-12-pages.pdf'), 'fr'),
      'too_many_pages',
      'fr',
      count,
    );
    assert.notEqual(fr.detail, en.detail);
    assert.match(String(en.detail), /10\u00a0pages/);
    assert.match(String(fr.detail), /Votre CV compte plus de 10\u00a0pages/);
    assert.match(String(fr.fix), /Réduisez/);
  });
});

describe('accepted PDFs', () => {
  test('a PDF with only an owner password (permissions) opens and is accepted', async () => {
    const owner = pdfFixture('cv-owner-password-only.pdf');
    const count = await applicationCount();
    const { res, uploadId } = await applyWith(owner);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().cvStatus, 'processing');
    assert.equal(await ctx.files.size(uploadId), owner.length, 'the file is kept for the virtual CV');
    assert.equal(await applicationCount(), count + 1);
  });

  test('the two-page CV printed by Chromium is accepted, in every locale', async () => {
    for (const locale of ['en', 'es', 'fr', 'pt'] as const) {
      const { res } = await applyWith(CV, locale);
      assert.equal(res.statusCode, 201, `${locale}: ${res.body}`);
    }
  });
});

describe('the CV limits come from the checker the service runs', () => {
  test('a stricter page limit refuses the two-page CV as too_many_pages', async () => {
    const { createCvChecker } = await import('../src/pdf/cv-check.ts');
    const strict = createCvChecker({ maxBytes: CV_LIMITS.maxBytes, maxPages: 1, poolSize: 1 });
    const c = await startApp({ inspector: strict });
    try {
      const who = await intakeAccount(c.app);
      const job = await createPublished(who.api);
      const { uploadId } = await uploadPdf(c, who.api, CV);
      const res = await who.api.post(`/v1/jobs/${job.id}/applications`, applicationBody(c.clock, uploadId), {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(errorOf(res).reason, 'too_many_pages');
      assert.equal(await c.files.size(uploadId), null);
    } finally {
      await c.close();
      await strict.close();
    }
  });
});
