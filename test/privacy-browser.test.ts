import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { applyTo } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

// The Data protection page (extensions.md §6) as an admin uses it, in Chromium: retention saved,
// an erasure request confirmed and its receipt listed; axe-core and both widths on each state.

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

describe('the Data protection page in Chromium', { skip: NO_CHROMIUM }, () => {
  test('an admin keeps data 90 days, erases a person, and reads the receipt', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Privacy Clerk' });
    const { email } = await applyTo(ctx, intake.api, job.id);
    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${intake.account.id}/users`, {
      email: `${unique('admin')}@example.com`.toLowerCase(),
      role: 'admin',
    });
    assert.equal(invited.statusCode, 201, invited.body);
    const context = await offlineContext(browser, ctx.baseUrl, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(invited.json().inviteUrl);
    await page.getByLabel('Password').fill('a long and careful password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.getByRole('link', { name: 'Data protection' }).click();
    assert.equal(await page.locator('h1').textContent(), 'Data protection');
    await accessibleAtBothWidths(page, 'privacy');

    await page.getByLabel('Applications: days after the role closes or expires').fill('90');
    await page.getByRole('button', { name: 'Save how long data is kept' }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /kept 90 days/);

    await page.locator('#erase-email').fill(email);
    await page.getByLabel('I understand this erases their data for good').check();
    await page.getByRole('button', { name: 'Erase their data' }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /Erased: 1 application/);
    assert.equal(await page.locator('table.receipts caption').textContent(), 'Newest first');
    await accessibleAtBothWidths(page, 'privacy-erased');
    await context.close();
  });
});
