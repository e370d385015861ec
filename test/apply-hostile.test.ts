import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { solveProofOfWork } from '../src/lib/proof-of-work.ts';
import { greetingName } from '../src/mail/templates.ts';
import { checkValues } from '../src/http/pages/apply/submit-form.ts';
import { PAGE_WORDS } from '../src/http/pages/i18n.ts';
import { formOf, normalized, openForm, send, textOf } from './apply-form-client.ts';
import {
  type TestContext,
  closeDatabase,
  consoleCall,
  createPublished,
  cvPdf,
  drainAll,
  intakeAccount,
  mailTo,
  pdfFixture,
  startApp,
  unique,
  uploadPdf,
  applicationBody,
  consentReceipt,
} from './harness.ts';

const T0 = '2026-03-16T09:00:00.000Z';
let ctx: TestContext;

before(async () => {
  ctx = await startApp({
    clock: new ManualClock(T0),
    applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
  });
});

after(async () => {
  await ctx?.close();
  await closeDatabase();
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
    // Before the burst: answered at once.
    for (let i = 0; i < 2; i++) {
      const { res, ms } = await timed(person());
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(ms < WAIT_MS, `post ${i + 1}: ${ms.toFixed(0)} ms`);
    }
    // A client without JavaScript: the answer waits, and the form still works.
    const slow = await timed(person());
    assert.equal(slow.res.statusCode, 201, slow.res.body);
    assert.ok(slow.ms >= WAIT_MS - 50, `waited ${slow.ms.toFixed(0)} ms`);
    // The page's script: the proof of work over the token, no wait.
    const form = await openForm(burst.app, job.applyLink);
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
