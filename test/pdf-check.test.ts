import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import {
  type CvChecker,
  type CvCheckerEvent,
  type CvCheckResult,
  type CvLocale,
  type CvRejectReason,
  createCvChecker,
  MIN_MEMORY_LIMIT_MB,
  ParserPoolUnavailable,
  type PdfTextItem,
  rejectionMessage,
} from '../src/pdf/cv-check.ts';

// Fixtures are committed; scripts/make-pdf-fixtures.sh documents how each was produced.
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/pdf/${name}`, import.meta.url));

const LIMITS = { maxBytes: 10 * 1024 * 1024, maxPages: 10 };
const POOL_SIZE = 2;
const TIMEOUT_MS = 5000;
// Refusals must come within the deadline; the slack covers the pre-scan and a busy CI machine.
const REFUSAL_BUDGET_MS = TIMEOUT_MS + 2000;
// Measured lag is 1–15 ms on the reference machine; a blocked loop would show whole seconds.
const MAX_LAG_MS = 150;

let checker: CvChecker;
const events: CvCheckerEvent[] = [];
let scratch: string;

function liveWorkers(): Set<number> {
  const live = new Set<number>();
  for (const event of events) {
    if (event.type === 'worker_started') live.add(event.pid);
    if (event.type === 'worker_stopped') live.delete(event.pid);
  }
  return live;
}

async function poolReady(): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (liveWorkers().size < POOL_SIZE) {
    if (Date.now() > deadline) throw new Error('parser workers did not start');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Checks a file while a 10 ms interval measures how late the event loop runs it. */
async function checkWhileWatchingLoop(
  path: string,
): Promise<{ result: CvCheckResult; ms: number; maxLagMs: number; ticks: number }> {
  const intervalMs = 10;
  let last = performance.now();
  let maxLagMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - intervalMs);
    last = now;
    ticks++;
  }, intervalMs);
  const started = performance.now();
  try {
    const result = await checker.check(path);
    return { result, ms: performance.now() - started, maxLagMs, ticks };
  } finally {
    clearInterval(timer);
  }
}

function assertResponsive(
  t: { diagnostic: (message: string) => void },
  run: { ms: number; maxLagMs: number; ticks: number },
): void {
  t.diagnostic(
    `refused in ${run.ms.toFixed(0)} ms; event loop: max lag ${run.maxLagMs.toFixed(1)} ms, ${run.ticks} ticks`,
  );
  assert.ok(run.maxLagMs < MAX_LAG_MS, `event loop lagged ${run.maxLagMs.toFixed(0)} ms`);
  // A responsive loop fires the 10 ms interval most of the times it could.
  const expected = run.ms / 10;
  assert.ok(run.ticks >= expected * 0.5, `only ${run.ticks} ticks in ${run.ms.toFixed(0)} ms`);
}

function reasonOf(result: CvCheckResult): CvRejectReason | 'ok' {
  return result.ok ? 'ok' : result.reason;
}

function findItem(result: CvCheckResult, page: number, text: string): PdfTextItem {
  assert.ok(result.ok);
  const item = result.text[page - 1]?.items.find((i) => i.str.includes(text));
  assert.ok(item, `no item containing "${text}" on page ${page}`);
  return item;
}

async function waitForEvent<T extends CvCheckerEvent['type']>(
  type: T,
  since: number,
): Promise<Extract<CvCheckerEvent, { type: T }>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const event = events.slice(since).find((e) => e.type === type);
    if (event) return event as Extract<CvCheckerEvent, { type: T }>;
    if (Date.now() > deadline) throw new Error(`no ${type} event`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function assertServesNormalCv(): Promise<void> {
  const result = await checker.check(fixture('cv-2-pages.pdf'));
  assert.equal(reasonOf(result), 'ok');
}

// 10,000 pages, each with its own Flate content stream: unlike the qpdf fixture (which shares one
// stream), this also makes the pre-scan walk 10,000 streams. ~1.6 MB, so built at test time.
async function writeTenThousandPagePdf(path: string): Promise<void> {
  const pages = 10_000;
  const objects: Buffer[] = [];
  const kids: string[] = [];
  objects.push(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'));
  for (let i = 0; i < pages; i++) kids.push(`${4 + 2 * i} 0 R`);
  objects.push(Buffer.from(`<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`));
  objects.push(Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'));
  for (let i = 0; i < pages; i++) {
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
      ),
    );
    const content = deflateSync(`BT /F1 12 Tf 72 720 Td (Page ${i + 1} of a very long document) Tj ET`);
    objects.push(
      Buffer.concat([
        Buffer.from(`<< /Filter /FlateDecode /Length ${content.length} >>\nstream\n`),
        content,
        Buffer.from('\nendstream'),
      ]),
    );
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(offset);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(part);
    offset += part.length;
  }
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`];
  for (const o of offsets) xref.push(`${String(o).padStart(10, '0')} 00000 n \n`);
  parts.push(Buffer.from(xref.join('')));
  parts.push(
    Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`),
  );
  await writeFile(path, Buffer.concat(parts));
}

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pdf-check-'));
  checker = createCvChecker({
    ...LIMITS,
    poolSize: POOL_SIZE,
    timeoutMs: TIMEOUT_MS,
    onEvent: (e) => events.push(e),
  });
  await poolReady();
});

after(async () => {
  await checker.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('CV check: accepted files', () => {
  test('a two-page CV printed by Chromium gives 2 pages of positioned, styled text', async () => {
    const result = await checker.check(fixture('cv-2-pages.pdf'));
    assert.ok(result.ok, `expected ok, got ${reasonOf(result)}`);
    assert.equal(result.pages, 2);
    assert.equal(result.text.length, 2);
    for (const page of result.text) {
      assert.ok(Math.abs(page.width - 595) < 1 && Math.abs(page.height - 842) < 1, 'A4 page size');
      for (const item of page.items) {
        assert.ok(item.str.trim() !== '');
        assert.ok(item.x >= 0 && item.x <= page.width && item.y >= 0 && item.y <= page.height, item.str);
      }
    }

    const name = findItem(result, 1, 'Marisol Quintero-Ávila');
    assert.equal(name.fontName, 'LiberationSans-Bold');
    assert.equal(name.bold, true);
    assert.equal(name.italic, false);
    assert.equal(Math.round(name.height), 22); // 22pt heading

    const dates = findItem(result, 1, 'March 2021');
    assert.equal(dates.italic, true);
    assert.equal(dates.bold, false);
    const summary = findItem(result, 1, 'Kotlin');
    assert.equal(summary.fontName, 'LiberationSans');
    assert.ok(name.y > dates.y, 'the name sits above the dates (y grows upwards)');
    // The headline under the name is regular; the job title is bold, with the company to its
    // right on the same line.
    const titles = result.text[0]!.items.filter((i) => i.str === 'Senior Backend Engineer');
    assert.deepEqual(
      titles.map((i) => i.bold),
      [false, true],
    );
    const title = titles[1]!;
    const company = findItem(result, 1, 'Harbourline Freight');
    assert.equal(company.bold, false);
    assert.equal(Math.round(title.y), Math.round(company.y));
    assert.ok(company.x > title.x + title.width - 1);

    findItem(result, 2, 'Queensland University of Technology');
    const heading = findItem(result, 2, 'EDUCATION');
    assert.equal(heading.bold, true);
  });

  test('a PDF with only an owner password (permissions) opens and is accepted', async () => {
    const result = await checker.check(fixture('cv-owner-password-only.pdf'));
    assert.ok(result.ok, `expected ok, got ${reasonOf(result)}`);
    assert.equal(result.pages, 2);
    findItem(result, 1, 'Marisol Quintero-Ávila');
  });
});

describe('CV check: one refusal per reason', () => {
  test('wrong_type: a PNG renamed .pdf', async () => {
    assert.equal(reasonOf(await checker.check(fixture('png-renamed.pdf'))), 'wrong_type');
  });

  test('wrong_type: an empty file', async () => {
    const path = join(scratch, 'empty.pdf');
    await writeFile(path, '');
    assert.equal(reasonOf(await checker.check(path)), 'wrong_type');
  });

  test('the PDF header is accepted anywhere in the first 1024 bytes, as readers do', async () => {
    const path = join(scratch, 'leading-junk.pdf');
    await writeFile(
      path,
      Buffer.concat([Buffer.alloc(1000, 0x20), await readFile(fixture('cv-2-pages.pdf'))]),
    );
    assert.equal(reasonOf(await checker.check(path)), 'ok');
    const late = join(scratch, 'late-header.pdf');
    await writeFile(
      late,
      Buffer.concat([Buffer.alloc(1024, 0x20), await readFile(fixture('cv-2-pages.pdf'))]),
    );
    assert.equal(reasonOf(await checker.check(late)), 'wrong_type');
  });

  test('too_large: one byte over the limit, decided before anything is parsed', async () => {
    // The real CV padded with a trailing PDF comment up to maxBytes + 1.
    const cv = await readFile(fixture('cv-2-pages.pdf'));
    const path = join(scratch, 'too-large.pdf');
    const padding = Buffer.alloc(LIMITS.maxBytes + 1 - cv.length, 0x20);
    padding[0] = 0x25; // '%'
    await writeFile(path, Buffer.concat([cv, padding]));
    const before = events.length;
    assert.equal(reasonOf(await checker.check(path)), 'too_large');
    const checked = events.slice(before).find((e) => e.type === 'checked');
    assert.deepEqual(checked && checked.type === 'checked' && checked.stage, 'size');
  });

  test('too_large also wins over wrong_type (size is checked first)', async () => {
    const path = join(scratch, 'big-png.pdf');
    await copyFile(fixture('png-renamed.pdf'), path);
    await writeFile(path, Buffer.alloc(LIMITS.maxBytes + 1), { flag: 'a' });
    assert.equal(reasonOf(await checker.check(path)), 'too_large');
  });

  test('too_many_pages: twelve pages of text', async () => {
    assert.equal(reasonOf(await checker.check(fixture('portfolio-12-pages.pdf'))), 'too_many_pages');
  });

  test('encrypted: a user password (AES-256, qpdf)', async () => {
    assert.equal(reasonOf(await checker.check(fixture('cv-user-password.pdf'))), 'encrypted');
  });

  test('no_text_layer: a scanned-looking, image-only PDF', async () => {
    assert.equal(reasonOf(await checker.check(fixture('scan-image-only.pdf'))), 'no_text_layer');
  });

  test('corrupt: a truncated download', async () => {
    assert.equal(reasonOf(await checker.check(fixture('truncated.pdf'))), 'corrupt');
  });

  test('corrupt: a page tree whose /Kids point back at itself', async () => {
    assert.equal(reasonOf(await checker.check(fixture('pages-cycle.pdf'))), 'corrupt');
  });
});

describe('CV check: hostile files are refused in time while the service keeps serving', () => {
  test('a decompression bomb (4 KB → 2 GiB) is caught by the pre-scan', async (t) => {
    await poolReady();
    const run = await checkWhileWatchingLoop(fixture('bomb-flate.pdf'));
    assert.equal(reasonOf(run.result), 'corrupt');
    assert.ok(run.ms < 1000, `took ${run.ms.toFixed(0)} ms`);
    assertResponsive(t, run);
    const checked = events.findLast((e) => e.type === 'checked');
    assert.ok(checked?.type === 'checked' && checked.stage === 'prescan' && checked.error === 'inflate_cap');
    await assertServesNormalCv();
  });

  test('a 10,000-page PDF (qpdf) is refused from its page count', async (t) => {
    await poolReady();
    const run = await checkWhileWatchingLoop(fixture('pages-10000.pdf'));
    assert.equal(reasonOf(run.result), 'too_many_pages');
    assert.ok(run.ms < REFUSAL_BUDGET_MS, `took ${run.ms.toFixed(0)} ms`);
    assertResponsive(t, run);
    await assertServesNormalCv();
  });

  test('a 10,000-page PDF with 10,000 content streams is refused from its page count', async (t) => {
    await poolReady();
    const path = join(scratch, 'pages-10000-streams.pdf');
    await writeTenThousandPagePdf(path);
    const run = await checkWhileWatchingLoop(path);
    assert.equal(reasonOf(run.result), 'too_many_pages');
    assert.ok(run.ms < REFUSAL_BUDGET_MS, `took ${run.ms.toFixed(0)} ms`);
    assertResponsive(t, run);
    await assertServesNormalCv();
  });

  test('a file that keeps the parser spinning is cut at the deadline; the child is killed and replaced', async (t) => {
    await poolReady();
    const before = events.length;
    const hostile = checkWhileWatchingLoop(fixture('forms-exponential.pdf'));
    // Meanwhile the other worker keeps answering normal CVs.
    const served: number[] = [];
    let spinning = true;
    void hostile.finally(() => {
      spinning = false;
    });
    while (spinning && served.length < 3) {
      const started = performance.now();
      await assertServesNormalCv();
      served.push(performance.now() - started);
    }
    const run = await hostile;
    assert.equal(reasonOf(run.result), 'corrupt');
    assert.ok(
      run.ms >= TIMEOUT_MS - 100,
      `refused after ${run.ms.toFixed(0)} ms: the deadline, not an error`,
    );
    assert.ok(run.ms < REFUSAL_BUDGET_MS, `took ${run.ms.toFixed(0)} ms`);
    assertResponsive(t, run);
    assert.ok(served.length >= 1, 'a normal CV was checked while the hostile one was running');
    for (const ms of served) assert.ok(ms < 2000, `a normal CV took ${ms.toFixed(0)} ms meanwhile`);

    const stopped = await waitForEvent('worker_stopped', before);
    assert.equal(stopped.cause, 'timeout');
    await poolReady();
    assert.ok(!liveWorkers().has(stopped.pid), 'the killed child is gone');
    assert.equal(liveWorkers().size, POOL_SIZE, 'and has been replaced');
    await assertServesNormalCv();
  });

  // What stops this bomb must be the memory limit, whatever the machine's load: a wall-clock bound
  // raced the deadline on a busy machine (the child inflates slower and the deadline fired
  // first). So this check gets its own pool whose deadline is far out of reach, and the test
  // asserts which limit fired, not how fast.
  test('a bomb the pre-scan cannot see (owner-password encrypted) hits the child memory limit', async (t) => {
    const own: CvCheckerEvent[] = [];
    const patient = createCvChecker({
      ...LIMITS,
      poolSize: 1,
      timeoutMs: 120_000,
      onEvent: (e) => own.push(e),
    });
    try {
      const run = await (async () => {
        const swap = checker;
        checker = patient;
        try {
          return await checkWhileWatchingLoop(fixture('bomb-owner-password.pdf'));
        } finally {
          checker = swap;
        }
      })();
      assert.equal(reasonOf(run.result), 'corrupt');
      assertResponsive(t, run);
      const started = own.find((e) => e.type === 'worker_started');
      const stopped = own.find((e) => e.type === 'worker_stopped');
      assert.ok(started && started.type === 'worker_started');
      assert.ok(stopped && stopped.type === 'worker_stopped', 'the child holding the bomb died');
      if (started.memoryLimit === 'none') {
        t.diagnostic('no OS memory limit on this platform: only the heap limit applies');
      } else {
        assert.equal(stopped.cause, 'out_of_memory');
      }
      assert.equal(reasonOf(await patient.check(fixture('cv-2-pages.pdf'))), 'ok', 'a fresh child serves');
    } finally {
      await patient.close();
    }
    await assertServesNormalCv();
  });
});

describe('rejectionMessage', () => {
  const reasons: CvRejectReason[] = [
    'wrong_type',
    'too_large',
    'too_many_pages',
    'encrypted',
    'no_text_layer',
    'corrupt',
  ];
  const locales: CvLocale[] = ['en', 'es', 'fr', 'pt'];

  test('every reason has its own non-empty detail and fix in every locale', () => {
    for (const locale of locales) {
      const seen = new Set<string>();
      for (const reason of reasons) {
        const { detail, fix } = rejectionMessage(reason, locale, LIMITS);
        assert.ok(detail.trim().length > 20, `${locale}/${reason} detail`);
        assert.ok(fix.trim().length > 20, `${locale}/${reason} fix`);
        assert.notEqual(detail, fix);
        for (const text of [detail, fix]) {
          assert.ok(!seen.has(text), `${locale}/${reason} repeats another reason's wording`);
          seen.add(text);
        }
      }
    }
  });

  test('each locale has its own wording (real translations)', () => {
    for (const reason of reasons) {
      const details = new Set(locales.map((locale) => rejectionMessage(reason, locale, LIMITS).detail));
      const fixes = new Set(locales.map((locale) => rejectionMessage(reason, locale, LIMITS).fix));
      assert.equal(details.size, locales.length, reason);
      assert.equal(fixes.size, locales.length, reason);
    }
  });

  test('the limits appear in the wording', () => {
    const nbsp = '\u00a0';
    assert.match(rejectionMessage('too_large', 'en', LIMITS).detail, new RegExp(`10${nbsp}MB`));
    assert.match(rejectionMessage('too_large', 'fr', LIMITS).fix, new RegExp(`10${nbsp}Mo`));
    assert.match(
      rejectionMessage('too_large', 'es', { maxBytes: 2.5 * 1024 * 1024, maxPages: 3 }).detail,
      /2,5/,
    );
    assert.match(rejectionMessage('too_many_pages', 'en', LIMITS).detail, new RegExp(`10${nbsp}pages`));
    assert.match(rejectionMessage('too_many_pages', 'pt', LIMITS).fix, new RegExp(`10${nbsp}páginas`));
    assert.match(
      rejectionMessage('too_many_pages', 'en', { ...LIMITS, maxPages: 1 }).fix,
      new RegExp(`1${nbsp}page `),
    );
  });
});

describe('createCvChecker', () => {
  test('refuses a memory limit too small for a parser child to start', () => {
    assert.throws(
      () => createCvChecker({ ...LIMITS, memoryLimitMb: MIN_MEMORY_LIMIT_MB - 1 }),
      (error: unknown) => error instanceof RangeError && /memoryLimitMb/.test(error.message),
    );
  });

  test('check() after close() rejects instead of blaming the file', async () => {
    const closed = createCvChecker({ ...LIMITS, poolSize: 1 });
    await closed.close();
    await assert.rejects(closed.check(fixture('cv-2-pages.pdf')), ParserPoolUnavailable);
  });
});
