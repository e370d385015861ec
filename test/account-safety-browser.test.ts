import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { ManualClock } from '../src/lib/clock.ts';
import { consoleCall, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { mailTo } from './support/mail.ts';

/**
 * Issue 27.6 walked in Chromium: an admin turns two-step sign-in on, signs in with a code computed
 * here with the library, mints a key (shown once, with a copy button), reloads (nothing minted),
 * and resets the password through the mailed link. axe-core checks each new page at 390 and
 * 1280 px; screenshots go to /work/notes/shots/ (SHOTS overrides).
 */

const PASSWORD = 'a long and careful password';
const NEW_PASSWORD = 'another long careful password';

const ctx = useTestApp({ listen: true, clock: new ManualClock(new Date('2026-03-15T09:00:00.000Z')) });
const browser = useBrowser();

function codeFor(base32: string): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(base32), digits: 6, period: 30 });
  return totp.generate({ timestamp: ctx.clock.now().getTime() });
}

describe('account safety, walked in Chromium', { skip: NO_CHROMIUM }, () => {
  test('two-step sign-in, a key shown once, a password reset by the mailed link', async () => {
    const account = (
      await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Safe Co', companyName: 'Safe Ltd' })
    ).json().account;
    const email = `${unique('admin')}@example.com`.toLowerCase();
    const invited = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email,
      role: 'admin',
    });
    assert.equal(invited.statusCode, 201, invited.body);
    const context = await offlineContext(browser, ctx.baseUrl, { viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.baseUrl });
    const page = await context.newPage();

    await page.goto(invited.json().inviteUrl);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    // Your security: set up two-step sign-in with the key shown as text.
    await page.getByRole('link', { name: 'Your security' }).click();
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    assert.equal(await page.locator('svg[role="img"]').count(), 1, 'a QR code drawn as SVG');
    const key = (await page.locator('#totp-key').inputValue()).replaceAll(' ', '');
    assert.match(key, /^[A-Z2-7]{32}$/);
    await accessibleAtBothWidths(page, 'safety-security-setup');
    await page.getByLabel('Code from your app').fill(codeFor(key));
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /Two-step sign-in is on/);
    await accessibleAtBothWidths(page, 'safety-security-on');

    // Sign out and in again: the password, then a code (the next 30 s step: a code is good once).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.match(page.url(), /\/console\/login\/code$/);
    await accessibleAtBothWidths(page, 'safety-sign-in-code');
    ctx.clock.advance(30_000);
    await page.getByLabel('Code from your app').fill(codeFor(key));
    await page.getByRole('button', { name: 'Verify code' }).click();
    assert.match(page.url(), /\/console$/, 'signed in, on Home');

    // Mint a key: the secret once, with a copy button; a reload mints nothing.
    const keys = async () =>
      (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys.length;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Careers site');
    await page.getByLabel('jobs:read').check();
    await page.getByRole('button', { name: 'Mint key' }).click();
    assert.match(page.url(), /\/console\/keys\/new\?shown=/);
    const secret = await page.locator('#new-secret').inputValue();
    assert.match(secret, /^cak_/);
    const copy = page.getByRole('button', { name: 'Copy secret' });
    assert.ok(await copy.isVisible(), 'the copy button is there');
    await copy.click();
    await page.locator('#new-secret-status', { hasText: /Copied|by hand/ }).waitFor();
    await accessibleAtBothWidths(page, 'safety-key-minted');
    assert.equal(await keys(), 1);
    await page.reload();
    assert.match((await page.locator('main').textContent()) ?? '', /Already shown/);
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    assert.equal(await keys(), 1, 'the reload minted nothing');
    await accessibleAtBothWidths(page, 'safety-key-already-shown');

    // Forgot password: the mailed link, a new password, then sign in with it (and a code).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    assert.match(
      (await page.locator('main').textContent()) ?? '',
      /link to choose a new password is on its way/,
    );
    await accessibleAtBothWidths(page, 'safety-forgot-sent');
    const mail = (await mailTo(ctx.app, email)).find((m) => /Reset/.test(m.subject))!;
    const link = /https?:\/\/\S+\/console\/reset\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
    await page.goto(link.replace(/^https?:\/\/[^/]+/, ctx.baseUrl));
    await accessibleAtBothWidths(page, 'safety-reset-form');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    assert.match((await page.locator('main').textContent()) ?? '', /password is changed/);
    await accessibleAtBothWidths(page, 'safety-sign-in-after-reset');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    ctx.clock.advance(30_000);
    await page.getByLabel('Code from your app').fill(codeFor(key));
    await page.getByRole('button', { name: 'Verify code' }).click();
    assert.match(page.url(), /\/console$/, 'signed in, on Home');
    // The used link is gone.
    const again = await page.goto(link.replace(/^https?:\/\/[^/]+/, ctx.baseUrl));
    assert.equal(again?.status(), 410);

    // The admin requires two-step sign-in: a new recruiter sets it up before anything else opens.
    await page.goto(`${ctx.baseUrl}/console/settings`);
    await page.getByRole('button', { name: 'Require two-step sign-in' }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /is required/);
    await accessibleAtBothWidths(page, 'safety-settings-required');
    const recruiterEmail = `${unique('recruiter')}@example.com`.toLowerCase();
    const recruiterInvite = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/users`, {
      email: recruiterEmail,
      role: 'recruiter',
    });
    const other = await (
      await offlineContext(browser, ctx.baseUrl, { viewport: { width: 1280, height: 900 } })
    ).newPage();
    await other.goto(recruiterInvite.json().inviteUrl);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Set password and sign in' }).click();
    assert.match(other.url(), /\/console\/login\/setup$/);
    await accessibleAtBothWidths(other, 'safety-sign-in-setup');
    const recruiterKey = (await other.locator('#totp-key').inputValue()).replaceAll(' ', '');
    await other.getByLabel('Code from your app').fill(codeFor(recruiterKey));
    await other.getByRole('button', { name: 'Turn on and sign in' }).click();
    assert.match(other.url(), /\/console$/, 'signed in, on Home');

    // Recovery: the admin resets the recruiter's second factor from Users.
    await page.getByRole('link', { name: 'Users' }).click();
    await accessibleAtBothWidths(page, 'safety-users');
    await page.getByRole('button', { name: `Reset two-step sign-in of ${recruiterEmail}` }).click();
    assert.match((await page.locator('.flash').textContent()) ?? '', /is reset/);
    await other.reload();
    assert.match(other.url(), /\/console\/login$/, 'the recruiter was signed out');
    await page.getByRole('link', { name: 'Activity' }).click();
    const activity = (await page.locator('main').textContent()) ?? '';
    for (const words of [
      'turned two-step sign-in on',
      'reset their password by the mailed link',
      'required two-step sign-in for every user',
      "reset a user's two-step sign-in",
    ]) {
      assert.ok(activity.includes(words), `Activity shows "${words}"`);
    }
    await context.close();
  });
});
