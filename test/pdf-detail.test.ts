// The CV check's `detail` (issue 14): accepting an application asks for the verdict only, a
// candidate import for the plain text, the build task for the layout with font names. The verdict
// must not depend on it, and each level must bring back what it promises and no more.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type CvChecker, type CvCheckResult, createCvChecker, type TextDetail } from '../src/pdf/cv-check.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/pdf/${name}`, import.meta.url));
const FIXTURES = [
  'cv-2-pages.pdf',
  'portfolio-12-pages.pdf',
  'scan-image-only.pdf',
  'cv-user-password.pdf',
  'truncated.pdf',
  'not-a-cv-menu.pdf',
  'pages-10000.pdf',
];
const LEVELS: TextDetail[] = ['none', 'plain', 'layout'];

let checker: CvChecker;
before(() => {
  checker = createCvChecker({ maxBytes: 10 * 1024 * 1024, maxPages: 10, poolSize: 1 });
});
after(() => checker.close());

const verdictOf = (result: CvCheckResult) =>
  result.ok ? { ok: true, pages: result.pages } : { ok: false, reason: result.reason };

test('every detail level gives the same verdict on every fixture', async () => {
  for (const name of FIXTURES) {
    const results = [];
    for (const detail of LEVELS) results.push(await checker.check(fixture(name), undefined, detail));
    const [none, plain, layout] = results.map(verdictOf);
    assert.deepEqual(none, layout, `${name}: none vs layout`);
    assert.deepEqual(plain, layout, `${name}: plain vs layout`);
  }
});

test('none brings back no text; plain the text without font names; layout names the fonts', async () => {
  const [none, plain, layout] = await Promise.all(
    LEVELS.map((detail) => checker.check(fixture('cv-2-pages.pdf'), undefined, detail)),
  );
  assert.ok(none?.ok && plain?.ok && layout?.ok);
  assert.equal(none.pages, 2);
  assert.deepEqual(none.text, []);

  const strings = (r: typeof layout) => r.text.flatMap((p) => p.items.map((i) => i.str));
  assert.equal(plain.text.length, 2);
  assert.deepEqual(strings(plain), strings(layout));
  assert.ok(strings(plain).length > 10);
  // Without the operator list only pdf.js's internal ids are known (g_d0_f1), never a real name.
  assert.ok(plain.text.every((p) => p.items.every((i) => /^g_d\d+_f\d+$/.test(i.fontName) && !i.bold)));
  assert.ok(layout.text.some((p) => p.items.some((i) => !/^g_d\d+_f\d+$/.test(i.fontName))));
  assert.ok(layout.text.some((p) => p.items.some((i) => i.bold)));
  // The default is the full layout, as before the levels existed.
  const byDefault = await checker.check(fixture('cv-2-pages.pdf'));
  assert.deepEqual(byDefault, layout);
});
