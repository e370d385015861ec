// Issue 11, item 2: the pre-scan refuses a file with far more pages than allowed before it
// inflates a stream or spends a parser child, and a page whose content runs a million operators
// (12 KB, inside the inflate budget, held a child for its whole deadline); never a real CV.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createCvChecker, inflateBudget } from '../src/pdf/cv-check.ts';
import { OperatorCounter } from '../src/pdf/operator-count.ts';
import { countPageObjects } from '../src/pdf/page-count.ts';
import { prescanPdf } from '../src/pdf/prescan.ts';
import { longLinePdf, manyOperatorsPdf, manyPagesPdf } from './fixtures/hostile-pdfs.ts';
import { CV_LIMITS, tempDir } from './support/app.ts';

const FIXTURES = [
  ...fs.readdirSync(new URL('./fixtures/cv/', import.meta.url)).map((f) => `cv/${f}`),
  ...fs.readdirSync(new URL('./fixtures/pdf/', import.meta.url)).map((f) => `pdf/${f}`),
].filter((f) => f.endsWith('.pdf'));

const LIMITS = { maxInflatedBytes: 64 * 1024 * 1024, deadlineMs: 5000 };

/** A one-child checker that notes each verdict with its stage, and each parse a child starts. */
function watchedChecker() {
  const events: string[] = [];
  const watched = createCvChecker({
    ...CV_LIMITS,
    poolSize: 1,
    onEvent: (e) => {
      if (e.type === 'checked') events.push(`${e.outcome}@${e.stage}`);
      if (e.type === 'parse_started') events.push('parse');
    },
  });
  return { watched, events };
}

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

describe('refusals are cheap (issue 25, item 1)', () => {
  test('a 10,000-page file: the page count stops at the first object past the bound', () => {
    assert.equal(countPageObjects(manyPagesPdf(10_000, true), 60), 61);
  });

  test('a 4 KB flate bomb is refused after inflating at most 1 MiB (and a chunk), not 8', async () => {
    const bomb = fs.readFileSync(new URL('./fixtures/pdf/bomb-flate.pdf', import.meta.url));
    assert.equal(inflateBudget(bomb.length), 1024 * 1024);
    const scan = await prescanPdf(bomb, { maxInflatedBytes: inflateBudget(bomb.length), deadlineMs: 60_000 });
    assert.equal(!scan.ok && scan.cause, 'inflate_cap');
    assert.ok(scan.inflatedBytes <= 1024 * 1024 + 2 * 256 * 1024, String(scan.inflatedBytes));
  });

  test('every real CV fixture inflates well inside the budget of its own size', async () => {
    for (const name of FIXTURES.filter(
      (f) => f.startsWith('cv/') || /cv-|portfolio|not-a-cv|scan-/.test(f),
    )) {
      const data = fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
      const scan = await prescanPdf(data, {
        maxInflatedBytes: inflateBudget(data.length),
        deadlineMs: 60_000,
      });
      assert.ok(scan.ok, `${name}: refused`);
      assert.ok(scan.inflatedBytes <= inflateBudget(data.length) / 4, `${name}: ${scan.inflatedBytes}`);
    }
  });
});

describe('operators in page content', () => {
  test('counts operators, not names, strings, hex strings, dictionaries or comments', () => {
    const counter = new OperatorCounter();
    const content = Buffer.from(
      'BT /F1 12 Tf 72 712 Td (Hello \\) (world) TJ) Tj <48656c6c6f> Tj % Tj Tj in a comment\n' +
        "[(a) -20 (b)] TJ T* (next) ' 1 0 0 RG /GS1 gs << /MCID 3 >> BDC EMC ET",
    );
    // Split mid-token: the count must not depend on where a chunk ends.
    counter.feed(content.subarray(0, 20));
    counter.feed(content.subarray(20));
    counter.end();
    // BT Tf Td Tj Tj TJ T* ' RG gs BDC EMC ET
    assert.equal(counter.count, 13);
  });

  test('every real CV fixture runs far fewer than the bound the checker uses (50,000 per page)', async () => {
    for (const name of FIXTURES) {
      const scan = await prescanPdf(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), {
        maxInflatedBytes: 128 * 1024 * 1024,
        deadlineMs: 60_000,
      });
      if (scan.ok) assert.ok(scan.operators < 10_000, `${name}: ${scan.operators} operators`);
    }
  });

  test('a million operators in 12 KB: refused by the pre-scan, no child spent', async () => {
    const file = path.join(tempDir(), 'ops.pdf');
    fs.writeFileSync(file, manyOperatorsPdf(1_100_000));
    const scan = await prescanPdf(file, { ...LIMITS, maxOperators: 500_000 });
    assert.equal(!scan.ok && scan.cause, 'operators');
    const { watched, events } = watchedChecker();
    try {
      assert.deepEqual(await watched.check(file), { ok: false, reason: 'corrupt' });
      assert.deepEqual(events, ['corrupt@prescan']);
    } finally {
      await watched.close();
    }
  });
});

describe('through the checker', () => {
  const checker = createCvChecker({ ...CV_LIMITS, poolSize: 1 });
  after(() => checker.close());

  test('10,000 pages: too_many_pages from the pre-scan stage, no child spent', async () => {
    const { watched, events } = watchedChecker();
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

  test('the long-line CV still passes, for a verdict alone and with its text', async () => {
    const file = path.join(tempDir(), 'line.pdf');
    fs.writeFileSync(file, longLinePdf());
    assert.equal((await checker.check(file)).ok, true);
    assert.equal((await checker.check(file, undefined, 'none')).ok, true);
  });
});
