import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import {
  guardCapabilityRoutes,
  redactSecrets,
  registeredPaths,
  uncoveredParams,
} from '../src/http/capability-urls.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { loggerOptions } from '../src/plugins/log.ts';
import { openForm, send } from './apply-form-client.ts';
import { invite, PASSWORD, WebClient } from './console-web-client.ts';
import { intakeAccount, newAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { applyWithCv, pdfFixture, putUpload } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { captureLog } from './support/log.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, postForm } from './support/mail.ts';

/**
 * Issue 25 A: a secret or capability carried in a URL (an invitation token, a claim token, an
 * upload id and its signature, the hosted form's csrf) never reaches a log line. The log showed
 * `/console/invite/<token>` whole, and the token let a second client set the password.
 */

const { stream, lines } = captureLog();
const ctx = useTestApp({
  clock: new ManualClock('2026-03-16T09:00:00.000Z'),
  logger: loggerOptions('info', stream),
  applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
});

function assertNotLogged(secrets: Map<string, string>) {
  const log = lines.join('\n');
  assert.ok(log.length > 0, 'the app logged');
  for (const [what, secret] of secrets) {
    assert.ok(secret.length >= 8, `${what}: a secret to look for`);
    assert.ok(
      !log.includes(secret),
      `${what} in the log:\n${lines.filter((l) => l.includes(secret)).join('\n')}`,
    );
  }
}

describe('no secret carried in a URL reaches a log line', () => {
  test('an invitation opened, used, and its path mistyped: the token is in no line', async () => {
    const account = await newAccount(ctx.app);
    const invited = await invite(ctx.app, account.id, 'admin');
    const token = invited.path.slice('/console/invite/'.length);
    const web = new WebClient(ctx.app);
    assert.equal((await web.get(invited.path)).statusCode, 200);
    assert.equal((await web.get(`${invited.path}?utm=mail`)).statusCode, 200);
    assert.equal((await web.post(invited.path, { password: PASSWORD })).statusCode, 303);
    assert.equal((await web.get(invited.path)).statusCode, 410);
    assert.equal((await web.get(`${invited.path}/x`)).statusCode, 404);
    assert.equal((await web.get(invited.path.replace('/console/', '/console//'))).statusCode, 404);
    assertNotLogged(new Map([['invitation token', token]]));
    assert.ok(
      lines.some((line) => line.includes('"url":"/console/invite/[token]"')),
      'logged, redacted',
    );
  });

  test('a password reset link mailed, opened, used, reused: the token is in no line', async () => {
    const account = await newAccount(ctx.app);
    const invited = await invite(ctx.app, account.id, 'admin');
    const joined = new WebClient(ctx.app);
    await joined.get(invited.path);
    await joined.post(invited.path, { password: PASSWORD });
    const web = new WebClient(ctx.app, '192.0.2.77');
    await web.get('/console/forgot');
    assert.equal((await web.post('/console/forgot', { email: invited.email })).statusCode, 200);
    const mail = (await mailTo(ctx.app, invited.email)).find((m) => /Reset/.test(m.subject))!;
    const path = linkPath(/https?:\/\/\S+\/console\/reset\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]);
    const token = path.slice('/console/reset/'.length);
    assert.equal((await web.get(path)).statusCode, 200);
    assert.equal((await web.post(path, { password: 'a brand new passphrase 42' })).statusCode, 303);
    assert.equal((await web.get(path)).statusCode, 410);
    assert.equal((await web.get(`${path}/x`)).statusCode, 404);
    // A minted key's one-time page: its id (in the query) is in no line either.
    const admin = new WebClient(ctx.app, '192.0.2.78');
    await admin.get('/console/login');
    await admin.post('/console/login', { email: invited.email, password: 'a brand new passphrase 42' });
    await admin.get('/console/keys');
    const minted = await admin.post('/console/keys', { name: 'Log check', scopes: ['jobs:read'] });
    const shown = String(minted.headers.location);
    assert.equal((await admin.get(shown)).statusCode, 200);
    assertNotLogged(
      new Map([
        ['reset token', token],
        ['one-time page id', shown.slice(shown.indexOf('=') + 1)],
      ]),
    );
    assert.ok(
      lines.some((line) => line.includes('"url":"/console/reset/[token]"')),
      'logged, redacted',
    );
    assert.ok(
      lines.some((line) => line.includes('/console/keys/new?shown=[redacted]')),
      'logged, redacted',
    );
  });

  test('a claim link opened, claimed, deleted: the token is in no line', async () => {
    const applied = await applyWithCv(ctx);
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    await drainAll(ctx.worker);
    const [message] = await mailTo(ctx.app, applied.email);
    const [link] = claimLinksIn(message!.text);
    const path = linkPath(link!);
    const token = path.slice('/cv/'.length);
    assert.equal((await ctx.app.inject({ method: 'GET', url: path })).statusCode, 200);
    assert.equal((await postForm(ctx.app, `${path}/claim`)).statusCode, 200);
    await postForm(ctx.app, `${path}/delete`);
    await ctx.app.inject({ method: 'GET', url: `${path}/nothing?x=1` });
    assert.ok(
      lines.some((line) => line.includes('"url":"/cv/[token]/claim"')),
      'logged, redacted',
    );
    assertNotLogged(new Map([['claim token', token]]));
  });

  test('an upload PUT with its signature, and the hosted form with its csrf: none of them in a line', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, {});
    const form = await openForm(ctx.app, job.applyLink);
    assert.match(form.action, /[?&]csrf=/);
    const slot = await ctx.app.inject({
      method: 'POST',
      url: `${new URL(job.applyLink).pathname}/upload`,
      headers: { cookie: `apply_csrf=${form.nonce}` },
      payload: { bytes: pdfFixture('cv-2-pages.pdf').length, csrf: form.token },
    });
    assert.equal(slot.statusCode, 201, slot.body);
    const { uploadId, uploadUrl } = slot.json() as { uploadId: string; uploadUrl: string };
    const signature = new URL(uploadUrl).searchParams.get('sig')!;
    const put = await putUpload(ctx.app, uploadUrl, pdfFixture('cv-2-pages.pdf'));
    assert.equal(put.statusCode, 200, put.body);
    const sent = await send(
      ctx.app,
      form,
      { name: 'Ana Silva', email: 'ana.silva@example.com', uploadId },
      { ip: '203.0.113.77' },
    );
    assert.ok(sent.statusCode < 500, sent.body);
    // A signature that does not match: refused, and still not logged.
    const forged = uploadUrl.replace(signature, `${signature.slice(0, -4)}beef`);
    assert.equal((await putUpload(ctx.app, forged, Buffer.from('%PDF-1.4\n'))).statusCode, 403);
    assertNotLogged(
      new Map([
        ['upload id', uploadId],
        ['upload signature', signature],
        ['hosted form csrf', form.token],
      ]),
    );
    assert.ok(
      lines.some((line) => line.includes('"url":"/uploads/[key]?')),
      'logged, redacted',
    );
  });
});

describe('the redaction rule', () => {
  test('path secrets and query secrets in any text, full URLs included; other URLs unchanged', () => {
    const cases: [string, string][] = [
      ['/console/invite/abcDEF123_-x', '/console/invite/[token]'],
      ['/console/reset/abcDEF123_-x', '/console/reset/[token]'],
      ['/console/keys/new?shown=abc_DEF-1', '/console/keys/new?shown=[redacted]'],
      [
        'GET https://careers.test/cv/abcDEF123/claim?x=1 failed',
        'GET https://careers.test/cv/[token]/claim?x=1 failed',
      ],
      ['/uploads/upl_123?expires=1&bytes=2&sig=00ff', '/uploads/[key]?expires=1&bytes=2&sig=[redacted]'],
      ['/apply/job_1?lang=en&csrf=tok.en', '/apply/job_1?lang=en&csrf=[redacted]'],
      ['/apply/job_1?cs%72f=tok', '/apply/job_1?cs%72f=[redacted]'],
      ['"url":"/cv/[token]"', '"url":"/cv/[token]"'],
      ['/v1/jobs?limit=5', '/v1/jobs?limit=5'],
      ['/console/v1/people/p_1/cv', '/console/v1/people/p_1/cv'],
    ];
    for (const [input, expected] of cases) assert.equal(redactSecrets(input), expected, input);
  });

  test('every registered route whose path has a token-like parameter is declared', async () => {
    const paths = registeredPaths(ctx.app);
    assert.ok(paths.includes('/console/invite/:token') && paths.includes('/uploads/:key'), paths.join(' '));
    for (const path of paths) assert.deepEqual(uncoveredParams(path), [], path);
  });

  test('a new route with an undeclared token-like parameter is refused when registered', async () => {
    for (const path of ['/console/recover/:token', '/share/:shareKey', '/x/:id/confirm/:code']) {
      assert.notDeepEqual(uncoveredParams(path), [], path);
      const app = Fastify();
      guardCapabilityRoutes(app);
      assert.throws(() => app.get(path, async () => 'ok'), /not declared/, path);
      await app.close();
    }
  });
});
