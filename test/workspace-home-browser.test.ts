import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../src/lib/clock.ts';
import { intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, recruiterPage, useBrowser } from './support/browser.ts';
import { applyTo } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

// The DOM, as far as the functions run in Chromium below use it (tsconfig has no DOM lib).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

const ctx = useTestApp({ listen: true, clock: new ManualClock(new Date('2026-03-15T09:00:00.000Z')) });
const browser = useBrowser();

/** Copies of the account's applications spread over the last 30 days: a busy account's Home. */
async function manyApplications(accountId: string, count: number): Promise<void> {
  const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
    WHERE table_name = 'applications' ORDER BY ordinal_position`.execute(ctx.handle.db);
  const names = columns.rows.map((c) => c.column_name);
  const value = (name: string) =>
    name === 'id'
      ? `a.id || '_copy_' || g`
      : name === 'email_key'
        ? 'NULL'
        : name === 'created_at'
          ? `timestamptz '2026-03-15T08:00:00Z' - ((floor(30 * power(((g * 7919) % 1000) / 1000.0, 1.6)) + CASE WHEN g % 7 < 2 THEN 1 ELSE 0 END) || ' days')::interval - ((g % 9) || ' hours')::interval`
          : name === 'source_channel'
            ? `(ARRAY['job_page','job_page','integrator_site','api'])[1 + g % 4]`
            : name === 'stage'
              ? `(ARRAY['new','new','reviewing','shortlisted','rejected'])[1 + g % 5]`
              : name === 'claimed_at'
                ? `CASE WHEN g % 3 = 0 THEN now() END`
                : `a.${name}`;
  await sql
    .raw(`INSERT INTO applications (${names.join(', ')})
      SELECT ${names.map(value).join(', ')}
      FROM (SELECT * FROM applications WHERE account_id = '${accountId}' ORDER BY id LIMIT 1) a,
        generate_series(1, ${count}) g`)
    .execute(ctx.handle.db);
  const views = await sql<{ id: string }>`SELECT id FROM jobs WHERE account_id = ${accountId}`.execute(
    ctx.handle.db,
  );
  for (const [i, job] of views.rows.entries()) {
    for (let d = 0; d < 30; d++) {
      const day = new Date(Date.UTC(2026, 2, 15 - d)).toISOString().slice(0, 10);
      await sql`INSERT INTO job_page_views (job_id, day, kind, count) VALUES
        (${job.id}, ${day}::date, 'job_page', ${400 + ((d * 37 + i * 11) % 250)}),
        (${job.id}, ${day}::date, 'apply_page', ${120 + ((d * 17 + i * 5) % 90)})`.execute(ctx.handle.db);
    }
  }
}

describe('Home and the job form in Chromium', { skip: NO_CHROMIUM }, () => {
  test('a busy account: Home, the Jobs list and the full job form, checked by axe-core at 390 and 1280 px', async () => {
    const intake = await intakeAccount(ctx.app, { companyName: 'Harbour Logistics' });
    const roles = ['Warehouse Team Lead', 'Senior Platform Engineer', 'Customer Success Manager'];
    const jobs = [];
    for (const title of roles) jobs.push(await createPublished(intake.api, { title }));
    await applyTo(ctx, intake.api, jobs[0]!.id);
    await manyApplications(intake.account.id, 2_000);

    const { context, page } = await recruiterPage(browser, ctx, intake.account.id);

    // Home: the chart and its table agree with the database.
    assert.equal(await page.locator('h1').textContent(), 'Home');
    const expected = await sql<{ n: number }>`SELECT count(*)::int AS n FROM applications
      WHERE account_id = ${intake.account.id} AND created_at >= '2026-02-14T00:00:00Z'`.execute(
      ctx.handle.db,
    );
    assert.equal(
      Number((await page.locator('#applications-30').textContent())!.replaceAll(',', '')),
      expected.rows[0]!.n,
    );
    const bars = await page
      .locator('#per-day-chart rect.bar')
      .evaluateAll((rects) =>
        rects.map((r) =>
          Number((r as unknown as { getAttribute(n: string): string }).getAttribute('data-count')),
        ),
      );
    await page.getByText('Show the figures as a table').click();
    const cells = await page.locator('#per-day-table tbody td').allTextContents();
    assert.deepEqual(
      cells.map((c) => Number(c.replaceAll(',', ''))),
      bars,
      'the table holds the chart’s figures',
    );
    assert.equal(
      bars.reduce((a, b) => a + b, 0),
      expected.rows[0]!.n,
    );
    await accessibleAtBothWidths(page, 'workspace-home');

    // The Jobs list: counts, each a link to the job's applications.
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await accessibleAtBothWidths(page, 'workspace-jobs-list');
    await page.getByRole('link', { name: roles[1]!, exact: true }).click();
    await accessibleAtBothWidths(page, 'workspace-job-edit');

    // The full form: a description with a script, previewed; then errors on their fields.
    await page.goto(`${ctx.baseUrl}/console/jobs/new`);
    await page.getByLabel('Job title').fill('Night Shift Picker');
    await page.getByLabel('Category').selectOption('logistics');
    await page
      .getByLabel('Description', { exact: true })
      .fill('<h2>About the role</h2><p>Pick and pack <strong>fast</strong>.</p><script>alert(1)</script>');
    await page.getByLabel('Skill 1', { exact: true }).fill('Forklift licence');
    await page.getByLabel('Lowest pay').fill('52000');
    await page.getByLabel('Highest pay').fill('58000');
    await page.getByLabel('Currency').fill('AUD');
    await page.getByRole('button', { name: 'Preview the description' }).click();
    const kept = (await page.locator('#description-preview .rendered').innerHTML()).trim();
    assert.equal(kept, '<h2>About the role</h2><p>Pick and pack <strong>fast</strong>.</p>');
    assert.equal(await page.getByLabel('Skill 1', { exact: true }).inputValue(), 'Forklift licence');
    await accessibleAtBothWidths(page, 'workspace-job-form-preview');

    // The job page preview opens in a new tab, marked Preview; nothing is saved.
    const [preview] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: /Preview the job page/ }).click(),
    ]);
    await preview.waitForLoadState();
    assert.match((await preview.locator('.preview').textContent()) ?? '', /Preview/);
    assert.equal(await preview.locator('h1').textContent(), 'Night Shift Picker');
    await accessibleAtBothWidths(preview, 'workspace-job-page-preview');
    await preview.close();

    await page.getByLabel('Lowest pay').fill('a lot');
    await page.getByLabel('Job title').fill('');
    await page.getByRole('button', { name: 'Create job' }).click();
    assert.match((await page.locator('.error-summary').textContent()) ?? '', /2 fields need a change/);
    assert.equal(await page.getByLabel('Lowest pay').getAttribute('aria-invalid'), 'true');
    await accessibleAtBothWidths(page, 'workspace-job-form-errors');
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs
      WHERE account_id = ${intake.account.id}`.execute(ctx.handle.db);
    assert.equal(count.rows[0]!.n, 3, 'previews and refusals saved nothing');

    // With JavaScript, the toolbar wraps the selection in HTML the sanitiser keeps.
    await page.goto(`${ctx.baseUrl}/console/jobs/new`);
    const box = page.getByLabel('Description', { exact: true });
    await box.fill('Great team');
    await box.selectText();
    await page
      .getByRole('toolbar', { name: 'Format the description' })
      .getByRole('button', { name: 'Bold' })
      .click();
    assert.equal(await box.inputValue(), '<strong>Great team</strong>');
  });
});
