import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { consoleCall, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import {
  assertHeadingOutline,
  NO_CHROMIUM,
  offlineContext,
  phoneAndDesktopShots,
  useBrowser,
} from './support/browser.ts';
import { candidateBody, uploadPdf } from './support/intake.ts';
import { createPublished, manageJob } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';

// The DOM, as far as the functions run in Chromium below use it (tsconfig has no DOM lib).
interface DomElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
}
declare const window: { getComputedStyle(el: DomElement): { outlineStyle: string } };
declare const document: {
  activeElement: DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
};

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

interface AxNode {
  role?: { value?: string };
  name?: { value?: string };
  ignored?: boolean;
}

/**
 * What a screen reader is told about the page, from Chromium's own accessibility tree: the links
 * and buttons with their computed names, and the landmarks.
 */
async function accessibility(
  page: Page,
): Promise<{ controls: string[]; unnamed: string[]; landmarks: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
  await cdp.detach();
  const controls: string[] = [];
  const unnamed: string[] = [];
  const landmarks: string[] = [];
  for (const node of nodes) {
    if (node.ignored) continue;
    const role = node.role?.value ?? '';
    const name = (node.name?.value ?? '').trim();
    if (role === 'link' || role === 'button') (name ? controls : unnamed).push(`${role} ${name}`);
    if (['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'region'].includes(role))
      landmarks.push(role);
  }
  return { controls, unnamed, landmarks };
}

/**
 * Text whose contrast with the background behind it is under WCAG AA (4.5:1, 3:1 for large text),
 * computed in Chromium from the rendered colours; text off screen (the skip link, hidden suffixes)
 * is left out. A string, evaluated in the page (this file compiles without the DOM lib).
 */
const LOW_CONTRAST = `(() => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const lum = ({ r, g, b }) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a === 1) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || box.width === 0 || box.right < 0) continue;
    const [hi, lo] = [lum(parse(style.color)), lum(behind(el))].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(text.slice(0, 40) + ': ' + ratio.toFixed(2));
  }
  return low;
})()`;

/** The page as a person meets it: one h1, headings in order, named controls, landmarks, no overflow. */
async function checkPage(page: Page, name: string): Promise<string[]> {
  await phoneAndDesktopShots(page, name);
  const levels = await assertHeadingOutline(page, name);
  assert.equal(levels[0], 1, `${name}: the h1 comes first (${levels.join(',')})`);
  assert.deepEqual(await page.evaluate(LOW_CONTRAST), [], `${name}: text contrast at least WCAG AA`);
  const { controls, unnamed, landmarks } = await accessibility(page);
  assert.deepEqual(unnamed, [], `${name}: every link and button has an accessible name`);
  assert.ok(landmarks.includes('banner'), `${name}: a banner (${landmarks.join(',')})`);
  assert.ok(landmarks.includes('navigation'), `${name}: a navigation (${landmarks.join(',')})`);
  assert.equal(landmarks.filter((l) => l === 'main').length, 1, `${name}: one main (${landmarks.join(',')})`);
  // The keyboard's first stop skips the banner and the navigation, and shows where it is.
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? {
          text: el.textContent,
          href: el.getAttribute('href'),
          outline: window.getComputedStyle(el).outlineStyle,
        }
      : null;
  });
  assert.deepEqual(first, { text: 'Skip to content', href: '#main', outline: 'solid' }, `${name}: first Tab`);
  return controls;
}

describe('the console Matches page and a match’s CV in Chromium, without JavaScript', {
  skip: NO_CHROMIUM,
}, () => {
  test('a recruiter reads a managed role’s matches and a matched candidate’s CV at 390 and 1280 px', async () => {
    const s = await screeningAccount(ctx.app);
    const backend = (pool as (PoolCvDescription & { truth: { occupation: string } })[]).filter(
      (p) => p.truth.occupation === 'backend',
    );
    for (const cv of backend.slice(0, 3)) {
      const upload = await uploadPdf(ctx, s.api, await renderPoolCv(cv));
      const body = candidateBody(upload.uploadId, {
        name: cv.name,
        email: `${unique('m').toLowerCase()}@example.com`,
      });
      const res = await s.api.post('/v1/candidates', body, { 'idempotency-key': unique('idem') });
      assert.equal(res.statusCode, 201, res.body);
    }
    const job = await createPublished(s.api, BACKEND_ROLE);
    await manageJob(ctx.app, s.account.id, job.id);
    await drainAll(ctx.worker);
    ctx.clock.advance(REFRESH_BATCH_MS + 1);
    await ctx.services.maintenance();
    await drainAll(ctx.worker);
    const listed = await s.api.get(`/v1/jobs/${job.id}/matches`);
    assert.equal(listed.statusCode, 200, listed.body);
    const [best] = listed.json().matches as { candidateId: string; score: number; reasons: string[] }[];
    assert.ok(best, 'at least one match');

    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${s.account.id}/users`, {
      email: `${unique('recruiter')}@example.com`.toLowerCase(),
      role: 'recruiter',
    });
    assert.equal(invited.statusCode, 201, invited.body);
    const context = await offlineContext(browser, ctx.baseUrl, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(invited.json().inviteUrl);
    await page.getByLabel('Password').fill('a long and careful password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.goto(`${ctx.baseUrl}/console/jobs/${job.id}/matches`);
    assert.equal(await page.locator('table tbody tr').count(), 3);
    assert.match((await page.locator('table').textContent()) ?? '', /required skill: PostgreSQL/);
    await checkPage(page, 'console-matches');

    await page
      .getByRole('link', { name: new RegExp(`^Virtual CV.*${best.candidateId}`) })
      .first()
      .click();
    assert.equal(new URL(page.url()).pathname, `/console/jobs/${job.id}/candidates/${best.candidateId}`);
    const controls = await checkPage(page, 'console-match-cv');
    const main = (await page.locator('main').textContent()) ?? '';
    assert.ok(main.includes(`${Math.round(best.score * 100)}%`), 'the score is shown');
    for (const reason of best.reasons) assert.ok(main.includes(reason), `the reason “${reason}” is shown`);
    assert.ok(controls.includes('link Back to the matches'), controls.join(' | '));
    // The keyboard goes the way the eye reads: skip link, banner, navigation, then the page.
    const order = ['Skip to content'];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    assert.deepEqual(order, [
      'Skip to content',
      'Sign out',
      'Home',
      'Jobs',
      'Screening',
      'Your security',
      'Back to the matches',
      'Invite to screening',
    ]);

    // A recruiter dismisses a match with a reason, then reads the Dismissed view (issue 31).
    await page.goto(`${ctx.baseUrl}/console/jobs/${job.id}/matches`);
    await page
      .getByLabel(/Why dismiss this match/)
      .first()
      .fill('Wants a remote role only');
    await page
      .getByRole('button', { name: /^Dismiss/ })
      .first()
      .click();
    assert.match((await page.locator('main').textContent()) ?? '', /Match dismissed/);
    assert.equal(await page.locator('table tbody tr').count(), 2);
    await page.goto(`${ctx.baseUrl}/console/jobs/${job.id}/matches?view=dismissed`);
    assert.match((await page.locator('table').textContent()) ?? '', /Wants a remote role only/);
    await checkPage(page, 'console-matches-dismissed');
    await context.close();
  });
});
