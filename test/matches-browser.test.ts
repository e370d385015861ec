import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { consoleCall, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { ARTIFACTS, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { candidateBody, uploadPdf } from './support/intake.ts';
import { createPublished, manageJob } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';

// The DOM, as far as the function run in Chromium below uses it (tsconfig has no DOM lib).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

describe('the console Matches page in Chromium, without JavaScript', { skip: NO_CHROMIUM }, () => {
  test('a recruiter reads a managed role’s matches at 390 and 1280 px', async () => {
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
    assert.equal(await page.locator('h1').count(), 1);
    assert.equal(await page.locator('table tbody tr').count(), 3);
    assert.match((await page.locator('table').textContent()) ?? '', /required skill: PostgreSQL/);
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling at 390 px (${overflow})`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-matches-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-matches-1280.png'), fullPage: true });
    await context.close();
  });
});
