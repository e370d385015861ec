import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ManualClock } from '../src/lib/clock.ts';
import { client, consoleCall, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import {
  assertHeadingOutline,
  NO_CHROMIUM,
  offlineContext,
  phoneAndDesktopShots,
  useBrowser,
} from './support/browser.ts';
import { applicationBody, pdfFixture, uploadPdf } from './support/intake.ts';
import { drainAll } from './support/mail.ts';

// The DOM, as far as the functions run in Chromium below use it (tsconfig has no DOM lib).
interface DomElement {
  id: string;
  tagName: string;
  type?: string;
  getAttribute(name: string): string | null;
}
declare const window: { getComputedStyle(el: DomElement): { outlineStyle: string } };
declare const document: {
  activeElement: DomElement | null;
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): ArrayLike<DomElement>;
};

const PASSWORD = 'a long and careful password';

const ctx = useTestApp({ listen: true, clock: new ManualClock(new Date('2026-03-15T09:00:00.000Z')) });
// Closing the browser closes the contexts opened in it.
const browser = useBrowser();

/** A person's browser, without JavaScript: every page must work as plain forms. */
async function person(): Promise<Page> {
  const context = await offlineContext(browser, ctx.baseUrl, {
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
  return context.newPage();
}

/** Labels, one h1, no sideways scrolling at phone width; then screenshots at 390 and 1280. */
async function capture(page: Page, name: string): Promise<void> {
  const unlabelled = await page.evaluate(() => {
    const out: string[] = [];
    const fields = document.querySelectorAll('input, select, textarea');
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (field.getAttribute('type') === 'hidden') continue;
      const labelled = field.id !== '' && document.querySelectorAll(`label[for="${field.id}"]`).length > 0;
      const wrapped =
        document.querySelectorAll(`label input[value="${field.getAttribute('value')}"]`).length > 0;
      if (!labelled && !wrapped) out.push(`${field.tagName} ${field.getAttribute('name')}`);
    }
    return out;
  });
  assert.deepEqual(unlabelled, [], `${name}: every field has a label`);
  await assertHeadingOutline(page, name);
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() =>
    document.activeElement ? window.getComputedStyle(document.activeElement).outlineStyle : 'none',
  );
  assert.notEqual(outline, 'none', `${name}: the focused control shows its focus`);
  await phoneAndDesktopShots(page, `console-${name}`);
}

async function flash(page: Page): Promise<string> {
  return (await page.locator('.flash').textContent())?.trim() ?? '';
}

async function acceptInvitation(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
}

describe('the console, walked in Chromium without JavaScript', { skip: NO_CHROMIUM }, () => {
  test('operator → admin → recruiter → billing admin, and the Activity page lists it all', async () => {
    const v1 = (secret: string) =>
      fetch(`${ctx.baseUrl}/v1/jobs`, { headers: { authorization: `Bearer ${secret}` } });

    // The operator creates the account and invites its first admin.
    const account = (
      await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Walk Co', companyName: 'Walkers Ltd' })
    ).json().account;
    const adminEmail = `${unique('admin')}@example.com`.toLowerCase();
    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: adminEmail,
      role: 'admin',
    });
    assert.equal(invited.statusCode, 201, invited.body);

    // The admin sets a password and lands on the empty Jobs page.
    const admin = await person();
    await acceptInvitation(admin, invited.json().inviteUrl);
    assert.equal(await admin.locator('h1').textContent(), 'Home', 'signed in, Home first');
    await admin.getByRole('link', { name: 'Jobs', exact: true }).click();
    assert.match((await admin.locator('main').textContent()) ?? '', /No jobs yet — Create a job/);
    await capture(admin, 'jobs-empty');

    // Settings: the company address and the addendum.
    await admin.getByRole('link', { name: 'Settings' }).click();
    await admin.getByRole('textbox', { name: 'Company address' }).fill('walkers');
    await admin.getByRole('button', { name: 'Save address' }).click();
    assert.match(await flash(admin), /Company address saved: walkers/);
    await admin.getByLabel(/I accept the data-processing addendum/).check();
    await admin.getByRole('button', { name: 'Accept addendum' }).click();
    assert.match(await flash(admin), /addendum accepted/);
    await capture(admin, 'settings');

    // API keys: mint one (the secret shown once) that works on /v1, then revoke it.
    await admin.getByRole('link', { name: 'API keys' }).click();
    await admin.getByLabel('Name').fill('Careers site');
    await admin.getByLabel('jobs:read').check();
    await admin.getByRole('button', { name: 'Mint key' }).click();
    const secret = await admin.locator('#new-secret').inputValue();
    assert.match(secret, /^cak_/);
    await capture(admin, 'keys-minted');
    assert.equal((await v1(secret)).status, 200);
    await admin.goto(`${ctx.baseUrl}/console/keys`);
    assert.equal(await admin.locator('#new-secret').count(), 0, 'the secret is shown once');
    await admin.getByRole('button', { name: 'Revoke Careers site' }).click();
    assert.match(await flash(admin), /Key revoked/);
    assert.equal((await v1(secret)).status, 401);
    // A second key takes the applications this walk reads later.
    await admin.getByLabel('Name').fill('Intake');
    for (const scope of ['jobs:read', 'applications:write']) await admin.getByLabel(scope).check();
    await admin.getByRole('button', { name: 'Mint key' }).click();
    const intakeSecret = await admin.locator('#new-secret').inputValue();
    await admin.getByRole('link', { name: 'API keys' }).click();

    // Users: invite a recruiter and a billing admin.
    const links: Record<string, string> = {};
    for (const role of ['Recruiter', 'Billing admin']) {
      await admin.getByRole('link', { name: 'Users' }).click();
      await admin.getByLabel('Email').fill(`${unique(role.replace(' ', '-').toLowerCase())}@example.com`);
      await admin.locator('#invite-role').selectOption({ label: role });
      await admin.getByRole('button', { name: 'Invite user' }).click();
      assert.match(await flash(admin), /Invitation sent/);
      links[role] = (await admin.locator('.secret').textContent())!.trim();
    }
    await capture(admin, 'users');

    // The recruiter creates, publishes, edits (staged) and promotes a job.
    const recruiter = await person();
    await acceptInvitation(recruiter, links.Recruiter!);
    await recruiter.getByRole('link', { name: 'Create a job' }).click();
    await recruiter.getByLabel('Job title').fill('Platform Engineer');
    await recruiter.getByLabel('Category').selectOption('engineering');
    await recruiter
      .getByLabel('Description', { exact: true })
      .fill('Run the platform our careers site stands on.');
    await recruiter.getByLabel('City').fill('Lisbon');
    await recruiter.getByRole('button', { name: 'Create job' }).click();
    assert.match(await flash(recruiter), /Draft "Platform Engineer" created/);
    await capture(recruiter, 'job-draft');
    await recruiter.getByLabel('Expiry').selectOption('30');
    await recruiter.getByRole('button', { name: 'Publish' }).click();
    assert.match(await flash(recruiter), /Published: http/);
    assert.equal(await recruiter.locator('#job-status').textContent(), 'Live');
    await recruiter
      .getByLabel('Description', { exact: true })
      .fill('Run and grow the platform our careers site stands on.');
    await recruiter.getByRole('button', { name: 'Save changes' }).click();
    assert.match(await flash(recruiter), /They wait until you choose “Make the changes live”/);
    assert.match((await recruiter.locator('section.diff').textContent()) ?? '', /Run and grow the platform/);
    await capture(recruiter, 'job-staged');
    await recruiter.getByRole('button', { name: 'Make the changes live' }).click();
    assert.match(await flash(recruiter), /Your changes are live now/);
    assert.equal(await recruiter.locator('section.diff').count(), 0);
    const jobId = new URL(recruiter.url()).pathname.split('/').at(-1)!;

    // An application arrives through the API; the worker builds its virtual CV.
    const api = client(ctx.app, intakeSecret);
    const upload = await uploadPdf(ctx, api, pdfFixture('cv-2-pages.pdf'));
    const body = applicationBody(ctx.clock, upload.uploadId, {
      phone: '+351 912 345 678',
      coverNote: 'I have run platforms like yours for years.',
      answers: [{ question: 'Notice period?', answer: 'One month' }],
    });
    const applied = await api.post(`/v1/jobs/${jobId}/applications`, body, {
      'idempotency-key': unique('idem'),
    });
    assert.equal(applied.statusCode, 201, applied.body);
    await drainAll(ctx.worker);
    await recruiter.getByRole('link', { name: 'Applications' }).click();
    // The list is a table; the candidate's name opens the application on its own page.
    await capture(recruiter, 'applications');
    await recruiter.getByRole('link', { name: String(body.name) }).click();
    const text = (await recruiter.locator('main').textContent()) ?? '';
    for (const expected of [
      String(body.name),
      String(body.email),
      '+351 912 345 678',
      'One month',
      'I have run platforms',
      'api_apply_v1',
      'CV waiting for the candidate to claim it',
    ]) {
      assert.ok(text.includes(expected), `the application shows ${expected}`);
    }
    assert.equal(await recruiter.locator('blockquote.consent').count(), 1);
    assert.equal(await recruiter.locator('section.cv').count(), 1);
    await capture(recruiter, 'application');

    // A recruiter's forged key-mint POST answers 403 and mints nothing.
    await recruiter.goto(`${ctx.baseUrl}/console/jobs`);
    const csrf = await recruiter.locator('input[name=csrf]').first().getAttribute('value');
    const forged = await recruiter.request.post(`${ctx.baseUrl}/console/keys`, {
      form: { csrf: csrf!, scopes: 'applications:write', name: 'forged' },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    const keys = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys;
    assert.equal(keys.length, 2);

    // The billing admin raises the cap.
    const billing = await person();
    await acceptInvitation(billing, links['Billing admin']!);
    assert.match(billing.url(), /\/console\/billing$/);
    await billing.getByLabel('Monthly overage cap').fill('750.00');
    await billing.getByRole('button', { name: 'Save cap' }).click();
    assert.match(await flash(billing), /cap saved: 750.00/);
    assert.match((await billing.locator('#cap').textContent()) ?? '', /750\.00/);
    await capture(billing, 'billing');

    // Activity lists it all.
    await admin.getByRole('link', { name: 'Activity' }).click();
    const activity = (await admin.locator('table').textContent()) ?? '';
    for (const what of [
      'invited a user',
      'joined (set a password)',
      'changed the company address',
      'accepted the data-processing addendum',
      'minted an API key',
      'revoked an API key',
      'created a job',
      'published a job',
      'edited a job',
      'made waiting changes live',
      'changed the monthly overage cap',
    ]) {
      assert.ok(activity.includes(what), `Activity lists "${what}"`);
    }
    assert.ok(activity.includes('Operator'));
    assert.ok(!activity.includes(secret) && !activity.includes(intakeSecret), 'no secret in the trail');
    await capture(admin, 'activity');
  });
});
