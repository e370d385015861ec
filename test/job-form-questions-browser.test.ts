import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, recruiterPage, SHOTS, useBrowser } from './support/browser.ts';

/**
 * Issue 28 item 7 in Chromium: a recruiter adds questions with the keyboard-reachable buttons,
 * each row shows only the fields its answer type uses, an error lands on its field, and the saved
 * questions are the job's; axe-core finds nothing serious at phone and desktop width.
 */

// The DOM, as far as the function run in Chromium below uses it (tsconfig has no DOM lib).
declare const document: { activeElement: { id: string } | null };

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

describe('the question editor in Chromium', { skip: NO_CHROMIUM }, () => {
  test('add, type, move and save questions; errors on their fields; accessible at 390 and 1280 px', async () => {
    const intake = await intakeAccount(ctx.app, { companyName: 'Harbour Logistics' });
    const { context, page } = await recruiterPage(browser, ctx, intake.account.id);
    await page.goto(`${ctx.baseUrl}/console/jobs/new`);
    await page.getByLabel('Job title').fill('Night Shift Picker');
    await page.getByLabel('Category').selectOption('logistics');
    await page.getByLabel('Description', { exact: true }).fill('Pick and pack.');

    await page.getByRole('button', { name: 'Add a question' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'q-0-label');
    await page.keyboard.type('Do you hold a forklift licence?');
    await page.locator('#q-0-type').selectOption('yes_no');
    await page.locator('#q-0-required').check();
    assert.equal(await page.locator('#q-0-options').isVisible(), false, 'a yes/no question has no choices');
    assert.equal(await page.locator('#q-0-min').isVisible(), false);

    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.locator('#q-1-label').fill('Preferred shift');
    await page.locator('#q-1-type').selectOption('single_select');
    assert.equal(await page.locator('#q-1-options').isVisible(), true, 'a list shows its choices box');
    await page.locator('#q-1-options').fill('Early');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.locator('#q-2-label').fill('Years on a warehouse floor');
    await page.locator('#q-2-type').selectOption('number');
    assert.equal(await page.locator('#q-2-min').isVisible(), true);
    assert.equal(await page.locator('#q-2-maxLength').isVisible(), false);
    await page.getByRole('button', { name: 'Move up question 3' }).click();
    assert.equal(await page.locator('#q-1-label').inputValue(), 'Years on a warehouse floor');
    await accessibleAtBothWidths(page, 'job-form-questions');
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .locator('#fs-questions')
      .screenshot({ path: path.join(SHOTS, 'job-form-questions-fieldset-390.png') });

    // One choice is not a list: the error is on the choices box, which stays shown, the values kept.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Create job' }).click();
    const summary = page.locator('#form-errors');
    assert.match((await summary.textContent()) ?? '', /2 to 100 choices/);
    assert.equal(await page.locator('#q-2-options').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#q-2-options').isVisible(), true);
    assert.equal(await page.locator('#q-0-label').inputValue(), 'Do you hold a forklift licence?');
    await accessibleAtBothWidths(page, 'job-form-questions-error');

    await page.locator('#q-2-options').fill('Early\nLate\nNights');
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.waitForURL(/\/console\/jobs\/job_/);
    const jobId = page.url().split('/').at(-1)!;
    const jobs = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}/jobs`);
    const saved = jobs.json().jobs.find((j: { id: string }) => j.id === jobId);
    assert.deepEqual(
      saved.questions.map((q: { id: string; type: string; required: boolean }) => [q.id, q.type, q.required]),
      [
        ['do_you_hold_a_forklift_licence', 'yes_no', true],
        ['years_on_a_warehouse_floor', 'number', false],
        ['preferred_shift', 'single_select', false],
      ],
    );
    await context.close();
  });
});
