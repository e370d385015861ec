import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { client, consoleCall, intakeAccount, newKey, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { createPublished } from './support/jobs.ts';

// Test mode in Chromium (extensions.md §8): the API keys page with a test key and test data, and
// a test job's page with its notice; axe-core and both widths on each.

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

describe('test mode in Chromium', { skip: NO_CHROMIUM }, () => {
  test('an admin mints a test key, sees the test data apart and deletes it; a test job page', async () => {
    const intake = await intakeAccount(ctx.app);
    const writer = client(
      ctx.app,
      (await newKey(ctx.app, intake.account.id, ['jobs:read', 'jobs:write'], 'test')).secret,
    );
    const job = await createPublished(writer, {
      title: 'Sandbox Engineer',
      location: { country: 'GB', city: 'Leeds' },
    });
    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${intake.account.id}/users`, {
      email: `${unique('admin')}@example.com`.toLowerCase(),
      role: 'admin',
    });
    const context = await offlineContext(browser, ctx.baseUrl, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(invited.json().inviteUrl);
    await page.getByLabel('Password').fill('a long and careful password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Sandbox');
    await page.getByRole('radio', { name: /Test: a sandbox/ }).check();
    await page.getByLabel('jobs:read').check();
    await page.getByRole('button', { name: 'Mint key' }).click();
    assert.match(await page.locator('#new-secret').inputValue(), /^cak_test_/);
    await page.getByRole('link', { name: 'API keys' }).click();
    assert.match((await page.locator('[data-test-counts]').textContent()) ?? '', /^1 test job,/);
    await accessibleAtBothWidths(page, 'keys-test-data');
    await page.getByRole('button', { name: 'Delete all test data' }).click();
    assert.match((await page.locator('[data-test-counts]').textContent()) ?? '', /^0 test jobs,/);

    // A test job's page (made again: the first went with the test data).
    const again = await createPublished(writer, {
      title: 'Sandbox Engineer',
      location: { country: 'GB', city: 'Leeds' },
    });
    assert.notEqual(again.id, job.id);
    await page.goto(again.url!.replace(/^https?:\/\/[^/]+/, ctx.baseUrl));
    assert.match((await page.locator('.test-job').textContent()) ?? '', /Test job/);
    await accessibleAtBothWidths(page, 'job-page-test');
  });
});
