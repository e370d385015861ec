import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, type Page, chromium } from 'playwright-core';
import { type TestContext, closeDatabase, consoleCall, startListeningApp, unique } from './harness.ts';

/** The page's document, as the evaluated function sees it (this file compiles without the DOM lib). */
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

const CHROMIUM = '/usr/bin/chromium';
const SKIP = fs.existsSync(CHROMIUM) ? false : `Chromium not found at ${CHROMIUM}`;
const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'test-artifacts');
const PASSWORD = 'a long and careful password';

let ctx: TestContext & { baseUrl: string };
let browser: Browser;

before(async () => {
  if (SKIP) return;
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  ctx = await startListeningApp({ webhooks: { allowPrivate: false } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
});

after(async () => {
  await browser?.close();
  await ctx?.close();
  await closeDatabase();
});

async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `${name}: no sideways scrolling at 390 px (${overflow})`);
  await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}-1280.png`), fullPage: true });
}

test('the Webhooks page in Chromium without JavaScript: add one, see the secret once', {
  skip: SKIP,
}, async () => {
  const account = (await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Hook Co' })).json().account;
  const email = `${unique('admin')}@example.com`.toLowerCase();
  const invited = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
    email,
    role: 'admin',
  });
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  await context.route('**/*', (route) =>
    route.request().url().startsWith(ctx.baseUrl) ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  try {
    await page.goto(invited.json().inviteUrl);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    assert.equal(await page.locator('h1').count(), 1);
    await page.getByLabel('Endpoint URL (https)').fill('https://hooks.example.com/careers');
    await page.getByLabel('job.published').check();
    await page.getByLabel('job.expired').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await page.locator('#new-secret').textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    await shoot(page, 'webhooks');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    assert.equal(await page.locator('#new-secret').count(), 0, 'shown once');
    await page.getByLabel('Endpoint URL (https)').fill('https://169.254.169.254/latest');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /metadata/);
    await page.getByRole('link', { name: 'https://hooks.example.com/careers' }).click();
    assert.match(await page.content(), /Nothing delivered yet/);
    await shoot(page, 'webhook-deliveries');
  } finally {
    await context.close();
  }
});
