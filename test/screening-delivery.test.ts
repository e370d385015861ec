import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../src/lib/clock.ts';
import { consoleCall, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { applyTo, importCandidate } from './support/intake.ts';
import { managedJob } from './support/jobs.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, postForm } from './support/mail.ts';
import { newTemplate, screeningRow, triggerScreening } from './support/screening.ts';
import { HOUR } from './support/time.ts';

/**
 * How the invitation reaches the candidate: an interview request on a virtual CV they claimed (or
 * their own account's CV), else one email in the request's language with the message and the
 * deadline, sent by a keyed task.
 */

const ctx = useTestApp({ clock: new ManualClock('2026-03-10T09:00:00Z') });

function created(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as {
    screening: { screeningId: string; deliveryPath: string; status: string; completeBy: string };
    billing: string;
  };
}

async function scenario() {
  const s = await screeningAccount(ctx.app, { companyName: 'Harbour Logistics' });
  const template = await newTemplate(ctx.app, s.account.id);
  const job = await managedJob(ctx.app, s.api, s.account.id, { title: 'Warehouse Systems Lead' });
  return { ...s, template, job };
}

/** The tasks that would send this screening's invitation by email. */
async function inviteTasks(screeningId: string) {
  return ctx.handle.db
    .selectFrom('tasks')
    .selectAll()
    .where('key', '=', `send-screening-invite:${screeningId}`)
    .execute();
}

/** Runs the worker until idle, then follows the claim link the outbox sent to `email`. */
async function claimVirtualCv(email: string) {
  await drainAll(ctx.worker);
  const mails = await mailTo(ctx.app, email);
  const links = mails.flatMap((m) => claimLinksIn(m.text));
  assert.equal(links.length, 1, `one claim link to ${email}: ${JSON.stringify(mails.map((m) => m.subject))}`);
  const res = await postForm(ctx.app, `${linkPath(links[0]!)}/claim`);
  assert.equal(res.statusCode, 200, res.body);
}

describe('virtual_cv: a claimed virtual CV, or the person’s own account CV', () => {
  test('an imported candidate who claimed their virtual CV gets an interview request there, and no email', async () => {
    const s = await scenario();
    const person = await importCandidate(ctx, s.api);
    await claimVirtualCv(person.email);
    const row = await ctx.handle.db
      .selectFrom('candidates')
      .select('cv_status')
      .where('id', '=', person.candidateId)
      .executeTakeFirstOrThrow();
    assert.equal(row.cv_status, 'claimed');
    const before = (await mailTo(ctx.app, person.email)).length;
    const body = created(
      await triggerScreening(s.api, s.job.id, person.candidateId, {
        templateId: s.template.id,
        message: 'Hello there',
      }),
    );
    assert.equal(body.screening.deliveryPath, 'virtual_cv');
    assert.equal(body.screening.status, 'invited');
    assert.equal((await screeningRow(ctx.handle, body.screening.screeningId))?.delivery_path, 'virtual_cv');
    assert.deepEqual(await inviteTasks(body.screening.screeningId), []);
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, person.email)).length, before, 'no invitation email');
  });

  test('an applicant who claimed the virtual CV built from their application: virtual_cv', async () => {
    const s = await scenario();
    const applicant = await applyTo(ctx, s.api, s.job.id);
    await claimVirtualCv(applicant.email);
    const before = (await mailTo(ctx.app, applicant.email)).length;
    const body = created(
      await triggerScreening(s.api, s.job.id, applicant.candidateId, { templateId: s.template.id }),
    );
    assert.equal(body.screening.deliveryPath, 'virtual_cv');
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, applicant.email)).length, before);
  });

  test('a person with their own account who applied (cvStatus claimed): virtual_cv, no email', async () => {
    const s = await scenario();
    const email = `${unique('holder').toLowerCase()}@example.com`;
    const person = await consoleCall(ctx.app, 'POST', '/people', { email, name: 'Nadia Holder' });
    assert.equal(person.statusCode, 201, person.body);
    const applicant = await applyTo(ctx, s.api, s.job.id, { email, name: 'Nadia Holder' });
    await drainAll(ctx.worker); // processing → claimed: the application stands on the account's CV
    const application = await s.api.get(`/v1/applications/${applicant.candidateId}`);
    assert.equal(application.json().cvStatus, 'claimed', application.body);
    const body = created(
      await triggerScreening(s.api, s.job.id, applicant.candidateId, {
        templateId: s.template.id,
        language: 'es',
      }),
    );
    assert.equal(body.screening.deliveryPath, 'virtual_cv');
    assert.deepEqual(await inviteTasks(body.screening.screeningId), []);
    await drainAll(ctx.worker);
    assert.deepEqual(await mailTo(ctx.app, email), []);
  });

  test('an imported account holder is emailed until they share their own CV, then reached on it', async () => {
    const s = await scenario();
    const email = `${unique('holder').toLowerCase()}@example.com`;
    assert.equal(
      (await consoleCall(ctx.app, 'POST', '/people', { email, name: 'Oskar Holder' })).statusCode,
      201,
    );
    const person = await importCandidate(ctx, s.api, { email, name: 'Oskar Holder' });
    assert.equal(person.status, 'existing_account');
    const first = created(
      await triggerScreening(s.api, s.job.id, person.candidateId, { templateId: s.template.id }),
    );
    assert.equal(first.screening.deliveryPath, 'email');
    // The account notice carries the link through which they share their own CV.
    await claimVirtualCv(email);
    const secondRole = await managedJob(ctx.app, s.api, s.account.id, { title: 'Second role' });
    const second = created(
      await triggerScreening(s.api, secondRole.id, person.candidateId, { templateId: s.template.id }),
    );
    assert.equal(second.screening.deliveryPath, 'virtual_cv');
  });
});

describe('email: anyone else, in the request’s language', () => {
  const cases = [
    {
      language: 'en',
      subject: /^Harbour Logistics invites you to a screening for Warehouse Systems Lead$/,
      date: 'March 17, 2026',
      time: /2:30\sPM/,
    },
    {
      language: 'es',
      subject: /^Harbour Logistics te invita a una evaluación para Warehouse Systems Lead$/,
      date: '17 de marzo de 2026',
      time: /14:30/,
    },
    {
      language: 'fr',
      subject: /^Harbour Logistics vous invite à une présélection pour Warehouse Systems Lead$/,
      date: '17 mars 2026',
      time: /14:30/,
    },
    {
      language: 'pt',
      subject: /^A Harbour Logistics convida-o para uma triagem para Warehouse Systems Lead$/,
      date: '17 de março de 2026',
      time: /14:30/,
    },
  ] as const;

  for (const { language, subject, date, time } of cases) {
    test(`${language}: exactly one invitation after the worker ran, with the message and the deadline`, async () => {
      ctx.clock.set('2026-03-10T09:00:00Z');
      const s = await scenario();
      const applicant = await applyTo(ctx, s.api, s.job.id, { name: 'Lucía Fernández' });
      // The claim mail for the application goes out first; only what follows is the invitation.
      await drainAll(ctx.worker);
      const seen = new Set((await mailTo(ctx.app, applicant.email)).map((m) => m.id));
      assert.equal(seen.size, 1, 'the claim mail');
      const message = `Bring <your> portfolio & questions — ${language}`;
      const body = created(
        await triggerScreening(s.api, s.job.id, applicant.candidateId, {
          templateId: s.template.id,
          completeBy: '2026-03-17T14:30:00Z',
          message,
          language,
        }),
      );
      assert.equal(body.screening.deliveryPath, 'email');
      assert.equal((await screeningRow(ctx.handle, body.screening.screeningId))?.delivery_path, 'email');
      const tasks = await inviteTasks(body.screening.screeningId);
      assert.equal(tasks.length, 1);
      assert.equal(tasks[0]?.name, 'send-screening-invite');
      assert.equal(
        (await mailTo(ctx.app, applicant.email)).length,
        seen.size,
        'sent by the worker, not in the call',
      );
      await drainAll(ctx.worker);
      await drainAll(ctx.worker);
      const mails = (await mailTo(ctx.app, applicant.email)).filter((m) => !seen.has(m.id));
      assert.equal(mails.length, 1, JSON.stringify(mails.map((m) => m.subject)));
      const mail = mails[0]!;
      assert.equal(mail.to, applicant.email);
      assert.equal(mail.locale, language);
      assert.match(mail.subject, subject);
      // Greeted by the checked first name only (issue 11.3): the rest of the name is never mailed.
      assert.ok(mail.text.split('\n', 1)[0]!.includes('Lucía'), mail.text);
      assert.ok(!mail.text.includes('Fernández'), mail.text);
      assert.ok(mail.text.includes(message), mail.text);
      assert.ok(mail.text.includes(date), `${date} in ${mail.text}`);
      assert.match(mail.text, time);
      assert.ok(mail.html.includes('Bring &lt;your&gt; portfolio &amp; questions'), mail.html);
      assert.ok(!mail.html.includes('<your>'));
    });
  }

  test('defaults: language en; without a message the mail has no note', async () => {
    ctx.clock.set('2026-03-10T09:00:00Z');
    const s = await scenario();
    const person = await importCandidate(ctx, s.api, { sendClaimEmail: false, locale: 'fr' });
    const body = created(
      await triggerScreening(s.api, s.job.id, person.candidateId, { templateId: s.template.id }),
    );
    assert.equal(body.screening.deliveryPath, 'email');
    assert.equal(body.screening.completeBy, '2026-03-17T09:00:00.000Z');
    await drainAll(ctx.worker);
    const mails = await mailTo(ctx.app, person.email);
    assert.equal(mails.length, 1, JSON.stringify(mails.map((m) => m.subject)));
    assert.equal(mails[0]?.locale, 'en');
    assert.match(mails[0]!.subject, /invites you to a screening/);
    assert.ok(mails[0]!.text.includes('March 17, 2026'), mails[0]!.text);
    assert.ok(!mails[0]!.text.includes('A note from the employer'), mails[0]!.text);
  });

  test('an invitation whose screening was cancelled before the worker ran is not sent', async () => {
    const s = await scenario();
    const person = await importCandidate(ctx, s.api, { sendClaimEmail: false });
    const body = created(
      await triggerScreening(s.api, s.job.id, person.candidateId, { templateId: s.template.id }),
    );
    assert.equal(body.screening.deliveryPath, 'email');
    ctx.clock.advance(HOUR);
    assert.equal((await s.api.post(`/v1/jobs/${s.job.id}/close`)).statusCode, 200);
    await drainAll(ctx.worker);
    assert.deepEqual(await mailTo(ctx.app, person.email), []);
  });
});
