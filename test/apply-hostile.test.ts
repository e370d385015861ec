import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../src/config.ts';
import { checkValues } from '../src/http/pages/apply/submit-form.ts';
import { PAGE_WORDS } from '../src/http/pages/i18n.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { solveProofOfWork } from '../src/lib/proof-of-work.ts';
import { greetingName } from '../src/mail/templates.ts';
import { resolveClaimLinkKey } from '../src/services.ts';
import { formOf, normalized, openForm, send, textOf } from './apply-form-client.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { CV_LIMITS, listen, startApp, type TestContext, tempDir, useTestApp } from './support/app.ts';
import {
  applicationBody,
  consentReceipt,
  cvPdf,
  pdfFixture,
  putUpload,
  uploadPdf,
} from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { claimLinksIn, drainAll, linkPath, mailTo } from './support/mail.ts';

const T0 = '2026-03-16T09:00:00.000Z';

const ctx = useTestApp({
  clock: new ManualClock(T0),
  applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
});

let ipSeq = 0;
function freshIp(): string {
  ipSeq += 1;
  return `203.0.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

const CV = () => ({ name: 'cv-2-pages.pdf', bytes: pdfFixture('cv-2-pages.pdf') });

function person(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: 'Inès Oliveira-Núñez',
    email: `${unique('hostile').toLowerCase()}@example.com`,
    ...overrides,
  };
}

async function applicationsOf(accountId: string, jobId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/jobs/${jobId}/applications`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().applications as Record<string, unknown>[];
}

describe('11.1 on the apply page: no pattern runs on an unbounded field', () => {
  test('a 63,000-character email is refused as too long in under 10 ms, by the check and over HTTP', async () => {
    const w = PAGE_WORDS.en;
    // The shapes that make the email pattern backtrack: no dot after the @, runs of letters.
    const hostile = [
      'a'.repeat(63_000),
      `a@${'a'.repeat(63_000)}`,
      `${'a@'.repeat(31_500)}`,
      `a@${'.a'.repeat(31_500)}@`,
    ];
    for (const email of hostile) {
      const started = performance.now();
      const errors = checkValues({ name: 'Ana', email }, w);
      const ms = performance.now() - started;
      assert.equal(errors.email, w.tooLong);
      assert.ok(ms < 10, `checked in ${ms.toFixed(2)} ms`);
    }
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Long Field' });
    const form = await openForm(ctx.app, job.applyLink);
    const started = performance.now();
    const res = await send(
      ctx.app,
      form,
      { name: 'Ana', email: `a@${'a'.repeat(63_000)}` },
      { ip: freshIp() },
    );
    const ms = performance.now() - started;
    assert.equal(res.statusCode, 400);
    assert.match(textOf(res.body), /This is too long\./);
    assert.ok(ms < 1000, `answered in ${ms.toFixed(1)} ms`);
  });
});

describe('11.3 the apply page leaks nothing', () => {
  test('a duplicate gets the very page a first application gets; the upload is checked first', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Oracle Clerk' });
    const known = person();
    const first = await send(ctx.app, await openForm(ctx.app, job.applyLink), known, {
      ip: freshIp(),
      file: CV(),
    });
    assert.equal(first.statusCode, 201, first.body);

    // With any non-empty uploadId and no file: a stranger and the known person get the same refusal.
    const probe = async (fields: Record<string, string>) => {
      const form = await openForm(ctx.app, job.applyLink);
      return send(ctx.app, form, { ...fields, uploadId: 'upl_anything' }, { ip: freshIp() });
    };
    const stranger = person();
    const a = await probe(stranger);
    const b = await probe({ ...known, name: 'Someone Else' });
    assert.equal(a.statusCode, 400, a.body);
    assert.equal(b.statusCode, a.statusCode);
    assert.equal(
      normalized(b.body, known.email!).replace(/Someone Else/g, 'NAME'),
      normalized(a.body, stranger.email!).replace(/Inès Oliveira-Núñez/g, 'NAME'),
    );

    // With a good file: the same 201 page, nothing in it says whether the person applied before.
    const fresh = person();
    const c = await send(ctx.app, await openForm(ctx.app, job.applyLink), fresh, {
      ip: freshIp(),
      file: CV(),
    });
    const d = await send(ctx.app, await openForm(ctx.app, job.applyLink), known, {
      ip: freshIp(),
      file: CV(),
    });
    assert.equal(c.statusCode, 201, c.body);
    assert.equal(d.statusCode, 201, d.body);
    assert.equal(normalized(d.body, known.email!), normalized(c.body, fresh.email!));
    assert.deepEqual(
      Object.keys(d.headers)
        .sort()
        .filter((h) => h !== 'content-length'),
      Object.keys(c.headers)
        .sort()
        .filter((h) => h !== 'content-length'),
    );
    const apps = await applicationsOf(intake.account.id, job.id);
    assert.equal(apps.length, 2, 'the known person still has one application; the stranger one');
    // The duplicate's file was not kept.
    const unused = await ctx.handle.db
      .selectFrom('uploads')
      .select('id')
      .where('account_id', '=', intake.account.id)
      .where('used_at', 'is', null)
      .execute();
    assert.equal(unused.length, 0);
  });

  test('service mail greets by a checked first name, or generically; never the sender’s free text', async () => {
    assert.equal(greetingName('Inès Oliveira-Núñez'), 'Inès');
    assert.equal(greetingName("  D'Arcy Smith"), "D'Arcy");
    assert.equal(greetingName('Zoë'), 'Zoë');
    for (const bad of [
      'Verify your bank account at http://evil.example now',
      'http://evil.example',
      'Ana2 Smith',
      `${'A'.repeat(31)} Smith`,
      '',
      '<b>Ana</b>',
      'Ana:please-call-+44',
    ])
      assert.equal(greetingName(bad), bad.startsWith('Verify') ? 'Verify' : null, bad);

    const intake = await intakeAccount(ctx.app, { companyName: 'Mail Co' });
    const job = await createPublished(intake.api, { title: 'Greeter' });
    const phishing = `URGENT:your-account-is-locked,visit-http://evil.example/reset-${'x'.repeat(120)} now`;
    const attacked = person({ name: phishing });
    const honest = person({ name: 'Zoë Kowalski' });
    for (const who of [attacked, honest]) {
      const cv = await cvPdf({ name: 'Zoe Kowalski', email: who.email!, employer: 'Acme', title: 'Clerk' });
      const res = await send(ctx.app, await openForm(ctx.app, job.applyLink), who, {
        ip: freshIp(),
        file: { name: 'cv.pdf', bytes: cv },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    await drainAll(ctx.worker);
    const [toAttacked] = await mailTo(ctx.app, attacked.email!);
    const [toHonest] = await mailTo(ctx.app, honest.email!);
    assert.ok(toAttacked && toHonest, 'both were mailed');
    for (const part of [toAttacked.subject, toAttacked.text, toAttacked.html]) {
      assert.doesNotMatch(part, /evil\.example|URGENT|locked/);
    }
    assert.match(toAttacked.text, /^Hello,\n/);
    assert.match(toHonest.text, /^Hello Zoë,\n/);
  });
});

describe('11.3 the hosted page spends its own budget, not the API’s', () => {
  test('a flood on the page ends at the page’s budget; the integrator’s API still takes applications', async () => {
    const intake = await intakeAccount(ctx.app, {
      limits: { hostedDailyApplications: 2, hostedJobDailyApplications: 100, dailyApplications: 5 },
    });
    const job = await createPublished(intake.api, { title: 'Budgeted' });
    for (let i = 0; i < 2; i++) {
      const res = await send(ctx.app, await openForm(ctx.app, job.applyLink), person(), {
        ip: freshIp(),
        file: CV(),
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const flood = await send(ctx.app, await openForm(ctx.app, job.applyLink), person(), {
      ip: freshIp(),
      file: CV(),
    });
    assert.equal(flood.statusCode, 429, flood.body);
    assert.ok(Number(flood.headers['retry-after']) > 0);

    const upload = await uploadPdf(ctx, intake.api, pdfFixture('cv-2-pages.pdf'));
    const api = await intake.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId, { consent: consentReceipt(ctx.clock, { locale: 'en' }) }),
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(api.statusCode, 201, api.body);

    // And the other way: the API's budget spent, the page still takes applications.
    const other = await intakeAccount(ctx.app, { limits: { dailyApplications: 0 } });
    const otherJob = await createPublished(other.api, { title: 'Api Spent' });
    const page = await send(ctx.app, await openForm(ctx.app, otherJob.applyLink), person(), {
      ip: freshIp(),
      file: CV(),
    });
    assert.equal(page.statusCode, 201, page.body);
    const account = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}`);
    assert.equal(
      account.json().account.limits.hostedDailyApplications,
      2,
      'the console shows the page budget',
    );
  });
});

describe('11.3 a challenge after a burst', () => {
  const WAIT_MS = 1500;
  let burst: TestContext;
  before(async () => {
    burst = await startApp({
      clock: new ManualClock(T0),
      applyPage: { burstPerAddress: 2, burstPerJob: 1000, waitMs: WAIT_MS, powBits: 10 },
    });
  });
  after(async () => {
    await burst?.close();
  });

  test('past the burst, a post without a proof of work waits; with one it does not; a token serves once', async () => {
    const intake = await intakeAccount(burst.app);
    const job = await createPublished(intake.api, { title: 'Burst Target' });
    const ip = freshIp();
    const timed = async (
      fields: Record<string, string>,
      query = '',
      form?: Awaited<ReturnType<typeof openForm>>,
    ) => {
      const f = form ?? (await openForm(burst.app, job.applyLink));
      const started = performance.now();
      const res = await send(burst.app, f, fields, { ip, file: CV(), query });
      return { res, ms: performance.now() - started, form: f };
    };
    // Before the burst: the page asks for no proof of work, and the post is answered at once.
    for (let i = 0; i < 2; i++) {
      const calm = await openForm(burst.app, job.applyLink, '', ip);
      assert.doesNotMatch(calm.res.body, /data-pow-bits/, `form ${i + 1}: no puzzle while calm`);
      const { res, ms } = await timed(person(), '', calm);
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(ms < WAIT_MS, `post ${i + 1}: ${ms.toFixed(0)} ms`);
    }
    // A client without JavaScript: the answer waits, and the form still works.
    const slow = await timed(person());
    assert.equal(slow.res.statusCode, 201, slow.res.body);
    assert.ok(slow.ms >= WAIT_MS - 50, `waited ${slow.ms.toFixed(0)} ms`);
    // Past the burst the page asks this address for the proof of work over the token: no wait.
    const form = await openForm(burst.app, job.applyLink, '', ip);
    assert.match(form.res.body, /data-pow-bits="10"/);
    const solution = solveProofOfWork(form.token, 10);
    const quick = await timed(person(), `&pow=${solution}`, form);
    assert.equal(quick.res.statusCode, 201, quick.res.body);
    assert.ok(quick.ms < WAIT_MS, `with the proof: ${quick.ms.toFixed(0)} ms`);
    // The same token and proof again: refused before the body is read, nothing stored.
    const replay = await timed(person(), `&pow=${solution}`, form);
    assert.equal(replay.res.statusCode, 403, replay.res.body);
    assert.match(textOf(replay.res.body), /This form expired/);
    // A wrong proof counts as none: the client waits.
    const wrong = await timed(person(), '&pow=99999999999');
    assert.equal(wrong.res.statusCode, 201);
    assert.ok(wrong.ms >= WAIT_MS - 50, `a wrong proof waited ${wrong.ms.toFixed(0)} ms`);
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 5);
  });

  test('a form that was open longer than the wait goes through at once, proof or not', async () => {
    const intake = await intakeAccount(burst.app);
    const job = await createPublished(intake.api, { title: 'Patient' });
    const ip = freshIp();
    for (let i = 0; i < 2; i++)
      await send(burst.app, await openForm(burst.app, job.applyLink), person(), { ip, file: CV() });
    const form = await openForm(burst.app, job.applyLink);
    burst.clock.advance(WAIT_MS + 1000);
    const started = performance.now();
    const res = await send(burst.app, form, person(), { ip, file: CV() });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(performance.now() - started < WAIT_MS, 'no wait');
  });
});

/** Sends headers announcing `announced` body bytes and only `sent` of them; answers the status line and ms. */
async function partialPost(
  base: string,
  path: string,
  headers: Record<string, string>,
  announced: number,
  sent: number,
): Promise<{ status: number; ms: number; head: string }> {
  const url = new URL(path, base);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const started = performance.now();
  const head = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'Content-Type: multipart/form-data; boundary=----hostile',
    `Content-Length: ${announced}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  socket.write(Buffer.alloc(sent, 0x61));
  let text = '';
  const status = await new Promise<number>((resolve, reject) => {
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match && text.includes('\r\n\r\n')) resolve(Number(match[1]));
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error('no answer while the body was still owed')), 5000);
  });
  const ms = performance.now() - started;
  socket.destroy();
  return { status, ms, head: text.split('\r\n\r\n')[0]! };
}

describe('11.4 disk: refused before the body, quotas, a short life for anonymous uploads', () => {
  test('a closed role, a missing or wrong token, a spent address: answered while 9 MB of the body are still owed', async () => {
    const own = await startApp({ clock: new ManualClock(T0), applyPage: { burstPerAddress: 1000 } });
    try {
      const base = await listen(own.app);
      const intake = await intakeAccount(own.app);
      const open = await createPublished(intake.api, { title: 'Open Door' });
      const closed = await createPublished(intake.api, { title: 'Closed Door' });
      assert.equal((await intake.api.post(`/v1/jobs/${closed.id}/close`)).statusCode, 200);
      const form = await openForm(own.app, open.applyLink);
      const MB9 = 9 * 1_048_576;
      const cases: { label: string; path: string; headers: Record<string, string>; status: number }[] = [
        { label: 'closed role', path: `/apply/${closed.id}?csrf=x`, headers: {}, status: 410 },
        {
          label: 'no token',
          path: `/apply/${open.id}`,
          headers: { cookie: `apply_csrf=${form.nonce}` },
          status: 403,
        },
        { label: 'no cookie', path: form.action, headers: {}, status: 403 },
        {
          label: 'forged token',
          path: form.action.replace(/csrf=[^&]+/, 'csrf=1.abcdefghijkl.forged'),
          headers: { cookie: `apply_csrf=${form.nonce}` },
          status: 403,
        },
      ];
      for (const c of cases) {
        const answer = await partialPost(base, c.path, c.headers, MB9, 1024);
        assert.equal(answer.status, c.status, c.label);
        assert.ok(answer.ms < 2000, `${c.label}: ${answer.ms.toFixed(0)} ms`);
        assert.match(answer.head, /\r\nconnection: close/i, `${c.label}: the rest of the body is not read`);
      }
      // Spend the address's minute, then the eleventh post is refused before its body too.
      for (let i = 0; i < 10; i++) await partialPost(base, `/apply/${open.id}`, {}, 100, 100);
      const limited = await partialPost(base, form.action, { cookie: `apply_csrf=${form.nonce}` }, MB9, 1024);
      assert.equal(limited.status, 429);
      assert.match(limited.head, /\r\nconnection: close/i);
      const uploads = await own.handle.db
        .selectFrom('uploads')
        .select('id')
        .where('account_id', '=', intake.account.id)
        .execute();
      assert.equal(uploads.length, 0, 'nothing stored');
    } finally {
      await own.close();
    }
  });

  test('outstanding upload bytes: capped per address on the page, per account on the API, each apart', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Quota' });
    const ip = freshIp();
    const slot = async (from: string) => {
      const form = await openForm(ctx.app, job.applyLink);
      return ctx.app.inject({
        method: 'POST',
        url: `/apply/${job.id}/upload`,
        payload: { bytes: CV_LIMITS.maxBytes, csrf: form.token },
        headers: { cookie: `apply_csrf=${form.nonce}` },
        remoteAddress: from,
      });
    };
    for (let i = 0; i < 3; i++) assert.equal((await slot(ip)).statusCode, 201);
    const fourth = await slot(ip);
    assert.equal(fourth.statusCode, 429, fourth.body);
    assert.equal(fourth.json().error.code, 'rate_limited');
    assert.ok(Number(fourth.headers['retry-after']) > 0);
    // The address's full multipart post is refused before its body as well.
    const post = await send(ctx.app, await openForm(ctx.app, job.applyLink), person(), { ip, file: CV() });
    assert.equal(post.statusCode, 429);
    // Another address still has room, and the API's quota is its own.
    assert.equal((await slot(freshIp())).statusCode, 201);
    let made = 0;
    for (;;) {
      const res = await intake.api.post('/v1/uploads', { bytes: CV_LIMITS.maxBytes });
      if (res.statusCode !== 201) {
        assert.equal(res.statusCode, 429, res.body);
        assert.match(res.json().error.message, /outstanding/);
        break;
      }
      made += 1;
      assert.ok(made <= 100, 'the account quota ends the API uploads');
    }
    assert.equal(made, 100, '100 x CV_MAX_BYTES outstanding per account');
  });

  test('hosted-page uploads left unused are swept after 20 minutes; the API’s keep their hour', async () => {
    const clock = new ManualClock(T0);
    const own = await startApp({ clock });
    try {
      const intake = await intakeAccount(own.app);
      const job = await createPublished(intake.api, { title: 'Sweep' });
      const form = await openForm(own.app, job.applyLink);
      const res = await own.app.inject({
        method: 'POST',
        url: `/apply/${job.id}/upload`,
        payload: { bytes: 2048, csrf: form.token },
        headers: { cookie: `apply_csrf=${form.nonce}` },
        remoteAddress: freshIp(),
      });
      assert.equal(res.statusCode, 201, res.body);
      const hosted = res.json().uploadId as string;
      assert.equal((await putUpload(own.app, res.json().uploadUrl, Buffer.alloc(2048, 1))).statusCode, 200);
      const api = await uploadPdf(own, intake.api, pdfFixture('cv-2-pages.pdf'));
      const exists = async (id: string) =>
        (await own.handle.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()) !==
        undefined;
      clock.advance(19 * 60_000);
      await own.services.uploads.sweep();
      assert.ok(await exists(hosted), 'kept for 19 minutes');
      clock.advance(2 * 60_000);
      await own.services.uploads.sweep();
      assert.equal(await exists(hosted), false, 'gone after 21 minutes');
      assert.equal(await own.files.size(hosted), null, 'its file too');
      assert.ok(await exists(api.uploadId), 'the API upload keeps its hour');
    } finally {
      await own.close();
    }
  });
});

describe('15.10 after an error the file is kept; the confirmation leads on', () => {
  test('a field to fix: the form names the kept file, and sent again without a file it goes through', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Kept File' });
    const ip = freshIp();
    const first = await send(
      ctx.app,
      await openForm(ctx.app, job.applyLink),
      { name: 'Ana', email: 'not-an-email' },
      {
        ip,
        file: { name: 'my-cv.pdf', bytes: pdfFixture('cv-2-pages.pdf') },
      },
    );
    assert.equal(first.statusCode, 400);
    assert.match(textOf(first.body), /We kept the file you sent \(my-cv\.pdf\)/);
    const again = formOf(first);
    assert.match(again.hidden.uploadId ?? '', /^upl_/);
    assert.doesNotMatch(first.body, /<input id="cv"[^>]* required/, 'the file input is no longer required');
    const email = `${unique('kept').toLowerCase()}@example.com`;
    const second = await send(ctx.app, again, { name: 'Ana', email }, { ip });
    assert.equal(second.statusCode, 201, second.body);
    const apps = await applicationsOf(intake.account.id, job.id);
    assert.equal(apps.length, 1);
    // The confirmation links back to the role and to the job list.
    assert.ok(job.url, 'the role has a page');
    assert.match(second.body, new RegExp(`<a href="${new URL(job.url!).pathname}">Back to Kept File</a>`));
    assert.match(second.body, /<a href="\/en\/jobs">See all jobs<\/a>/);
  });

  test('the CV checker unavailable: 503 with the form, the details and the file kept', async () => {
    const own = await startApp({
      clock: new ManualClock(T0),
      inspector: {
        check: async () => {
          const { ParserPoolUnavailable } = await import('../src/pdf/cv-check.ts');
          throw new ParserPoolUnavailable('down for the test');
        },
      },
    });
    try {
      const intake = await intakeAccount(own.app);
      const job = await createPublished(intake.api, { title: 'Checker Down' });
      const res = await send(
        own.app,
        await openForm(own.app, job.applyLink),
        person({ coverNote: 'Hello there' }),
        {
          ip: freshIp(),
          file: { name: 'mine.pdf', bytes: pdfFixture('cv-2-pages.pdf') },
        },
      );
      assert.equal(res.statusCode, 503, res.body);
      assert.match(textOf(res.body), /Your details and file are kept/);
      assert.match(textOf(res.body), /We kept the file you sent \(mine\.pdf\)/);
      assert.match(res.body, /Hello there/);
    } finally {
      await own.close();
    }
  });
});

describe('11.5 proxies: TRUST_PROXY, IPv6 /64, the socket address kept', () => {
  test('TRUST_PROXY: true is refused at start-up with a clear message; hop counts and CIDRs are read', () => {
    assert.throws(
      () => parseConfig({ TRUST_PROXY: 'true' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === 'TRUST_PROXY' &&
        /hop count|CIDR/.test(error.message),
    );
    assert.equal(parseConfig({ TRUST_PROXY: '1' }).http.trustProxy, 1);
    assert.equal(parseConfig({ TRUST_PROXY: 'false' }).http.trustProxy, false);
    assert.equal(
      parseConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::/32,loopback' }).http.trustProxy,
      '10.0.0.0/8,2001:db8::/32,loopback',
    );
    for (const bad of ['10.0.0.0/33', 'evil.example', '10.0.0.0/8,', '1.2.3.4/8/9', 'yes'])
      assert.throws(() => parseConfig({ TRUST_PROXY: bad }), ConfigError, bad);
  });

  test('one hop trusted: the forged left-most X-Forwarded-For changes nothing; the receipt keeps both addresses', async () => {
    const own = await startApp({
      clock: new ManualClock(T0),
      trustProxy: 1,
      applyPage: { burstPerAddress: 1000 },
    });
    try {
      const intake = await intakeAccount(own.app);
      const job = await createPublished(intake.api, { title: 'Behind Proxy' });
      const client = '198.51.100.77';
      const proxy = '10.0.0.5';
      for (let i = 0; i < 10; i++) {
        const res = await own.app.inject({
          method: 'POST',
          url: `/apply/${job.id}`,
          headers: { 'x-forwarded-for': `192.0.2.${i}, ${client}` },
          remoteAddress: proxy,
        });
        assert.equal(res.statusCode, 403, 'counted, then refused for its missing token');
      }
      const form = await openForm(own.app, job.applyLink);
      const limited = await send(own.app, form, person(), {
        ip: proxy,
        file: CV(),
        headers: { 'x-forwarded-for': `203.0.113.250, ${client}` },
      });
      assert.equal(limited.statusCode, 429, 'a new forged address does not reset the limit');
      const other = await send(own.app, await openForm(own.app, job.applyLink), person(), {
        ip: proxy,
        file: CV(),
        headers: { 'x-forwarded-for': `${client}, 198.51.100.78` },
      });
      assert.equal(other.statusCode, 201, other.body);
      const row = await own.handle.db
        .selectFrom('applications')
        .select(['consent_receipt', 'consent_socket_address'])
        .where('job_id', '=', job.id)
        .executeTakeFirstOrThrow();
      assert.equal((row.consent_receipt as { ip: string }).ip, '198.51.100.78', 'the address the proxy saw');
      assert.equal(row.consent_socket_address, proxy, 'the socket address beside it');
    } finally {
      await own.close();
    }
  });

  test('IPv6: one /64 is one bucket for the per-address limit', async () => {
    const intake = await intakeAccount(ctx.app);
    const job = await createPublished(intake.api, { title: 'Six' });
    for (let i = 1; i <= 10; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/apply/${job.id}`,
        remoteAddress: `2001:db8:7:9::${i.toString(16)}`,
      });
      assert.equal(res.statusCode, 403);
    }
    const same64 = await ctx.app.inject({
      method: 'POST',
      url: `/apply/${job.id}`,
      remoteAddress: '2001:db8:7:9:ffff:1:2:3',
    });
    assert.equal(same64.statusCode, 429, 'another address of the same /64');
    const next64 = await ctx.app.inject({
      method: 'POST',
      url: `/apply/${job.id}`,
      remoteAddress: '2001:db8:7:a::1',
    });
    assert.equal(next64.statusCode, 403, 'the next /64 has its own bucket');
  });
});

describe('11.7 the sitemap is cached', () => {
  test('200 anonymous requests, 20 at a time, cost one build; the next build comes after five minutes', async () => {
    let feedCalls = 0;
    const clock = new ManualClock(T0);
    const own = await startApp({
      clock,
      wrapServices: (services) => ({
        ...services,
        publicJobs: {
          ...services.publicJobs,
          feed: (...args: Parameters<typeof services.publicJobs.feed>) => {
            feedCalls += 1;
            return services.publicJobs.feed(...args);
          },
        },
      }),
    });
    try {
      const intake = await intakeAccount(own.app);
      const job = await createPublished(intake.api, { title: 'Mapped' });
      for (let round = 0; round < 10; round++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => own.app.inject({ method: 'GET', url: '/sitemap.xml' })),
        );
        for (const res of answers) {
          assert.equal(res.statusCode, 200);
          assert.ok(res.body.includes(job.url!));
        }
      }
      assert.equal(feedCalls, 1, 'one build (one feed page) for 200 requests');
      clock.advance(5 * 60_000);
      await own.app.inject({ method: 'GET', url: '/sitemap.xml' });
      assert.equal(feedCalls, 2, 'rebuilt once the five minutes passed');
    } finally {
      await own.close();
    }
  });
});

describe('11.7 the claim-link key is outside the database', () => {
  test('from CLAIM_LINK_KEY, else generated once into DATA_DIR/claim-link-key with mode 0600', () => {
    const dataDir = tempDir('claim-key-');
    const config = parseConfig({ DATA_DIR: dataDir });
    const key = resolveClaimLinkKey(config);
    const file = path.join(dataDir, 'claim-link-key');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.ok(key.length >= 32);
    assert.equal(resolveClaimLinkKey(config), key, 'the same key on the next start');
    fs.chmodSync(file, 0o644);
    assert.equal(resolveClaimLinkKey(config), key);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'a loosened file is narrowed again');
    const fromEnv = 'k'.repeat(40);
    assert.equal(resolveClaimLinkKey(parseConfig({ DATA_DIR: dataDir, CLAIM_LINK_KEY: fromEnv })), fromEnv);
    assert.throws(() => parseConfig({ CLAIM_LINK_KEY: 'short' }), ConfigError);
  });

  test('no secret in the database makes a link; a link mailed under one key works after the key changes', async () => {
    const intake = await intakeAccount(ctx.app, { companyName: 'Key Co' });
    const job = await createPublished(intake.api, { title: 'Keyed' });
    const who = person({ name: 'Sam Keyes' });
    const cv = await cvPdf({ name: 'Sam Keyes', email: who.email!, employer: 'Acme', title: 'Clerk' });
    const res = await send(ctx.app, await openForm(ctx.app, job.applyLink), who, {
      ip: freshIp(),
      file: { name: 'cv.pdf', bytes: cv },
    });
    assert.equal(res.statusCode, 201, res.body);
    await drainAll(ctx.worker);
    const [mail] = await mailTo(ctx.app, who.email!);
    const link = claimLinksIn(mail!.text)[0]!;
    const token = link.split('/cv/')[1]!;
    const app = await ctx.handle.db
      .selectFrom('applications')
      .select('id')
      .where('job_id', '=', job.id)
      .executeTakeFirstOrThrow();
    const secrets = await ctx.handle.db.selectFrom('service_secrets').select(['name', 'value']).execute();
    assert.ok(!secrets.some((s) => s.name === 'claim-link'), 'no claim-link secret row');
    for (const secret of secrets) {
      const forged = createHmac('sha256', secret.value)
        .update(`claim:application:${app.id}`)
        .digest('base64url');
      assert.notEqual(forged, token, `${secret.name} does not make the link`);
    }
    const rekeyed = await startApp({
      clock: ctx.clock,
      claimLinkKey: 'another-claim-link-key-0123456789abcdef',
    });
    try {
      const page = await rekeyed.app.inject({ method: 'GET', url: linkPath(link) });
      assert.equal(page.statusCode, 200, 'the mailed link still opens the virtual CV');
    } finally {
      await rekeyed.close();
    }
  });
});
