// The recruiter's pipeline in Chromium: the applications table (search, filter, select three and
// move them to Shortlisted) and one application's page (add a note, download the CV), each checked
// by axe-core at 390 and 1280 px, with screenshots in /work/notes/shots/ (or $SHOTS).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedApplications } from '../bench/pipeline-seed.ts';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { applyTo, pdfFixture } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

const PASSWORD = 'a long and careful password';

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

async function flash(page: Page): Promise<string> {
  return (await page.locator('.flash').textContent())?.trim() ?? '';
}

describe('the pipeline in Chromium', { skip: NO_CHROMIUM }, () => {
  test('search, filter, move three to Shortlisted, add a note, download the CV; axe clean at both widths', async () => {
    const intake = await intakeAccount(ctx.app);
    const accountId = intake.account.id as string;
    const job = await createPublished(intake.api, { title: 'Platform Engineer' });
    const real = await applyTo(ctx, intake.api, job.id, {
      name: 'Marisol Quintero',
      answers: [{ question: 'Notice period?', answer: 'One month' }],
    });
    await seedApplications(ctx.handle.db, { accountId, jobId: job.id }, 120);
    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${accountId}/users`, {
      email: `recruiter.${Date.now()}@example.com`,
      role: 'recruiter',
    });
    const context = await offlineContext(browser, ctx.baseUrl, {
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await page.goto(invited.json().inviteUrl);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.goto(`${ctx.baseUrl}/console/jobs/${job.id}/applications`);
    assert.match((await page.locator('h1').textContent()) ?? '', /Applications: Platform Engineer/);
    assert.equal(await page.locator('table.apps tbody tr').count(), 50);
    assert.match(
      (await page.locator('nav[aria-label="Applications by stage"]').textContent()) ?? '',
      /All\s*121/,
    );
    await accessibleAtBothWidths(page, 'pipeline-applications');

    // Search by name.
    await page.getByLabel('Name or email').fill('marisol');
    await page.getByRole('button', { name: 'Show' }).click();
    assert.equal(await page.locator('table.apps tbody tr').count(), 1);
    assert.match((await page.locator('table.apps').textContent()) ?? '', /Marisol Quintero/);

    // Filter: new applications that came through the job page.
    await page.goto(`${ctx.baseUrl}/console/jobs/${job.id}/applications`);
    await page.getByLabel('Stage', { exact: true }).selectOption('new');
    await page.getByLabel('Came from').selectOption({ label: 'Job page' });
    await page.getByRole('button', { name: 'Show' }).click();
    const filtered = await page.locator('table.apps tbody tr').count();
    assert.ok(filtered > 3, `${filtered} rows`);
    for (const cell of await page.locator('table.apps td[data-label="Came from"]').allTextContents())
      assert.equal(cell.trim(), 'Job page');
    await accessibleAtBothWidths(page, 'pipeline-applications-filtered');

    // Select three and move them to Shortlisted (a form post, back to the same filtered list).
    const before = Number(
      await page
        .locator('nav[aria-label="Applications by stage"] a', { hasText: 'Shortlisted' })
        .locator('.n')
        .textContent(),
    );
    const boxes = page.locator('table.apps tbody input[type=checkbox]');
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    // The script's live count and its select-all box (the form works without them).
    assert.equal((await page.locator('#selected-count').textContent())?.trim(), '3 selected');
    const selectAll = page.getByLabel('Select every application on this page');
    await selectAll.check();
    assert.equal((await page.locator('#selected-count').textContent())?.trim(), `${filtered} selected`);
    await selectAll.uncheck();
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    await page.getByLabel('Move the selected applications to').selectOption('shortlisted');
    await page.getByRole('button', { name: 'Move selected' }).click();
    assert.match(await flash(page), /3 applications moved to Shortlisted/);
    assert.match(page.url(), /stage=new/);
    const after = Number(
      await page
        .locator('nav[aria-label="Applications by stage"] a', { hasText: 'Shortlisted' })
        .locator('.n')
        .textContent(),
    );
    assert.equal(after, before + 3);

    // One application: its page, a note, the CV download.
    await page.goto(`${ctx.baseUrl}/console/jobs/${job.id}/applications?q=marisol`);
    await page.getByRole('link', { name: 'Marisol Quintero' }).click();
    assert.match((await page.locator('main').textContent()) ?? '', /Notice period\?\s*One month/);
    await page.getByLabel('Add a note').fill('Strong platform background; call on Monday.');
    await page.getByRole('button', { name: 'Add note' }).click();
    assert.match(await flash(page), /Note added/);
    assert.match((await page.locator('ol.notes').textContent()) ?? '', /call on Monday/);
    await page.getByLabel('Move to stage').selectOption('interviewing');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    assert.match(await flash(page), /Moved to Interviewing/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the CV (PDF)' }).click(),
    ]);
    const saved = await download.path();
    assert.ok(fs.readFileSync(saved!).equals(pdfFixture('cv-2-pages.pdf')), 'the original PDF');
    await accessibleAtBothWidths(page, 'pipeline-application');

    const audit = (await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/audit`)).json().entries as {
      action: string;
      target: string;
    }[];
    for (const action of ['application.note_added', 'application.cv_downloaded'])
      assert.ok(
        audit.some((e) => e.action === action && e.target === real.candidateId),
        action,
      );
    assert.equal(audit.filter((e) => e.action === 'application.stage_changed').length, 4);
    await context.close();
  });
});
