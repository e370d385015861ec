import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SESSION_COOKIE } from '../src/http/console-web/web.ts';
import { PASSWORD, WebClient } from './console-web-client.ts';
import { consoleCall, newAccount, unique } from './support/accounts.ts';
import { BASE_URL, useTestApp } from './support/app.ts';
import { mailTo } from './support/mail.ts';

/**
 * Issue 25.4: a console user is one (account, email). Two employers may invite the same address;
 * neither learns that the other did; the person signs in to each account with its own password.
 */

const ctx = useTestApp();

let ipSeq = 0;
const freshIp = () => `192.0.2.${++ipSeq + 10}`;

async function inviteTo(accountId: string, email: string, role = 'admin') {
  return consoleCall(ctx.app, 'POST', `/accounts/${accountId}/users`, { email, role });
}

/** Opens the invitation, sets the password; answers the browser, signed in. */
async function accept(inviteUrl: string, password: string): Promise<WebClient> {
  const path = inviteUrl.slice(BASE_URL.length);
  const web = new WebClient(ctx.app, freshIp());
  const page = await web.get(path);
  assert.equal(page.statusCode, 200, page.body);
  const res = await web.post(path, { password });
  assert.equal(res.statusCode, 303, res.body);
  return web;
}

/** Signs in through /console/login; answers the account the session belongs to, or null. */
async function signIn(email: string, password: string): Promise<string | null> {
  const web = new WebClient(ctx.app, freshIp());
  await web.get('/console/login');
  const res = await web.post('/console/login', { email, password });
  if (res.statusCode !== 303) return null;
  const id = web.cookies.get(SESSION_COOKIE);
  assert.ok(id, 'a session cookie');
  return (await ctx.services.consoleUsers.session(id))?.accountId ?? null;
}

/** An answer with what always differs between two invitations (ids, tokens, dates, address) removed. */
function shapeOf(res: { statusCode: number; body: string }, email: string): string {
  return `${res.statusCode} ${res.body
    .split(email)
    .join('EMAIL')
    .replace(/usr_[a-z0-9]+/g, 'USER')
    .replace(/invite\/[A-Za-z0-9_-]{43}/g, 'invite/TOKEN')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'DATE')}`;
}

describe('25.4 console users are unique per account, not across accounts', () => {
  test('two accounts invite the same address; both invitations work; each password signs in to its own account', async () => {
    const first = await newAccount(ctx.app, { companyName: 'First Employer' });
    const second = await newAccount(ctx.app, { companyName: 'Second Employer' });
    const email = `${unique('shared')}@example.com`.toLowerCase();

    const a = await inviteTo(first.id, email);
    assert.equal(a.statusCode, 201, a.body);
    const b = await inviteTo(second.id, email.toUpperCase(), 'recruiter');
    assert.equal(b.statusCode, 201, b.body);
    assert.equal(b.json().user.email, email);
    assert.equal((await mailTo(ctx.app, email)).length, 2, 'each employer sent its invitation');

    const firstPassword = `${PASSWORD} one`;
    const secondPassword = `${PASSWORD} two`;
    await accept(a.json().inviteUrl, firstPassword);
    await accept(b.json().inviteUrl, secondPassword);

    assert.equal(await signIn(email, firstPassword), first.id);
    assert.equal(await signIn(email.toUpperCase(), secondPassword), second.id);
    assert.equal(await signIn(email, 'not the password at all'), null);

    // Each account lists only its own user of that address.
    for (const account of [first, second]) {
      const listed = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/users`);
      assert.equal(listed.json().users.length, 1);
    }
  });

  test('inviting an address another account uses answers as for a fresh one; the same account still answers 409', async () => {
    const holder = await newAccount(ctx.app);
    const prober = await newAccount(ctx.app);
    const used = `${unique('used')}@example.com`.toLowerCase();
    const fresh = `${unique('fresh')}@example.com`.toLowerCase();
    assert.equal((await inviteTo(holder.id, used)).statusCode, 201);
    const acceptedHolder = await inviteTo(holder.id, `${unique('other')}@example.com`.toLowerCase());
    assert.equal(acceptedHolder.statusCode, 201);

    const onUsed = await inviteTo(prober.id, used, 'recruiter');
    const onFresh = await inviteTo(prober.id, fresh, 'recruiter');
    assert.equal(
      shapeOf(onUsed, used),
      shapeOf(onFresh, fresh),
      'the two answers differ only in ids and tokens',
    );

    const again = await inviteTo(prober.id, used, 'admin');
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().error.code, 'conflict');
  });

  test('the same password in two accounts signs in to the one invited first', async () => {
    const older = await newAccount(ctx.app);
    const newer = await newAccount(ctx.app);
    const email = `${unique('samepass')}@example.com`.toLowerCase();
    const a = await inviteTo(older.id, email);
    ctx.clock.advance(1_000);
    const b = await inviteTo(newer.id, email);
    await accept(b.json().inviteUrl, PASSWORD);
    await accept(a.json().inviteUrl, PASSWORD);
    assert.equal(await signIn(email, PASSWORD), older.id);
  });
});
