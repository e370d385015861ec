import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page, Response } from 'playwright-core';
import { ManualClock } from '../src/lib/clock.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { startListeningApp, useTestApp } from './support/app.ts';
import { ARTIFACTS, NO_CHROMIUM, offlineContext, submitApplyForm, useBrowser } from './support/browser.ts';
import { createPublished } from './support/jobs.ts';

// The apply page's states in a real browser at phone and desktop width, screenshots in
// test-artifacts/, and the burst challenge: the page's script solves the proof of work; a browser
// without JavaScript waits and the form still works.

declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const CV_PDF = path.resolve(import.meta.dirname, 'fixtures', 'pdf', 'cv-2-pages.pdf');
const WAIT_MS = 4000;
const WIDTHS = [390, 1280] as const;

const ctx = useTestApp(
  {
    listen: true,
    clock: new ManualClock('2026-03-17T09:00:00.000Z'),
    applyPage: { burstPerAddress: 1000, burstPerJob: 1000, waitMs: WAIT_MS, powBits: 12 },
  },
  async () => {
    intake = await intakeAccount(ctx.app, { companyName: 'Screens Ltd' });
  },
);
const browser = useBrowser();
let intake: Awaited<ReturnType<typeof intakeAccount>>;

async function open(width: number, javaScriptEnabled = true): Promise<Page> {
  const context = await offlineContext(browser, ctx.baseUrl, {
    viewport: { width, height: 900 },
    javaScriptEnabled,
  });
  return context.newPage();
}

function submit(page: Page, jobId: string): Promise<Response> {
  return submitApplyForm(page, jobId, () =>
    page.getByRole('button', { name: 'I agree — send my application' }).click(),
  );
}

async function noOverflow(page: Page, label: string) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= inner, `${label}: ${scroll}px wide in ${inner}px`);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
}

const email = () => `${unique('screens').toLowerCase()}@example.com`;

describe('apply page states in Chromium', { skip: NO_CHROMIUM }, () => {
  for (const width of WIDTHS) {
    test(`${width}px: the form, an error with the file kept, sent without choosing the file again, the way on`, async () => {
      const job = await createPublished(intake.api, { title: `Warehouse Lead ${width}` });
      const page = await open(width);
      await page.goto(job.applyLink);
      await noOverflow(page, 'form');
      await shot(page, `apply-form-${width}.png`);

      await page.getByLabel('Full name').fill('Noor Haddad');
      await page.getByLabel('Email', { exact: true }).fill('noor-at-example');
      await page.getByLabel('Your CV (PDF)').setInputFiles(CV_PDF);
      const refused = await submit(page, job.id);
      assert.equal(refused.status(), 400);
      assert.match(
        await page.locator('#cv-kept').innerText(),
        /We kept the file you sent \(cv-2-pages\.pdf\)/,
      );
      assert.equal(await page.getByLabel('Your CV (PDF)').getAttribute('required'), null);
      await noOverflow(page, 'error');
      await shot(page, `apply-error-file-kept-${width}.png`);

      await page.getByLabel('Email', { exact: true }).fill(email());
      const sent = await submit(page, job.id);
      assert.equal(sent.status(), 201);
      assert.equal(await page.locator('h1').innerText(), 'Application sent');
      const back = page.getByRole('link', { name: `Back to Warehouse Lead ${width}` });
      assert.equal(await back.count(), 1);
      assert.equal(await page.getByRole('link', { name: 'See all jobs' }).count(), 1);
      await noOverflow(page, 'sent');
      await shot(page, `apply-sent-${width}.png`);
      await back.click();
      await page.waitForLoadState('domcontentloaded');
      assert.equal(await page.locator('h1').innerText(), `Warehouse Lead ${width}`);
      await page.context().close();
    });
  }

  test('after a burst: the script finds the proof of work (no wait); without JavaScript the answer waits, and works', async () => {
    const burst = await startListeningApp({
      clock: new ManualClock('2026-03-17T10:00:00.000Z'),
      applyPage: { burstPerAddress: 0, burstPerJob: 1000, waitMs: WAIT_MS, powBits: 12 },
    });
    try {
      const account = await intakeAccount(burst.app);
      const job = await createPublished(account.api, { title: 'Challenged Role' });
      for (const javaScript of [true, false]) {
        const context = await offlineContext(browser, burst.baseUrl, {
          viewport: { width: 390, height: 900 },
          javaScriptEnabled: javaScript,
        });
        const page = await context.newPage();
        await page.goto(job.applyLink);
        await page.getByLabel('Full name').fill('Sam Reyes');
        await page.getByLabel('Email', { exact: true }).fill(email());
        await page.getByLabel('Your CV (PDF)').setInputFiles(CV_PDF);
        const started = performance.now();
        const res = await submit(page, job.id);
        const ms = performance.now() - started;
        assert.equal(res.status(), 201, `${javaScript ? 'with' : 'without'} JavaScript`);
        const pow = new URL(res.url()).searchParams.get('pow');
        if (javaScript) {
          assert.ok(pow, 'the script sent a proof of work');
          assert.ok(ms < WAIT_MS, `with the proof: ${ms.toFixed(0)} ms`);
        } else {
          assert.equal(pow, null);
          assert.ok(ms >= WAIT_MS - 200, `without JavaScript the answer waited: ${ms.toFixed(0)} ms`);
          await shot(page, 'apply-sent-after-wait-390.png');
        }
        await context.close();
      }
      const apps = await consoleCall(
        burst.app,
        'GET',
        `/accounts/${account.account.id}/jobs/${job.id}/applications`,
      );
      assert.equal(apps.json().applications.length, 2);
    } finally {
      await burst.close();
    }
  });
});
