// Issue 11, item 2: the pre-scan refuses a file with far more pages than allowed before it
// inflates a stream or spends a parser child, and never a real CV.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createCvChecker } from '../src/pdf/cv-check.ts';
import { countPageObjects } from '../src/pdf/page-count.ts';
import { prescanPdf } from '../src/pdf/prescan.ts';
import { longLinePdf, manyPagesPdf } from './fixtures/hostile-pdfs.ts';
import { CV_LIMITS, tempDir } from './harness.ts';

const FIXTURES = [
  ...fs.readdirSync(new URL('./fixtures/cv/', import.meta.url)).map((f) => `cv/${f}`),
  ...fs.readdirSync(new URL('./fixtures/pdf/', import.meta.url)).map((f) => `pdf/${f}`),
].filter((f) => f.endsWith('.pdf'));

const LIMITS = { maxInflatedBytes: 64 * 1024 * 1024, deadlineMs: 5000 };

describe('page objects in plain sight', () => {
  test('counts /Type /Page, not /Pages, with any spacing and comments', () => {
    const text = Buffer.from(
      '<< /Type /Pages >> << /Type/Page >> << /Type /Page/Parent 2 0 R >> << /Type %c\n /Page >> << /Type /PageLabel >>',
    );
    assert.equal(countPageObjects(text), 3);
    assert.equal(countPageObjects(manyPagesPdf(10_000)), 10_000);
    assert.equal(countPageObjects(longLinePdf()), 1);
  });

  test('every real CV fixture stays far below the bound the checker uses (4 per page + 20)', () => {
    for (const name of FIXTURES) {
      const data = fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
      const bound = CV_LIMITS.maxPages * 4 + 20;
      assert.ok(countPageObjects(data) <= bound / 4, `${name}: ${countPageObjects(data)} page objects`);
    }
  });

  test('the pre-scan refuses 10,000 pages at once, without inflating', async () => {
    const file = path.join(tempDir(), 'long.pdf');
    fs.writeFileSync(file, manyPagesPdf(10_000, true));
    const scan = await prescanPdf(file, { ...LIMITS, maxPageObjects: 60 });
    assert.equal(scan.ok, false);
    assert.equal(!scan.ok && scan.cause, 'too_many_pages');
    assert.equal(scan.inflatedBytes, 0);
    // Without the bound it inflates all 10,000 streams.
    const full = await prescanPdf(file, { ...LIMITS, deadlineMs: 120_000 });
    assert.equal(full.ok, true);
    assert.ok(full.ok && full.decodedStreams >= 10_000);
  });
});

describe('through the checker', () => {
  const checker = createCvChecker({ ...CV_LIMITS, poolSize: 1 });
  after(() => checker.close());

  test('10,000 pages: too_many_pages from the pre-scan stage, no child spent', async () => {
    const events: string[] = [];
    const watched = createCvChecker({
      ...CV_LIMITS,
      poolSize: 1,
      onEvent: (e) => {
        if (e.type === 'checked') events.push(`${e.outcome}@${e.stage}`);
        if (e.type === 'parse_started') events.push('parse');
      },
    });
    try {
      const file = path.join(tempDir(), 'long.pdf');
      fs.writeFileSync(file, manyPagesPdf(10_000, true));
      const verdict = await watched.check(file);
      assert.deepEqual(verdict, { ok: false, reason: 'too_many_pages' });
      assert.deepEqual(events, ['too_many_pages@prescan']);
    } finally {
      await watched.close();
    }
  });

  test('the long-line CV still passes', async () => {
    const file = path.join(tempDir(), 'line.pdf');
    fs.writeFileSync(file, longLinePdf());
    assert.equal((await checker.check(file)).ok, true);
  });
});
