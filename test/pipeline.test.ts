import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applyTo, pdfFixture } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, postForm } from './support/mail.ts';

const ctx = useTestApp();

/** An account with a published job and `n` applications (through the API, each with its PDF). */
async function setup(n = 3) {
  const intake = await intakeAccount(ctx.app);
  const jobId = (await createPublished(intake.api)).id;
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await applyTo(ctx, intake.api, jobId, { name: `Person ${i}` })).candidateId);
  return { accountId: intake.account.id as string, jobId, ids, api: intake.api };
}

async function auditOf(accountId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/audit`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().entries as {
    action: string;
    target: string;
    actor: { kind: string; email: string | null };
    at: string;
  }[];
}

async function stageEvents(accountId: string) {
  const rows = await ctx.handle.db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('type', '=', 'application.stage_changed')
    .execute();
  return rows.map((r) => r.data as unknown as Record<string, unknown>);
}

describe('pipeline stages (console API)', () => {
  test('one move: 200 { application } at the stage, audited, with the event of ids only', async () => {
    const s = await setup(1);
    const res = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.accountId}/applications/${s.ids[0]}/stage`,
      {
        stage: 'reviewing',
      },
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().application.stage, 'reviewing');
    assert.equal(res.json().application.applicationId, s.ids[0]);
    assert.deepEqual(await stageEvents(s.accountId), [
      { applicationId: s.ids[0], jobId: s.jobId, stage: 'reviewing' },
    ]);
    const moves = (await auditOf(s.accountId)).filter((e) => e.action === 'application.stage_changed');
    assert.equal(moves.length, 1);
    assert.equal(moves[0]!.target, s.ids[0]);
    assert.equal(moves[0]!.actor.kind, 'operator');
    // The public status is untouched.
    const pub = await s.api.get(`/v1/applications/${s.ids[0]}`);
    assert.equal(pub.json().status, 'received');
    assert.equal(pub.json().stage, undefined);
  });

  test('an unknown stage is 400; another account’s application is 404', async () => {
    const s = await setup(1);
    const other = await setup(0);
    const bad = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.accountId}/applications/${s.ids[0]}/stage`,
      {
        stage: 'promoted',
      },
    );
    assertError(bad, 400, 'bad_request');
    const theirs = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${other.accountId}/applications/${s.ids[0]}/stage`,
      { stage: 'reviewing' },
    );
    assertError(theirs, 404, 'not_found');
    const get = await consoleCall(ctx.app, 'GET', `/accounts/${other.accountId}/applications/${s.ids[0]}`);
    assertError(get, 404, 'not_found');
    const list = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${other.accountId}/jobs/${s.jobId}/applications`,
    );
    assertError(list, 404, 'not_found');
    const bulk = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${other.accountId}/jobs/${s.jobId}/applications/stage`,
      {
        applicationIds: s.ids,
        stage: 'hired',
      },
    );
    assertError(bulk, 404, 'not_found');
  });

  test('bulk: 200 { moved } counts those moved; other jobs’ ids move nothing; > 100 ids is 400', async () => {
    const s = await setup(3);
    const other = await setup(1);
    const res = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.accountId}/jobs/${s.jobId}/applications/stage`,
      {
        applicationIds: [...s.ids, other.ids[0]],
        stage: 'shortlisted',
      },
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { moved: 3 });
    assert.equal((await stageEvents(s.accountId)).length, 3);
    assert.equal((await stageEvents(other.accountId)).length, 0);
    const audited = (await auditOf(s.accountId)).filter((e) => e.action === 'application.stage_changed');
    assert.deepEqual(audited.map((e) => e.target).sort(), [...s.ids].sort());
    // Again: already there, nothing moves.
    const again = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.accountId}/jobs/${s.jobId}/applications/stage`,
      {
        applicationIds: s.ids,
        stage: 'shortlisted',
      },
    );
    assert.deepEqual(again.json(), { moved: 0 });
    const tooMany = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.accountId}/jobs/${s.jobId}/applications/stage`,
      {
        applicationIds: Array.from({ length: 101 }, (_, i) => `app_${i}`),
        stage: 'shortlisted',
      },
    );
    assertError(tooMany, 400, 'bad_request');
    const unknown = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.accountId}/jobs/${s.jobId}/applications/stage`,
      {
        applicationIds: s.ids,
        stage: 'archived',
      },
    );
    assertError(unknown, 400, 'bad_request');
  });
});

describe('notes, the list and the application', () => {
  test('a note: 201 { note } with author and time; 5,001 characters is 400; shown on the application', async () => {
    const s = await setup(1);
    const url = `/accounts/${s.accountId}/applications/${s.ids[0]}/notes`;
    const res = await consoleCall(ctx.app, 'POST', url, { text: 'Strong on Kotlin.' });
    assert.equal(res.statusCode, 201, res.body);
    const { note } = res.json();
    assert.equal(note.text, 'Strong on Kotlin.');
    assert.equal(note.author.kind, 'operator');
    assert.equal(note.createdAt, ctx.clock.now().toISOString());
    assertError(await consoleCall(ctx.app, 'POST', url, { text: 'x'.repeat(5001) }), 400, 'bad_request');
    assert.equal((await consoleCall(ctx.app, 'POST', url, { text: 'x'.repeat(5000) })).statusCode, 201);
    const got = await consoleCall(ctx.app, 'GET', `/accounts/${s.accountId}/applications/${s.ids[0]}`);
    assert.equal(got.statusCode, 200, got.body);
    const { application } = got.json();
    assert.equal(application.notes.length, 2);
    assert.equal(application.stage, 'new');
    assert.equal(application.source, 'api');
    assert.ok(application.consentText.text.length > 0);
  });

  test('the list: counts by stage for the whole job whatever the filters; q, stage, sort; bad values 400', async () => {
    const s = await setup(3);
    await consoleCall(ctx.app, 'POST', `/accounts/${s.accountId}/applications/${s.ids[1]}/stage`, {
      stage: 'hired',
    });
    const base = `/accounts/${s.accountId}/jobs/${s.jobId}/applications`;
    const all = (await consoleCall(ctx.app, 'GET', `${base}?sort=name`)).json();
    assert.deepEqual(
      all.applications.map((a: { name: string }) => a.name),
      ['Person 0', 'Person 1', 'Person 2'],
    );
    assert.equal(all.counts.total, 3);
    assert.equal(all.counts.byStage.hired, 1);
    assert.equal(all.counts.byStage.new, 2);
    const hired = (await consoleCall(ctx.app, 'GET', `${base}?stage=hired`)).json();
    assert.deepEqual(
      hired.applications.map((a: { applicationId: string }) => a.applicationId),
      [s.ids[1]],
    );
    assert.equal(hired.counts.total, 3);
    const q = (await consoleCall(ctx.app, 'GET', `${base}?q=PERSON%202`)).json();
    assert.deepEqual(
      q.applications.map((a: { name: string }) => a.name),
      ['Person 2'],
    );
    const pct = (await consoleCall(ctx.app, 'GET', `${base}?q=%25`)).json();
    assert.equal(pct.applications.length, 0, 'a % in q is a character, not a wildcard');
    const paged = (await consoleCall(ctx.app, 'GET', `${base}?limit=2&sort=oldest`)).json();
    assert.equal(paged.applications.length, 2);
    assert.ok(paged.nextCursor);
    const rest = (
      await consoleCall(ctx.app, 'GET', `${base}?limit=2&sort=oldest&cursor=${paged.nextCursor}`)
    ).json();
    assert.equal(rest.applications.length, 1);
    assert.equal(rest.nextCursor, null);
    assertError(
      await consoleCall(ctx.app, 'GET', `${base}?sort=name&cursor=${paged.nextCursor}`),
      400,
      'bad_request',
    );
    assertError(await consoleCall(ctx.app, 'GET', `${base}?stage=nope`), 400, 'bad_request');
    assertError(await consoleCall(ctx.app, 'GET', `${base}?limit=101`), 400, 'bad_request');
    assertError(await consoleCall(ctx.app, 'GET', `${base}?cursor=zzz`), 400, 'bad_request');
  });

  test('the candidate deleting through the claim link erases the notes with the application', async () => {
    const s = await setup(0);
    const { candidateId, email } = await applyTo(ctx, s.api, s.jobId);
    await consoleCall(ctx.app, 'POST', `/accounts/${s.accountId}/applications/${candidateId}/notes`, {
      text: 'Call back.',
    });
    const notes = () =>
      ctx.handle.db
        .selectFrom('application_notes')
        .selectAll()
        .where('application_id', '=', candidateId)
        .execute();
    assert.equal((await notes()).length, 1);
    await drainAll(ctx.worker);
    const [message] = await mailTo(ctx.app, email);
    const [link] = claimLinksIn(message!.text);
    const deleted = await postForm(ctx.app, `${linkPath(link!)}/delete`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal((await notes()).length, 0);
    const got = (
      await consoleCall(ctx.app, 'GET', `/accounts/${s.accountId}/applications/${candidateId}`)
    ).json();
    assert.deepEqual(got.application.notes, []);
    assert.equal(got.application.cvFile, false);
    assertError(
      await consoleCall(ctx.app, 'GET', `/accounts/${s.accountId}/applications/${candidateId}/cv.pdf`),
      404,
      'not_found',
    );
  });
});

describe('the CV download', () => {
  test('operator: the PDF as an attachment, audited; another account’s id 404', async () => {
    const s = await setup(1);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/console/v1/accounts/${s.accountId}/applications/${s.ids[0]}/cv.pdf`,
      headers: { authorization: `Bearer ${CONSOLE_TOKEN}` },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="cv-app_[^"]+\.pdf"$/);
    assert.ok(res.rawPayload.equals(pdfFixture('cv-2-pages.pdf')));
    const downloads = (await auditOf(s.accountId)).filter((e) => e.action === 'application.cv_downloaded');
    assert.equal(downloads.length, 1);
    assert.equal(downloads[0]!.target, s.ids[0]);
    const other = await setup(0);
    assertError(
      await consoleCall(ctx.app, 'GET', `/accounts/${other.accountId}/applications/${s.ids[0]}/cv.pdf`),
      404,
      'not_found',
    );
  });
});

describe('the console pages: roles and forms', () => {
  test('a recruiter moves, notes and downloads, each in Activity with who; billing admin gets 403 on forged posts', async () => {
    const s = await setup(3);
    const { web, email } = await signedIn(ctx.app, s.accountId, 'recruiter');
    const list = await web.get(`/console/jobs/${s.jobId}/applications`);
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /<table class="stack apps">/);
    assert.doesNotMatch(list.body, /cvStatus|job_page|integrator_site/);
    const moved = await web.post(`/console/jobs/${s.jobId}/applications/stage`, {
      ids: s.ids,
      stage: 'shortlisted',
      back: 'sort=name&evil=1',
    });
    assert.equal(moved.statusCode, 303, moved.body);
    assert.equal(moved.headers.location, `/console/jobs/${s.jobId}/applications?sort=name`);
    const after = await web.get(moved.headers.location as string);
    assert.match(after.body, /3 applications moved to Shortlisted/);
    const one = await web.get(`/console/applications/${s.ids[0]}`);
    assert.equal(one.statusCode, 200);
    assert.match(one.body, /Download the CV/);
    const noted = await web.post(`/console/applications/${s.ids[0]}/notes`, { text: 'Good <b>fit</b>' });
    assert.equal(noted.statusCode, 303);
    const page = await web.get(`/console/applications/${s.ids[0]}`);
    assert.match(page.body, /Good &lt;b&gt;fit&lt;\/b&gt;/);
    const tooLong = await web.post(`/console/applications/${s.ids[0]}/notes`, { text: 'y'.repeat(5001) });
    assert.equal(tooLong.statusCode, 303);
    assert.match((await web.get(tooLong.headers.location as string)).body, /at most 5,000 characters/);
    const pdf = await web.get(`/console/applications/${s.ids[0]}/cv.pdf`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.match(String(pdf.headers['content-disposition']), /^attachment;/);
    const trail = await auditOf(s.accountId);
    for (const action of [
      'application.stage_changed',
      'application.note_added',
      'application.cv_downloaded',
    ]) {
      const entry = trail.find((e) => e.action === action);
      assert.ok(entry, action);
      assert.equal(entry.actor.email, email);
    }

    const billing = await signedIn(ctx.app, s.accountId, 'billing_admin');
    await billing.web.get('/console/billing');
    const forged = await billing.web.post(`/console/jobs/${s.jobId}/applications/stage`, {
      ids: s.ids,
      stage: 'hired',
    });
    assert.equal(forged.statusCode, 403);
    const forgedNote = await billing.web.post(`/console/applications/${s.ids[0]}/notes`, { text: 'x' });
    assert.equal(forgedNote.statusCode, 403);
    assert.equal((await billing.web.get(`/console/applications/${s.ids[0]}/cv.pdf`)).statusCode, 403);
    const rows = await ctx.handle.db
      .selectFrom('applications')
      .select('stage')
      .where('id', 'in', s.ids)
      .execute();
    assert.ok(rows.every((r) => r.stage === 'shortlisted'));
  });
});
