import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { loggerOptions } from '../src/plugins/log.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { BASE_URL, useTestApp } from './support/app.ts';
import { applyWithCv, candidateBody, pdfFixture, uploadPdf } from './support/intake.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, type OutboxMessage, postForm } from './support/mail.ts';

/**
 * The paths where the candidate mail differs: a person who holds an account (their application
 * stands on their own CV; their import gets a notice whatever sendClaimEmail says), a suppressed
 * person (nobody is emailed), and imports with and without sendClaimEmail.
 */

const CV = pdfFixture('cv-2-pages.pdf');
const CV_NAME = 'Marisol Quintero-Ávila';
const CV_EMPLOYER = 'Harbourline Freight Pty Ltd';

const ctx = useTestApp({ logger: { ...(loggerOptions('error') as object), stream: process.stderr } });

type Intake = Awaited<ReturnType<typeof intakeAccount>>;

function address(prefix: string): string {
  return `${unique(prefix).toLowerCase()}@example.com`;
}

async function addPerson(email: string, name = 'Person With Account') {
  const res = await consoleCall(ctx.app, 'POST', '/people', { email, name });
  assert.equal(res.statusCode, 201, res.body);
}

async function suppress(email: string) {
  const res = await consoleCall(ctx.app, 'POST', '/suppressions', { email });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().suppression as { erased: number };
}

/** POST /v1/candidates with a freshly uploaded CV; answers the response and the upload id. */
async function importCandidate(intake: Intake, overrides: Record<string, unknown>) {
  const upload = await uploadPdf(ctx, intake.api, CV);
  const res = await intake.api.post('/v1/candidates', candidateBody(upload.uploadId, overrides), {
    'idempotency-key': unique('idem'),
  });
  return { res, uploadId: upload.uploadId };
}

async function candidateRow(id: string) {
  return ctx.handle.db.selectFrom('candidates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function tasksAbout(id: string) {
  return ctx.handle.db
    .selectFrom('tasks')
    .select(['name', 'state', 'key'])
    .where('key', 'like', `%${id}%`)
    .orderBy('created_at')
    .execute();
}

async function virtualCvCount(kind: 'application' | 'candidate', id: string) {
  const rows = await ctx.handle.db
    .selectFrom('virtual_cvs')
    .select('id')
    .where('subject_kind', '=', kind)
    .where('subject_id', '=', id)
    .execute();
  return rows.length;
}

function onlyLink(messages: OutboxMessage[]): { message: OutboxMessage; path: string } {
  assert.equal(messages.length, 1, JSON.stringify(messages.map((m) => m.subject)));
  const message = messages[0]!;
  const links = claimLinksIn(message.text);
  assert.equal(links.length, 1, message.text);
  assert.match(links[0]!, new RegExp(`^${BASE_URL.replace(/\./g, '\\.')}/cv/[A-Za-z0-9_-]{43}$`));
  assert.deepEqual([...new Set(claimLinksIn(message.html))], links);
  return { message, path: linkPath(links[0]!) };
}

function html(res: LightMyRequestResponse, status: number, lang: string): string {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  assert.match(res.body, new RegExp(`<html lang="${lang}">`));
  return res.body
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

describe('a person who holds an account', () => {
  test('their application → 201 cvStatus processing (the spec’s shape), claimed a moment later; no build, no mail, the file erased', async () => {
    const email = address('holder');
    await addPerson(email.toUpperCase());
    const applied = await applyWithCv(ctx, { body: { email } });
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    assert.equal(applied.res.json().status, 'received');
    assert.equal(applied.res.json().cvStatus, 'processing');

    assert.deepEqual(
      (await tasksAbout(applied.applicationId)).map((t) => t.name),
      ['stand-on-account-cv'],
      'no build: only the step that marks it claimed',
    );
    assert.equal(await ctx.files.size(applied.uploadId), null, 'the file is erased');
    await drainAll(ctx.worker);
    assert.deepEqual(await mailTo(ctx.app, email), [], 'no claim email');
    assert.equal(await virtualCvCount('application', applied.applicationId), 0, 'nothing was built');

    const status = await applied.api.get(`/v1/applications/${applied.applicationId}`);
    assert.equal(status.statusCode, 200, status.body);
    assert.equal(status.json().cvStatus, 'claimed');
    assert.equal(status.json().status, 'received');
    assert.equal(status.json().claimedAt, ctx.clock.now().toISOString());
    const row = await ctx.handle.db
      .selectFrom('applications')
      .selectAll()
      .where('id', '=', applied.applicationId)
      .executeTakeFirstOrThrow();
    assert.equal(row.blob_key, null);
  });

  for (const sendClaimEmail of [false, true] as const) {
    test(`their import (sendClaimEmail: ${sendClaimEmail}) → existing_account; a notice in the import's locale; sharing claims`, async () => {
      const intake = await intakeAccount(ctx.app, { companyName: 'Quillon Analytics' });
      const email = address('holder');
      await addPerson(email);
      const { res, uploadId } = await importCandidate(intake, {
        email,
        name: 'Inès Carvalho',
        locale: 'fr',
        sendClaimEmail,
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'existing_account');
      assert.equal(res.json().cvStatus, 'none');
      const id = res.json().candidateId as string;
      assert.equal(await ctx.files.size(uploadId), null, 'nothing is built from the file; it is erased');
      assert.deepEqual(
        (await tasksAbout(id)).map((t) => [t.name, t.state]),
        [['send-account-notice', 'queued']],
      );

      await drainAll(ctx.worker);
      await drainAll(ctx.worker);
      assert.equal(await virtualCvCount('candidate', id), 0);
      const { message, path } = onlyLink(await mailTo(ctx.app, email));
      assert.equal(message.locale, 'fr');
      assert.equal(message.subject, 'Quillon Analytics aimerait recevoir votre CV');
      assert.ok(message.text.startsWith('Bonjour Inès,'), message.text);
      assert.match(message.html, /^<!doctype html><html lang="fr">/);

      const page = html(await ctx.app.inject({ method: 'GET', url: path }), 200, 'fr');
      assert.ok(page.includes('Quillon Analytics'));
      assert.ok(page.includes('Partager mon propre CV'), 'the share button');
      assert.ok(page.includes('Supprimer mes données'), 'the delete button');
      assert.ok(!page.includes(CV_NAME) && !page.includes(CV_EMPLOYER), 'no CV was built to show');

      const shared = html(await postForm(ctx.app, `${path}/claim`), 200, 'fr');
      assert.ok(shared.includes("C'est fait"), shared);
      const row = await candidateRow(id);
      assert.equal(row.cv_status, 'claimed');
      assert.equal(row.claimed_at?.toISOString(), ctx.clock.now().toISOString());
      assert.equal(row.outcome, 'existing_account');
      const again = html(await ctx.app.inject({ method: 'GET', url: path }), 200, 'fr');
      assert.ok(
        again.includes('Vous avez partagé votre propre CV'),
        'the shared state, with the delete button',
      );
      assert.ok(!again.includes(`${path}/claim"`) && again.includes(`${path}/delete"`), again);
      assert.equal((await mailTo(ctx.app, email)).length, 1, 'one notice');
    });
  }

  test('their import → the notice link can delete their details instead', async () => {
    const intake = await intakeAccount(ctx.app, { companyName: 'Quillon Analytics' });
    const email = address('holder');
    await addPerson(email);
    const { res } = await importCandidate(intake, { email, name: 'Rui Tavares', locale: 'pt' });
    assert.equal(res.json().status, 'existing_account', res.body);
    const id = res.json().candidateId as string;
    await drainAll(ctx.worker);
    const { message, path } = onlyLink(await mailTo(ctx.app, email));
    assert.equal(message.locale, 'pt');
    assert.equal(message.subject, 'A Quillon Analytics gostaria de receber o seu CV');

    const deleted = html(await postForm(ctx.app, `${path}/delete`), 200, 'pt');
    assert.ok(deleted.includes('Eliminado'), deleted);
    const row = await candidateRow(id);
    assert.equal(row.cv_status, 'deleted');
    assert.equal(row.name, null);
    assert.equal(row.email, null);
    assert.equal(row.email_key, null);
    assert.equal(row.claimed_at, null);
    assert.deepEqual(await mailTo(ctx.app, email), [], 'the notice kept about them is erased');
    html(await ctx.app.inject({ method: 'GET', url: path }), 410, 'pt');
    html(await postForm(ctx.app, `${path}/claim`), 410, 'pt');
    assert.equal((await candidateRow(id)).cv_status, 'deleted');
  });
});

describe('a suppressed person', () => {
  for (const sendClaimEmail of [undefined, true, false] as const) {
    test(`import (sendClaimEmail: ${sendClaimEmail}) → suppressed; nothing built, nobody emailed`, async () => {
      const intake = await intakeAccount(ctx.app);
      const email = address('gone');
      await suppress(email);
      const { res, uploadId } = await importCandidate(intake, {
        email,
        ...(sendClaimEmail === undefined ? {} : { sendClaimEmail }),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().status, 'suppressed');
      assert.equal(res.json().cvStatus, 'none');
      const id = res.json().candidateId as string;
      assert.deepEqual(await tasksAbout(id), [], 'no task');
      assert.equal(await ctx.files.size(uploadId), null, 'the file is erased');
      await drainAll(ctx.worker);
      assert.deepEqual(await mailTo(ctx.app, email), []);
      assert.equal(await virtualCvCount('candidate', id), 0);
      const row = await candidateRow(id);
      assert.equal(row.email, null);
      assert.equal(row.name, null);
    });
  }

  test('suppressed after the import was queued, before the worker ran → never emailed', async () => {
    const intake = await intakeAccount(ctx.app);
    const email = address('late');
    const { res } = await importCandidate(intake, { email });
    assert.equal(res.json().status, 'queued', res.body);
    const id = res.json().candidateId as string;
    await suppress(email);
    await drainAll(ctx.worker);
    assert.deepEqual(await mailTo(ctx.app, email), []);
    assert.equal((await candidateRow(id)).cv_status, 'deleted');
    assert.equal(await virtualCvCount('candidate', id), 0);
  });

  test('suppressed after the CV was staged, before the mail went out → never emailed, the virtual CV erased', async () => {
    const intake = await intakeAccount(ctx.app);
    const email = address('late');
    const { res, uploadId } = await importCandidate(intake, { email });
    const id = res.json().candidateId as string;
    // Run only the build: the mail task stays queued.
    const build = await ctx.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('key', '=', `build-cv:candidate:${id}`)
      .executeTakeFirstOrThrow();
    await ctx.services.taskHandlers['build-cv']({ kind: 'candidate', id }, build);
    assert.equal((await candidateRow(id)).cv_status, 'staged');
    assert.equal(await virtualCvCount('candidate', id), 1);

    const suppressed = await suppress(email);
    assert.equal(suppressed.erased, 1);
    await drainAll(ctx.worker);
    assert.deepEqual(await mailTo(ctx.app, email), [], 'nobody is emailed');
    assert.equal(await ctx.files.size(uploadId), null, 'the file is erased');
    assert.equal(await virtualCvCount('candidate', id), 0, 'the virtual CV built from it is erased too');
    const row = await candidateRow(id);
    assert.equal(row.cv_status, 'deleted');
    assert.equal(row.email, null);
  });
});

describe('a suppressed person, after the mail went out', () => {
  test('suppression erases the staged CV and the mail kept about it; the link then answers 410', async () => {
    const intake = await intakeAccount(ctx.app);
    const email = address('after');
    const { res, uploadId } = await importCandidate(intake, { email, locale: 'es' });
    const id = res.json().candidateId as string;
    await drainAll(ctx.worker);
    const { path } = onlyLink(await mailTo(ctx.app, email));
    html(await ctx.app.inject({ method: 'GET', url: path }), 200, 'es');

    await suppress(email);
    assert.deepEqual(await mailTo(ctx.app, email), []);
    assert.equal(await virtualCvCount('candidate', id), 0);
    assert.equal(await ctx.files.size(uploadId), null);
    const gone = html(await ctx.app.inject({ method: 'GET', url: path }), 410, 'es');
    assert.ok(!gone.includes(CV_NAME) && !gone.includes(email));
    html(await postForm(ctx.app, `${path}/claim`), 410, 'es');
    assert.equal((await candidateRow(id)).cv_status, 'deleted');
  });
});

describe('imports and sendClaimEmail', () => {
  test('sendClaimEmail: false → queued → staged; no mail, no mail task', async () => {
    const intake = await intakeAccount(ctx.app);
    const email = address('quiet');
    const { res, uploadId } = await importCandidate(intake, { email, sendClaimEmail: false, locale: 'es' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().status, 'queued');
    assert.equal(res.json().cvStatus, 'processing');
    const id = res.json().candidateId as string;
    await drainAll(ctx.worker);
    const row = await candidateRow(id);
    assert.equal(row.cv_status, 'staged');
    assert.ok(row.staged_at);
    assert.equal(await virtualCvCount('candidate', id), 1);
    assert.ok(await ctx.files.size(uploadId), 'the file is kept with the staged CV');
    assert.deepEqual(await mailTo(ctx.app, email), []);
    assert.deepEqual(
      (await tasksAbout(id)).map((t) => [t.name, t.state]),
      [['build-cv', 'done']],
    );
  });

  for (const [locale, sendClaimEmail] of [
    ['es', undefined],
    ['pt', true],
  ] as const) {
    test(`sendClaimEmail ${sendClaimEmail ?? 'absent (default true)'} → one claim mail in ${locale}; its link claims the import`, async () => {
      const intake = await intakeAccount(ctx.app, { companyName: 'Ribera Salud' });
      const email = address('loud');
      const { res } = await importCandidate(intake, {
        email,
        locale,
        ...(sendClaimEmail === undefined ? {} : { sendClaimEmail }),
      });
      assert.equal(res.json().status, 'queued', res.body);
      const id = res.json().candidateId as string;
      await drainAll(ctx.worker);
      await drainAll(ctx.worker);
      assert.equal((await candidateRow(id)).cv_status, 'staged');

      const { message, path } = onlyLink(await mailTo(ctx.app, email));
      assert.equal(message.locale, locale);
      assert.equal(
        message.subject,
        locale === 'es' ? 'Ribera Salud tiene tu CV' : 'A Ribera Salud tem o seu CV',
      );
      assert.ok(message.text.startsWith(locale === 'es' ? 'Hola' : 'Olá'), message.text);

      const page = html(await ctx.app.inject({ method: 'GET', url: path }), 200, locale);
      assert.ok(page.includes(CV_NAME) && page.includes(CV_EMPLOYER), 'the virtual CV is shown');
      assert.ok(page.includes('Ribera Salud'));
      assert.ok(page.includes(locale === 'es' ? 'Tu CV virtual' : 'O seu CV virtual'));

      const claimed = html(await postForm(ctx.app, `${path}/claim`), 200, locale);
      assert.ok(claimed.includes(locale === 'es' ? 'el CV es tuyo' : 'o CV é seu'), claimed);
      const row = await candidateRow(id);
      assert.equal(row.cv_status, 'claimed');
      assert.equal(row.claimed_at?.toISOString(), ctx.clock.now().toISOString());
      assert.equal(await virtualCvCount('candidate', id), 1);
      // The link keeps showing the claimed CV for its lifetime (with the delete button).
      const again = html(await ctx.app.inject({ method: 'GET', url: path }), 200, locale);
      assert.ok(!again.includes(`${path}/claim"`) && again.includes(`${path}/delete"`), again);
    });
  }
});
