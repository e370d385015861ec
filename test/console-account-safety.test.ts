import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { RESET_TTL_MS } from '../src/domain/console-users/security-service.ts';
import { RESET_ANSWER_FLOOR_MS } from '../src/http/console-web/password-reset.ts';
import { invite, PASSWORD, signedIn, WebClient } from './console-web-client.ts';
import { consoleCall, newAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { linkPath, mailTo } from './support/mail.ts';

const ctx = useTestApp();
const NEW_PASSWORD = 'a brand new passphrase 42';

/** The set-up key shown on a page (grouped by four), as the app would read it. */
function keyOn(page: string): string {
  const key = /id="totp-key"[^>]*>([A-Z2-7 ]+)<\/textarea>/.exec(page)?.[1];
  assert.ok(key, 'the page shows the set-up key');
  return key.replaceAll(' ', '');
}

/** The code an authenticator app shows for `base32` at the test clock's now (+ `steps` of 30 s). */
function codeFor(base32: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(base32), digits: 6, period: 30 });
  return totp.generate({ timestamp: ctx.clock.now().getTime() + steps * 30_000 });
}

/** A wrong code for `base32` now (one no window step gives). */
function wrongCode(base32: string): string {
  const right = new Set([-1, 0, 1].map((s) => codeFor(base32, s)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!right.has(code)) return code;
  }
}

async function audit(
  accountId: string,
): Promise<{ action: string; actor: { email: string | null }; at: string }[]> {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/audit`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().entries;
}

async function signIn(email: string, password = PASSWORD, ip?: string) {
  const web = new WebClient(ctx.app, ip);
  await web.get('/console/login');
  const res = await web.post('/console/login', { email, password });
  return { web, res };
}

/** Turns TOTP on from Your security; answers the secret (base32). */
async function enrol(web: WebClient): Promise<string> {
  await web.get('/console/security');
  const started = await web.post('/console/security/two-step/start');
  assert.equal(started.statusCode, 303);
  const page = await web.get('/console/security');
  assert.match(page.body, /otpauth:\/\/totp\//);
  assert.match(page.body, /<svg[^>]*role="img"/);
  const secret = keyOn(page.body);
  const wrong = await web.post('/console/security/two-step/confirm', { code: wrongCode(secret) });
  assert.equal(wrong.statusCode, 303);
  assert.match((await web.get('/console/security')).body, /not right/);
  const ok = await web.post('/console/security/two-step/confirm', { code: codeFor(secret) });
  assert.equal(ok.statusCode, 303);
  const after = await web.get('/console/security');
  assert.match(after.body, /<strong>On<\/strong>/);
  assert.ok(!after.body.includes(secret), 'the secret is never shown again once on');
  return secret;
}

describe('forgot password', () => {
  test('a known and an unknown address get the same page, in about the same time', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'admin');
    const answers: { body: string; status: number; ms: number }[] = [];
    for (const address of [email, 'nobody-at-all@example.com']) {
      const web = new WebClient(ctx.app, '198.51.100.7');
      await web.get('/console/forgot');
      const started = performance.now();
      const res = await web.post('/console/forgot', { email: address });
      answers.push({
        body: res.body.replace(/name="csrf" value="[^"]+"/, ''),
        status: res.statusCode,
        ms: performance.now() - started,
      });
    }
    assert.equal(answers[0]!.status, 200);
    assert.equal(answers[1]!.status, 200);
    assert.equal(answers[0]!.body, answers[1]!.body, 'the same page, byte for byte');
    for (const a of answers) assert.ok(a.ms >= RESET_ANSWER_FLOOR_MS - 5, `${a.ms} ms`);
    assert.ok(Math.abs(answers[0]!.ms - answers[1]!.ms) < 250, `${answers[0]!.ms} vs ${answers[1]!.ms} ms`);
    assert.equal((await mailTo(ctx.app, email)).filter((m) => /Reset/.test(m.subject)).length, 1);
    assert.equal((await mailTo(ctx.app, 'nobody-at-all@example.com')).length, 0);
  });

  test('the link sets a new password once, ends every session, and is audited', async () => {
    const account = await newAccount(ctx.app);
    const { email, web: other } = await signedIn(ctx.app, account.id, 'admin');
    assert.equal((await other.get('/console/keys')).statusCode, 200);
    const web = new WebClient(ctx.app, '198.51.100.8');
    await web.get('/console/login');
    assert.match(web.lastHtml, /href="\/console\/forgot"/);
    await web.get('/console/forgot');
    await web.post('/console/forgot', { email: email.toUpperCase() });
    const mail = (await mailTo(ctx.app, email)).find((m) => /Reset/.test(m.subject))!;
    const link = /https?:\/\/\S+\/console\/reset\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
    const path = linkPath(link);
    assert.equal((await web.get(path)).statusCode, 200);
    assert.equal((await web.post(path, { password: 'short' })).statusCode, 400);
    const done = await web.post(path, { password: NEW_PASSWORD });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/console/login');
    assert.match((await web.get('/console/login')).body, /password is changed/);
    // Single use: 410 on both the page and the form.
    assert.equal((await web.get(path)).statusCode, 410);
    assert.equal((await web.post(path, { password: 'another fine passphrase' })).statusCode, 410);
    // The other session ended; the old password no longer signs in; the new one does.
    assert.equal((await other.get('/console/keys')).statusCode, 303);
    assert.equal((await signIn(email, PASSWORD, '198.51.100.9')).res.statusCode, 401);
    assert.equal((await signIn(email, NEW_PASSWORD, '198.51.100.9')).res.statusCode, 303);
    const entry = (await audit(account.id)).find((e) => e.action === 'user.password_reset');
    assert.ok(entry, 'the reset is in Activity');
    assert.equal(entry.actor.email, email);
    assert.equal((await new WebClient(ctx.app).get('/console/reset/notatoken')).statusCode, 404);
  });

  test('a link expires after one hour (test clock)', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'recruiter');
    const web = new WebClient(ctx.app, '198.51.100.10');
    await web.get('/console/forgot');
    await web.post('/console/forgot', { email });
    const mail = (await mailTo(ctx.app, email)).find((m) => /Reset/.test(m.subject))!;
    const path = linkPath(/https?:\/\/\S+\/console\/reset\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]);
    ctx.clock.advance(RESET_TTL_MS - 1_000);
    assert.equal((await web.get(path)).statusCode, 200);
    ctx.clock.advance(2_000);
    assert.equal((await web.get(path)).statusCode, 410);
    assert.equal((await web.post(path, { password: NEW_PASSWORD })).statusCode, 410);
  });

  test('requests are rate limited per client address', async () => {
    const web = new WebClient(ctx.app, '198.51.100.66');
    await web.get('/console/forgot');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await web.post('/console/forgot', { email: 'same-person@example.com' })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });
});

describe('two-step sign-in (TOTP)', () => {
  test('enrol, then sign in with a code; wrong and replayed codes are refused; audited', async () => {
    const account = await newAccount(ctx.app);
    const { web, email } = await signedIn(ctx.app, account.id, 'recruiter');
    const secret = await enrol(web);
    const first = await signIn(email, PASSWORD, '198.51.100.20');
    assert.equal(first.res.statusCode, 303);
    assert.equal(first.res.headers.location, '/console/login/code');
    assert.ok(!first.web.cookies.has('console_session'), 'no session before the code');
    // Half signed in: nothing opens yet.
    assert.equal((await first.web.get('/console/jobs')).statusCode, 303);
    await first.web.get('/console/login/code');
    const wrong = await first.web.post('/console/login/code', { code: wrongCode(secret) });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /not right/);
    // The code that turned TOTP on was used already in this window: a replay is refused.
    const replay = await first.web.post('/console/login/code', { code: codeFor(secret) });
    assert.equal(replay.statusCode, 401, 'a code used once is refused in its window');
    ctx.clock.advance(30_000);
    const ok = await first.web.post('/console/login/code', { code: codeFor(secret) });
    assert.equal(ok.statusCode, 303);
    assert.ok(first.web.cookies.has('console_session'));
    assert.equal((await first.web.get('/console/jobs')).statusCode, 200);
    // The same code again, at another sign-in: refused.
    const second = await signIn(email, PASSWORD, '198.51.100.21');
    await second.web.get('/console/login/code');
    assert.equal((await second.web.post('/console/login/code', { code: codeFor(secret) })).statusCode, 401);
    const actions = (await audit(account.id)).map((e) => e.action);
    assert.ok(actions.includes('user.totp_enabled'));
  });

  test('five wrong codes end the half-signed sign-in', async () => {
    const account = await newAccount(ctx.app);
    const { web, email } = await signedIn(ctx.app, account.id, 'admin');
    const secret = await enrol(web);
    const { web: attempt } = await signIn(email, PASSWORD, '198.51.100.22');
    await attempt.get('/console/login/code');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await attempt.post('/console/login/code', { code: wrongCode(secret) })).statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 410]);
    ctx.clock.advance(30_000);
    assert.equal((await attempt.post('/console/login/code', { code: codeFor(secret) })).statusCode, 410);
  });

  test('an account requiring TOTP leads a user without it to set it up before anything else', async () => {
    const account = await newAccount(ctx.app);
    const { web: admin, email: adminEmail } = await signedIn(ctx.app, account.id, 'admin');
    const recruiter = await invite(ctx.app, account.id, 'recruiter');
    const joining = new WebClient(ctx.app);
    await joining.get(recruiter.path);
    await joining.post(recruiter.path, { password: PASSWORD });
    await admin.get('/console/settings');
    assert.equal((await admin.post('/console/settings/two-step', { require: 'yes' })).statusCode, 303);
    assert.match((await admin.get('/console/settings')).body, /<strong>Required\.<\/strong>/);

    // A user who joins now sets it up before the invitation signs them in.
    const late = await invite(ctx.app, account.id, 'billing_admin');
    const lateWeb = new WebClient(ctx.app);
    await lateWeb.get(late.path);
    const joined = await lateWeb.post(late.path, { password: PASSWORD });
    assert.equal(joined.headers.location, '/console/login/setup');
    assert.ok(!lateWeb.cookies.has('console_session'));
    assert.equal((await lateWeb.get('/console/billing')).statusCode, 303);

    const { web, res } = await signIn(recruiter.email, PASSWORD, '198.51.100.23');
    assert.equal(res.headers.location, '/console/login/setup');
    assert.equal((await web.get('/console/jobs')).statusCode, 303, 'nothing opens before the set-up');
    const page = await web.get('/console/login/setup');
    assert.equal(page.statusCode, 200);
    const secret = keyOn(page.body);
    assert.equal((await web.post('/console/login/setup', { code: wrongCode(secret) })).statusCode, 401);
    const ok = await web.post('/console/login/setup', { code: codeFor(secret) });
    assert.equal(ok.statusCode, 303);
    assert.equal((await web.get('/console/jobs')).statusCode, 200);
    // It cannot be turned off while required.
    const security = await web.get('/console/security');
    assert.match(security.body, /cannot be turned off/);

    // Recovery: the admin resets the recruiter's second factor (audited); the recruiter is signed out.
    const users = await admin.get('/console/users');
    assert.match(users.body, /Reset two-step sign-in/);
    const reset = await admin.post(`/console/users/${recruiter.userId}/two-step/reset`);
    assert.equal(reset.statusCode, 303);
    assert.equal((await web.get('/console/jobs')).statusCode, 303);
    const again = await signIn(recruiter.email, PASSWORD, '198.51.100.24');
    assert.equal(again.res.headers.location, '/console/login/setup', 'set up again, as the account requires');

    const entries = await audit(account.id);
    const required = entries.find((e) => e.action === 'account.totp_required');
    assert.equal(required?.actor.email, adminEmail);
    assert.ok(entries.some((e) => e.action === 'user.totp_reset' && e.actor.email === adminEmail));
    const activity = await admin.get('/console/activity');
    assert.match(activity.body, /required two-step sign-in/);
    assert.match(activity.body, /reset a user(&#39;|')s two-step sign-in/);
  });

  test('turning it off takes a current code and is audited', async () => {
    const account = await newAccount(ctx.app);
    const { web } = await signedIn(ctx.app, account.id, 'billing_admin');
    const secret = await enrol(web);
    ctx.clock.advance(30_000);
    await web.get('/console/security');
    await web.post('/console/security/two-step/disable', { code: wrongCode(secret) });
    assert.match((await web.get('/console/security')).body, /<strong>On<\/strong>/);
    await web.post('/console/security/two-step/disable', { code: codeFor(secret) });
    assert.match((await web.get('/console/security')).body, /<strong>Off\.<\/strong>/);
    assert.ok((await audit(account.id)).some((e) => e.action === 'user.totp_disabled'));
  });
});

describe('secrets shown once (POST-redirect-GET)', () => {
  test('minting redirects to a page showing the secret once; a reload mints nothing', async () => {
    const account = await newAccount(ctx.app);
    const { web } = await signedIn(ctx.app, account.id, 'admin');
    const count = async () =>
      (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys.length;
    const before = await count();
    await web.get('/console/keys');
    const minted = await web.post('/console/keys', { name: 'Site', scopes: ['jobs:read'] });
    assert.equal(minted.statusCode, 303);
    const location = String(minted.headers.location);
    assert.match(location, /^\/console\/keys\/new\?shown=[A-Za-z0-9_-]{43}$/);
    const shown = await web.get(location);
    assert.equal(shown.statusCode, 200);
    assert.match(String(shown.headers['cache-control']), /no-store/);
    const secret = /id="new-secret"[^>]*value="([^"]+)"/.exec(shown.body)?.[1];
    assert.ok(secret && secret.length > 20, 'the secret is in a readonly field');
    assert.match(shown.body, /readonly/);
    assert.match(shown.body, /data-copy="new-secret"/);
    const reload = await web.get(location);
    assert.equal(reload.statusCode, 200);
    assert.match(reload.body, /Already shown/);
    assert.ok(!reload.body.includes(secret));
    assert.equal(await count(), before + 1, 'one key minted, none on reload');
    // Another user of the account cannot read it either.
    const { web: other } = await signedIn(ctx.app, account.id, 'admin');
    const again = await web.post('/console/keys', { name: 'Second', scopes: ['jobs:read'] });
    assert.match((await other.get(String(again.headers.location))).body, /Already shown/);
  });

  test('adding a webhook redirects to its secret, shown once', async () => {
    const account = await newAccount(ctx.app);
    const { web } = await signedIn(ctx.app, account.id, 'admin');
    await web.get('/console/webhooks');
    const added = await web.post('/console/webhooks', { url: 'https://example.com/hooks/careers' });
    assert.equal(added.statusCode, 303);
    const location = String(added.headers.location);
    assert.match(location, /^\/console\/webhooks\/new\?shown=/);
    assert.match((await web.get(location)).body, /id="new-secret"[^>]*value="whsec_/);
    assert.match((await web.get(location)).body, /Already shown/);
    const list = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/webhooks`)).json();
    assert.equal(list.webhooks.length, 1);
  });
});
