import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SIGN_IN_LIMITS } from '../src/http/console-web/sign-in.ts';
import { invite, PASSWORD, signedIn, WebClient } from './console-web-client.ts';
import { consoleCall, newAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';

const ctx = useTestApp();

describe('console sign-in, sessions and CSRF', () => {
  test('signed out, /console and every page lead to the sign-in form', async () => {
    const web = new WebClient(ctx.app);
    for (const path of ['/console', '/console/jobs', '/console/keys', '/console/activity']) {
      const res = await web.get(path);
      assert.equal(res.statusCode, 303, path);
      assert.equal(res.headers.location, '/console/login');
    }
    const form = await web.get('/console/login');
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /<label for="email">Email<\/label>/);
    assert.match(form.body, /<label for="password">Password<\/label>/);
    assert.match(form.body, /<button type="submit">Sign in<\/button>/);
    assert.match(String(form.headers['content-security-policy']), /default-src 'none'/);
  });

  test('an invitation sets a password once and signs in with a safe cookie', async () => {
    const account = await newAccount(ctx.app);
    const invited = await invite(ctx.app, account.id, 'admin');
    const web = new WebClient(ctx.app);
    const page = await web.get(invited.path);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(invited.email));
    const short = await web.post(invited.path, { password: 'too short' });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /12 to 1024 characters/);
    const ok = await web.post(invited.path, { password: PASSWORD });
    assert.equal(ok.statusCode, 303);
    const cookie = [ok.headers['set-cookie']].flat().find((c) => String(c).startsWith('console_session='))!;
    assert.match(String(cookie), /; Path=\/console; HttpOnly; SameSite=Lax; Secure$/);
    const again = await new WebClient(ctx.app).get(invited.path);
    assert.equal(again.statusCode, 410, 'the link is single-use');
    const home = await web.get(String(ok.headers.location));
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /Sign out/);
  });

  test('an invitation expires after 7 days', async () => {
    const account = await newAccount(ctx.app);
    const invited = await invite(ctx.app, account.id, 'recruiter');
    ctx.clock.advance(7 * 86_400_000 + 1000);
    const web = new WebClient(ctx.app);
    assert.equal((await web.get(invited.path)).statusCode, 410);
  });

  test('a wrong password and an unknown email get the same answer; sign-out ends the session', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'recruiter');
    const web = new WebClient(ctx.app, '198.51.100.7');
    await web.get('/console/login');
    const wrong = await web.post('/console/login', { email, password: 'not the password at all' });
    await web.get('/console/login');
    const unknown = await web.post('/console/login', {
      email: 'nobody@example.com',
      password: 'not the password at all',
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    const message = (body: string) => /role="alert">([^<]+)</.exec(body)?.[1];
    assert.ok(message(wrong.body), `no alert on the refused sign-in: ${wrong.body}`);
    assert.equal(message(wrong.body), message(unknown.body));
    await web.get('/console/login');
    const good = await web.post('/console/login', { email: email.toUpperCase(), password: PASSWORD });
    assert.equal(good.statusCode, 303);
    assert.equal(good.headers.location, '/console', 'Home');
    const jobs = await web.get('/console/jobs');
    assert.equal(jobs.statusCode, 200);
    const session = web.cookies.get('console_session')!;
    const out = await web.post('/console/logout');
    assert.equal(out.statusCode, 303);
    const replay = new WebClient(ctx.app);
    replay.cookies.set('console_session', session);
    assert.equal((await replay.get('/console/jobs')).statusCode, 303, 'the old session id is dead');
  });

  test('session fixation: an id planted before sign-in is replaced and worthless', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'recruiter');
    const web = new WebClient(ctx.app);
    const planted = 'A'.repeat(43);
    web.cookies.set('console_session', planted);
    await web.get('/console/login');
    const res = await web.post('/console/login', { email, password: PASSWORD });
    assert.equal(res.statusCode, 303);
    assert.notEqual(web.cookies.get('console_session'), planted);
    const attacker = new WebClient(ctx.app);
    attacker.cookies.set('console_session', planted);
    assert.equal((await attacker.get('/console/jobs')).statusCode, 303);
  });

  test('sessions end after 12 hours idle, and when the user is removed', async () => {
    const account = await newAccount(ctx.app);
    const a = await signedIn(ctx.app, account.id, 'recruiter');
    ctx.clock.advance(11 * 3_600_000);
    assert.equal((await a.web.get('/console/jobs')).statusCode, 200, 'still active after 11 h');
    ctx.clock.advance(11 * 3_600_000);
    assert.equal((await a.web.get('/console/jobs')).statusCode, 200, 'the last request renewed it');
    ctx.clock.advance(12 * 3_600_000);
    assert.equal((await a.web.get('/console/jobs')).statusCode, 303, 'idle 12 h: signed out');
    const b = await signedIn(ctx.app, account.id, 'recruiter');
    await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/users/${b.userId}`);
    assert.equal((await b.web.get('/console/jobs')).statusCode, 303);
  });

  test('CSRF: a form without the session token (or with another session’s) changes nothing', async () => {
    const account = await newAccount(ctx.app);
    const admin = await signedIn(ctx.app, account.id, 'admin');
    const other = await signedIn(ctx.app, (await newAccount(ctx.app)).id, 'admin');
    await other.web.get('/console/keys');
    for (const csrf of ['', 'x'.repeat(43), other.web.csrf()]) {
      const res = await admin.web.post('/console/keys', { csrf, scopes: 'jobs:read', name: 'forged' });
      assert.equal(res.statusCode, 403);
    }
    const keys = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`);
    assert.deepEqual(keys.json().keys, []);
    const signIn = new WebClient(ctx.app);
    const noToken = await signIn.post('/console/login', { csrf: '', email: admin.email, password: PASSWORD });
    assert.equal(noToken.statusCode, 403);
  });

  test('repeated failures are refused per (address, email) and per client address', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'recruiter');
    const web = new WebClient(ctx.app, '192.0.2.50');
    let last = 0;
    for (let i = 0; i < 11; i++) {
      await web.get('/console/login');
      last = (await web.post('/console/login', { email, password: `wrong password ${i}` })).statusCode;
    }
    assert.equal(last, 429);
    await web.get('/console/login');
    const right = await web.post('/console/login', { email, password: PASSWORD });
    assert.equal(right.statusCode, 429, 'even the right password waits, at that address');
    assert.ok(Number(right.headers['retry-after']) > 0);
    // One address trying many emails: refused per address.
    const sprayer = new WebClient(ctx.app, '192.0.2.99');
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) {
      await sprayer.get('/console/login');
      codes.push(
        (
          await sprayer.post('/console/login', {
            email: `guess${i}@example.com`,
            password: 'password guess 123',
          })
        ).statusCode,
      );
    }
    assert.equal(codes.at(-1), 429);
    assert.equal(codes[0], 401);
    ctx.clock.advance(15 * 60_000);
    await web.get('/console/login');
    assert.equal(
      (await web.post('/console/login', { email, password: PASSWORD })).statusCode,
      303,
      'after the window',
    );
  });
});

describe('issue 25 C: one client cannot keep a console user out', () => {
  test('50 failures from one address: the attacker is refused, the user at another address signs in', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'admin');
    const attacker = new WebClient(ctx.app, '198.51.100.66');
    const codes: number[] = [];
    for (let i = 0; i < 50; i++) {
      await attacker.get('/console/login');
      codes.push(
        (await attacker.post('/console/login', { email, password: `guess number ${i}` })).statusCode,
      );
    }
    assert.deepEqual(codes.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(codes.slice(10), Array(40).fill(429), 'the attacker is refused at its address');
    await attacker.get('/console/login');
    assert.equal((await attacker.post('/console/login', { email, password: PASSWORD })).statusCode, 429);

    const user = new WebClient(ctx.app, '203.0.113.200');
    await user.get('/console/login');
    const started = performance.now();
    const signingIn = user.post('/console/login', { email, password: PASSWORD });
    // The slow-down waits on a timer: the service answers others meanwhile.
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    const pending = await Promise.race([signingIn.then(() => 'answered'), Promise.resolve('pending')]);
    assert.equal(pending, 'pending', 'the sign-in is still waiting while /healthz answered');
    const res = await signingIn;
    assert.equal(res.statusCode, 303, res.body);
    const waited = performance.now() - started;
    assert.ok(waited >= SIGN_IN_LIMITS.maxDelayMs * 0.9, `slowed down per email: ${waited.toFixed(0)} ms`);
  });

  test('successes do not count; a success resets the failures of that (address, email)', async () => {
    const account = await newAccount(ctx.app);
    const { email } = await signedIn(ctx.app, account.id, 'recruiter');
    const web = new WebClient(ctx.app, '198.51.100.70');
    for (let i = 0; i < 15; i++) {
      await web.get('/console/login');
      const res = await web.post('/console/login', { email, password: PASSWORD });
      assert.equal(res.statusCode, 303, `sign-in ${i + 1}: ${res.statusCode}`);
      web.cookies.clear();
    }
    // Nine failures, a success, nine failures: never refused (the success reset the count).
    for (const round of [1, 2]) {
      for (let i = 0; i < SIGN_IN_LIMITS.perAddressAndEmail - 1; i++) {
        await web.get('/console/login');
        const res = await web.post('/console/login', { email, password: `wrong ${round}.${i}` });
        assert.equal(res.statusCode, 401, `round ${round}, failure ${i + 1}`);
      }
      await web.get('/console/login');
      assert.equal((await web.post('/console/login', { email, password: PASSWORD })).statusCode, 303);
      web.cookies.clear();
    }
  });
});
