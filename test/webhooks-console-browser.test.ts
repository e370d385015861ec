import assert from 'node:assert/strict';
import { test } from 'node:test';
import { consoleCall, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { NO_CHROMIUM, offlineContext, phoneAndDesktopShots, useBrowser } from './support/browser.ts';

/** The page's document, as the evaluated function sees it (this file compiles without the DOM lib). */
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

const PASSWORD = 'a long and careful password';

const ctx = useTestApp({ listen: true, webhooks: { allowPrivate: false } });
const browser = useBrowser();

test('the Webhooks page in Chromium without JavaScript: add one, see the secret once', {
  skip: NO_CHROMIUM,
}, async () => {
  const account = (await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Hook Co' })).json().account;
  const email = `${unique('admin')}@example.com`.toLowerCase();
  const invited = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
    email,
    role: 'admin',
  });
  const context = await offlineContext(browser, ctx.baseUrl, {
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
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
    const secret = await page.locator('#new-secret').inputValue();
    assert.match(secret, /^whsec_/);
    await phoneAndDesktopShots(page, 'console-webhooks');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    assert.equal(await page.locator('#new-secret').count(), 0, 'shown once');
    await page.getByLabel('Endpoint URL (https)').fill('https://169.254.169.254/latest');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /metadata/);
    await page.getByRole('link', { name: 'https://hooks.example.com/careers' }).click();
    assert.match(await page.content(), /Nothing delivered yet/);
    await phoneAndDesktopShots(page, 'console-webhook-deliveries');
  } finally {
    await context.close();
  }
});
