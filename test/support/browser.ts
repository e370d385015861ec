// Chromium for the page tests: Debian's /usr/bin/chromium driven by playwright-core, headless and
// offline. A test file without Chromium skips its browser tests (`{ skip: NO_CHROMIUM }`).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before } from 'node:test';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
  type Response,
} from 'playwright-core';
import { consoleCall, unique } from './accounts.ts';
import type { TestContext } from './app.ts';

// The page's document, as far as the functions evaluated in Chromium use it (no DOM lib here).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
declare const axe: {
  run(
    context: unknown,
    options: unknown,
  ): Promise<{
    violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
  }>;
};

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Where the page tests' screenshots go, to be looked at (SHOTS overrides). */
export const SHOTS = process.env.SHOTS ?? '/work/notes/shots';

/**
 * axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A/AA and best
 * practice), one line each. Injected through the DevTools protocol: the page's CSP does not apply.
 */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const { violations } = await page.evaluate(() =>
    axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * At 390 and 1280 px: no serious or critical axe-core finding, no sideways scrolling, a full-page
 * screenshot `<name>-<width>.png` in SHOTS; and the heading outline holds.
 */
export async function accessibleAtBothWidths(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await assertHeadingOutline(page, name);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `${name} at ${width} px: no sideways scrolling (${overflow})`);
    assert.deepEqual(await seriousAxeFindings(page), [], `${name} at ${width} px`);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

export const CHROMIUM = '/usr/bin/chromium';
/** False when Chromium is there; else why browser tests are skipped (node:test's `skip`). */
export const NO_CHROMIUM: false | string = fs.existsSync(CHROMIUM)
  ? false
  : `Chromium not found at ${CHROMIUM}`;
/** Where screenshots go (created by launchChromium). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '..', '..', 'test-artifacts');

/** A headless Chromium that reaches nothing on its own (no updates, no background traffic). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
  });
}

/**
 * One Chromium for the tests of a file: launched before the first test (unless Chromium is missing),
 * closed after the last, with every context `offlineContext` opened. Answers the browser, readable
 * inside tests and hooks.
 */
export function useBrowser(extraArgs: string[] = []): Browser {
  let browser: Browser | null = null;
  before(async () => {
    if (!NO_CHROMIUM) browser = await launchChromium(extraArgs);
  });
  after(async () => {
    await browser?.close();
    browser = null;
  });
  return new Proxy({} as Browser, {
    get(_target, key) {
      if (browser === null)
        throw new Error(`useBrowser: browser.${String(key)} read with no browser running`);
      const value = browser[key as keyof Browser];
      return typeof value === 'function' ? value.bind(browser) : value;
    },
  });
}

/**
 * A browser context whose requests may reach `baseUrl` only (everything else is aborted), with
 * 20-second timeouts.
 */
export async function offlineContext(
  browser: Browser,
  baseUrl: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(20_000);
  await context.route('**/*', (route) =>
    route.request().url().startsWith(baseUrl) ? route.continue() : route.abort(),
  );
  return context;
}

/**
 * A recruiter of the account, invited through the console API and signed in in a new offline
 * context by setting their password on the invitation page: answers the context and its page.
 */
export async function recruiterPage(
  browser: Browser,
  c: Pick<TestContext, 'app' | 'baseUrl'>,
  accountId: string,
  options: BrowserContextOptions = { viewport: { width: 1280, height: 900 } },
): Promise<{ context: BrowserContext; page: Page }> {
  const invited = await consoleCall(c.app, 'POST', `/accounts/${accountId}/users`, {
    email: `${unique('recruiter')}@example.com`.toLowerCase(),
    role: 'recruiter',
  });
  assert.equal(invited.statusCode, 201, invited.body);
  const context = await offlineContext(browser, c.baseUrl, options);
  const page = await context.newPage();
  await page.goto(invited.json().inviteUrl);
  await page.getByLabel('Password').fill(RECRUITER_PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  return { context, page };
}
export const RECRUITER_PASSWORD = 'a long and careful password';

/**
 * One h1, and every heading (h1–h6, in document order) at most one level below the one before it.
 * Answers the levels, for assertions of the page's own.
 */
export async function assertHeadingOutline(page: Page, name: string): Promise<number[]> {
  assert.equal(await page.locator('h1').count(), 1, `${name}: one h1`);
  const levels = (await page.evaluate(
    "Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'), (h) => Number(h.tagName.slice(1)))",
  )) as number[];
  for (let i = 1; i < levels.length; i++)
    assert.ok(levels[i]! <= levels[i - 1]! + 1, `${name}: headings in order (${levels.join(',')})`);
  return levels;
}

/**
 * The page at phone width (390 px: no sideways scrolling) and desktop width, a full-page screenshot
 * of each in ARTIFACTS as `<name>-390.png` and `<name>-1280.png`.
 */
export async function phoneAndDesktopShots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `${name}: no sideways scrolling at 390 px (${overflow})`);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-1280.png`), fullPage: true });
}

/** Runs `click` and waits for the apply form's POST to /apply/{jobId} to load as the new page. */
export async function submitApplyForm(
  page: Page,
  jobId: string,
  click: () => Promise<void>,
): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) =>
        r.request().method() === 'POST' &&
        new URL(r.url()).pathname === `/apply/${jobId}` &&
        r.request().isNavigationRequest(),
    ),
    page.waitForEvent('domcontentloaded'),
    click(),
  ]);
  return response;
}
