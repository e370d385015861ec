import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PoolCvDescription } from './fixtures/matches/render-cv.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { claimLinksIn, mailTo } from './support/mail.ts';
import { backend, matchPool } from './support/match-pool.ts';

// The claim page's notice of automated matching and its "Don't match me" (extensions.md §7), in
// Chromium: axe-core and both widths before and after; the button is reachable by its name.

const ctx = useTestApp({ listen: true });
const browser = useBrowser();
const { account, importCv, settle } = matchPool(ctx);

describe('the claim page\'s "Don\'t match me" in Chromium', { skip: NO_CHROMIUM }, () => {
  test('the notice is read, the button pressed, the confirmation announced', async () => {
    const s = await account();
    const person = await importCv(s.api, backend[6] as PoolCvDescription);
    await settle();
    const [link] = claimLinksIn((await mailTo(ctx.app, person.email))[0]?.text ?? '');
    assert.ok(link);
    const context = await offlineContext(browser, ctx.baseUrl, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(link);
    assert.match((await page.locator('main').textContent()) ?? '', /automated system/);
    await accessibleAtBothWidths(page, 'claim-matching-notice');
    await page.getByRole('button', { name: "Don't match me" }).click();
    assert.equal(await page.locator('h1').textContent(), 'You will not be matched');
    assert.match((await page.getByRole('status').textContent()) ?? '', /will not match you/);
    assert.equal(await page.getByRole('button', { name: "Don't match me" }).count(), 0);
    await accessibleAtBothWidths(page, 'claim-opted-out');
    await context.close();
  });
});
