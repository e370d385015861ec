import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { platformAlias, REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { signedIn } from './console-web-client.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { client, consoleCall, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applicationBody, pdfFixture, putUpload, uploadPdf } from './support/intake.ts';
import { createPublished, manageJob } from './support/jobs.ts';
import { drainAll, mailTo } from './support/mail.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/**
 * Platform people open to matches (extensions.md §2, Pool; issue 19): job seekers who hold a
 * platform account, gave a CV through the console and chose to be found, are in every account's
 * pool, by an id of each account's own; closed, deleted, suppressed people never.
 */

/** Platform people are in every account's pool: on a shared PostgreSQL they would reach other files' accounts. */
const opened: string[] = [];
// Registered before useTestApp's own hook, so it runs while the app is still open.
after(async () => {
  for (const id of opened) await consoleCall(ctx.app, 'PATCH', `/people/${id}`, { openToMatches: false });
});
const ctx = useTestApp();

const people = pool as (PoolCvDescription & { truth: { occupation: string } })[];
const backend = people.filter((p) => p.truth.occupation === 'backend');

const ROLE = BACKEND_ROLE;

type Scenario = Awaited<ReturnType<typeof screeningAccount>>;
interface MatchBody {
  matchId: string;
  candidateId: string;
  score: number;
  reasons: string[];
}

const address = () => `${unique('p').toLowerCase()}@example.com`;

async function settle(): Promise<void> {
  await drainAll(ctx.worker);
  ctx.clock.advance(REFRESH_BATCH_MS + 1);
  await ctx.services.maintenance();
  await drainAll(ctx.worker);
}

/** The platform's upload slot (POST /console/v1/uploads) with the bytes PUT to it. */
async function platformUpload(bytes: Buffer): Promise<string> {
  const res = await consoleCall(ctx.app, 'POST', '/uploads', { bytes: bytes.length });
  assert.equal(res.statusCode, 201, res.body);
  const put = await putUpload(ctx.app, res.json().uploadUrl, bytes);
  assert.equal(put.statusCode, 200, put.body);
  return res.json().uploadId;
}

async function addPerson(cv: PoolCvDescription | null, fields: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = { email: address(), name: cv?.name ?? 'Platform Person', ...fields };
  if (cv) body.cv = { uploadId: await platformUpload(await renderPoolCv(cv)) };
  const res = await consoleCall(ctx.app, 'POST', '/people', body);
  assert.equal(res.statusCode, 201, res.body);
  opened.push(res.json().person.id);
  return res.json().person as { id: string; email: string; openToMatches: boolean; cvStatus: string };
}

async function managedRole(s: Scenario, overrides: Record<string, unknown> = {}) {
  const job = await createPublished(s.api, { ...ROLE, ...overrides });
  await manageJob(ctx.app, s.account.id, job.id);
  return job;
}

async function matchesOf(s: Scenario, jobId: string): Promise<MatchBody[]> {
  const res = await s.api.get(`/v1/jobs/${jobId}/matches`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().matches;
}

async function aliasesOf(jobId: string): Promise<string[]> {
  const rows = await ctx.handle.db
    .selectFrom('matches')
    .select('candidate_id')
    .where('job_id', '=', jobId)
    .where('candidate_kind', '=', 'person')
    .execute();
  return rows.map((row) => row.candidate_id);
}

/** Whether the role's matches hold this platform person (platform people of earlier tests are in every pool too). */
async function holds(s: Scenario, jobId: string, person: { id: string }): Promise<boolean> {
  return (await aliasesOf(jobId)).includes(platformAlias(s.account.id, person.id));
}

describe('the platform pool', () => {
  test('a person open to matches with a built CV is in every account’s pool, by each account’s own id', async () => {
    const a = await screeningAccount(ctx.app);
    const b = await screeningAccount(ctx.app);
    const jobA = await managedRole(a);
    const jobB = await managedRole(b, { title: 'Backend Engineer' });
    const open = await addPerson(backend[0] as PoolCvDescription, { openToMatches: true });
    assert.equal(open.cvStatus, 'processing');
    const closed = await addPerson(backend[1] as PoolCvDescription);
    assert.equal(closed.openToMatches, false, 'openToMatches defaults to false');
    await settle();
    const shown = await consoleCall(ctx.app, 'GET', `/people/${open.id}`);
    assert.equal(shown.json().person.cvStatus, 'built');

    const inA = platformAlias(a.account.id, open.id);
    const inB = platformAlias(b.account.id, open.id);
    assert.ok((await aliasesOf(jobA.id)).includes(inA), 'matched in account A');
    assert.ok((await aliasesOf(jobB.id)).includes(inB), 'matched in account B');
    assert.match(inA, /^plp_/);
    assert.notEqual(inA, inB, 'two accounts cannot tell it is one person');
    assert.ok(!inA.includes(open.id) && !inB.includes(open.id), 'the platform id stays on the platform');
    const seenA = await matchesOf(a, jobA.id);
    const match = seenA.find((m) => m.candidateId === inA);
    assert.ok(match, 'the read lists the platform person');
    assert.ok(
      match.reasons.some((r) => r.startsWith('required skill: ')),
      match.reasons.join(),
    );
    const body = JSON.stringify(seenA);
    assert.ok(!body.includes(open.email) && !body.includes(String(backend[0]?.name)), 'nothing personal');
    // The person who did not choose to be found is in nobody's pool.
    assert.equal(await holds(a, jobA.id, closed), false);
    assert.equal(await holds(b, jobB.id, closed), false);
  });

  test('a new platform person is considered without anyone asking (one batched look)', async () => {
    const s = await screeningAccount(ctx.app);
    const job = await managedRole(s);
    await settle();
    const person = await addPerson(backend[2] as PoolCvDescription, { openToMatches: true });
    await drainAll(ctx.worker);
    const refreshes = await ctx.handle.db
      .selectFrom('tasks')
      .select('key')
      .where('name', '=', 'refresh-matches')
      .where('key', 'like', 'refresh-matches:platform:%')
      .where('state', '=', 'queued')
      .execute();
    assert.equal(refreshes.length, 1, 'one refresh of every account for the window');
    await settle();
    assert.ok(await holds(s, job.id, person));
  });

  test('closing openToMatches or deleting the CV leaves every pool and match at once; reopening returns', async () => {
    const s = await screeningAccount(ctx.app);
    const job = await managedRole(s);
    const person = await addPerson(backend[3] as PoolCvDescription, { openToMatches: true });
    const deleting = await addPerson(backend[4] as PoolCvDescription, { openToMatches: true });
    await settle();
    assert.ok((await holds(s, job.id, person)) && (await holds(s, job.id, deleting)));
    const aliases = new Set([person, deleting].map((p) => platformAlias(s.account.id, p.id)));

    const closed = await consoleCall(ctx.app, 'PATCH', `/people/${person.id}`, { openToMatches: false });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().person.openToMatches, false);
    const deleted = await consoleCall(ctx.app, 'DELETE', `/people/${deleting.id}/cv`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(deleted.json().person.cvStatus, 'deleted');
    // At once: no task needs to run.
    const now = await matchesOf(s, job.id);
    assert.ok(!now.some((m) => aliases.has(m.candidateId)));
    assert.ok(!(await aliasesOf(job.id)).some((alias) => aliases.has(alias)));
    const held = await ctx.handle.db
      .selectFrom('person_cvs')
      .select('person_id')
      .where('person_id', '=', deleting.id)
      .execute();
    assert.equal(held.length, 0, 'the deleted virtual CV is erased');
    await settle();
    assert.ok(
      !(await aliasesOf(job.id)).some((alias) => aliases.has(alias)),
      'generation does not bring them back',
    );

    const reopened = await consoleCall(ctx.app, 'PATCH', `/people/${person.id}`, { openToMatches: true });
    assert.equal(reopened.json().person.openToMatches, true);
    await settle();
    assert.ok(await holds(s, job.id, person), 'reopened: matched again');
    assert.equal(await holds(s, job.id, deleting), false);
    const missing = await consoleCall(ctx.app, 'PATCH', '/people/per_unknown', { openToMatches: true });
    assert.equal(missing.statusCode, 404);
  });

  test('a suppressed address leaves the pool and never comes back', async () => {
    const s = await screeningAccount(ctx.app);
    const job = await managedRole(s);
    const person = await addPerson(backend[5] as PoolCvDescription, { openToMatches: true });
    await settle();
    assert.ok(await holds(s, job.id, person));
    const res = await consoleCall(ctx.app, 'POST', '/suppressions', { email: person.email });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await holds(s, job.id, person), false);
    await consoleCall(ctx.app, 'PATCH', `/people/${person.id}`, { openToMatches: false });
    await consoleCall(ctx.app, 'PATCH', `/people/${person.id}`, { openToMatches: true });
    await settle();
    assert.equal(await holds(s, job.id, person), false);
  });

  test('a platform person who applies to the role is an applicant, not a match', async () => {
    const s = await screeningAccount(ctx.app);
    const job = await managedRole(s);
    const person = await addPerson(backend[6] as PoolCvDescription, { openToMatches: true });
    const upload = await uploadPdf(ctx, s.api, pdfFixture('cv-2-pages.pdf'));
    const applied = await s.api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId, { email: person.email }),
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(applied.statusCode, 201, applied.body);
    await settle();
    assert.equal(await holds(s, job.id, person), false);
  });
});

describe('screening and opening a platform match', () => {
  test('screened under the unsolicited limit, reached on the platform; other accounts get 404', async () => {
    const s = await screeningAccount(ctx.app, { limits: { weeklyUnsolicitedContacts: 1 } });
    const other = await screeningAccount(ctx.app);
    const template = await newTemplate(ctx.app, s.account.id);
    const otherTemplate = await newTemplate(ctx.app, other.account.id);
    const job = await managedRole(s);
    const second = await managedRole(s, { title: 'Backend Engineer' });
    const otherJob = await managedRole(other, {
      title: 'Chef de partie',
      category: 'hospitality',
      skills: [],
    });
    const person = await addPerson(backend[7] as PoolCvDescription, { openToMatches: true });
    await settle();
    const alias = platformAlias(s.account.id, person.id);
    assert.ok(await holds(s, job.id, person));
    // Another account that holds no match of the person cannot reach them by this id.
    const foreign = await triggerScreening(other.api, otherJob.id, alias, { templateId: otherTemplate.id });
    assert.equal(foreign.statusCode, 404, foreign.body);
    const foreignCv = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${other.account.id}/jobs/${otherJob.id}/candidates/${alias}/cv`,
    );
    assert.equal(foreignCv.statusCode, 404);

    const cv = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${s.account.id}/jobs/${job.id}/candidates/${alias}/cv`,
    );
    assert.equal(cv.statusCode, 200, cv.body);
    assert.equal(cv.json().candidateId, alias);
    assert.ok(JSON.stringify(cv.json().cv).includes(String(backend[7]?.work[0]?.title)), 'the virtual CV');

    // The console's Matches page links each match to its virtual CV; another account's recruiter gets 404.
    const recruiter = await signedIn(ctx.app, s.account.id, 'recruiter');
    const list = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.ok(list.body.includes(`href="/console/jobs/${job.id}/candidates/${alias}"`));
    const page = await recruiter.web.get(`/console/jobs/${job.id}/candidates/${alias}`);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(String(backend[7]?.work[0]?.title)));
    const outsider = await signedIn(ctx.app, other.account.id, 'recruiter');
    assert.equal((await outsider.web.get(`/console/jobs/${job.id}/candidates/${alias}`)).statusCode, 404);

    const screened = await triggerScreening(s.api, job.id, alias, { templateId: template.id });
    assert.equal(screened.statusCode, 201, screened.body);
    assert.equal(screened.json().screening.candidateId, alias);
    const row = await ctx.handle.db
      .selectFrom('screenings')
      .selectAll()
      .where('id', '=', screened.json().screening.screeningId)
      .executeTakeFirstOrThrow();
    assert.equal(row.unsolicited, true);
    assert.equal(row.candidate_kind, 'person');
    assert.equal(row.delivery_path, 'virtual_cv');
    await drainAll(ctx.worker);
    assert.equal((await mailTo(ctx.app, person.email)).length, 0, 'no mail: reached on the platform');
    const again = await triggerScreening(s.api, second.id, alias, { templateId: template.id });
    assert.ok(await holds(s, second.id, person), 'a match of the second role too');
    assert.equal(again.statusCode, 429, again.body);
    assert.equal(errorOf(again).code, 'unsolicited_contact_limit');

    // Closed to matches: the id no longer reaches them.
    await consoleCall(ctx.app, 'PATCH', `/people/${person.id}`, { openToMatches: false });
    const afterClose = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${s.account.id}/jobs/${job.id}/candidates/${alias}/cv`,
    );
    assert.equal(afterClose.statusCode, 404);
  });
});

describe('POST /console/v1/people with a CV', () => {
  test('the import’s checks: unknown upload 400, a refused file 422, a non-CV PDF 201 with its rejection', async () => {
    const unknown = await consoleCall(ctx.app, 'POST', '/people', {
      email: address(),
      name: 'X',
      cv: { uploadId: 'upl_unknown' },
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(errorOf(unknown).code, 'upload_invalid');
    // An account's upload is not the platform's.
    const s = await screeningAccount(ctx.app);
    const accountUpload = await uploadPdf(ctx, s.api, pdfFixture('cv-2-pages.pdf'));
    const foreign = await consoleCall(ctx.app, 'POST', '/people', {
      email: address(),
      name: 'X',
      cv: { uploadId: accountUpload.uploadId },
    });
    assert.equal(foreign.statusCode, 400);
    // And the platform's upload is not an account's.
    const platform = await platformUpload(pdfFixture('cv-2-pages.pdf'));
    const other = client(ctx.app, s.key.secret);
    const res = await other.post('/v1/candidates', {
      email: address(),
      name: 'X',
      lawfulBasis: { attested: true },
      cv: { uploadId: platform },
    });
    assert.equal(res.statusCode, 400, res.body);

    const refused = await consoleCall(ctx.app, 'POST', '/people', {
      email: address(),
      name: 'X',
      cv: { uploadId: await platformUpload(Buffer.from('not a pdf at all, only text')) },
    });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(errorOf(refused).code, 'cv_rejected');

    const menu = await consoleCall(ctx.app, 'POST', '/people', {
      email: address(),
      name: 'Z',
      openToMatches: true,
      cv: { uploadId: await platformUpload(pdfFixture('not-a-cv-menu.pdf')) },
    });
    assert.equal(menu.statusCode, 201, menu.body);
    opened.push(menu.json().person.id);
    assert.equal(menu.json().person.cvStatus, 'none', 'a file that is not a CV builds nothing');
    assert.ok(menu.json().person.rejection, 'and says why, as an import does');

    const email = address();
    const withCv = await consoleCall(ctx.app, 'POST', '/people', {
      email,
      name: 'Y',
      openToMatches: true,
      cv: { uploadId: await platformUpload(pdfFixture('cv-2-pages.pdf')) },
    });
    assert.equal(withCv.statusCode, 201, withCv.body);
    opened.push(withCv.json().person.id);
    const twice = await consoleCall(ctx.app, 'POST', '/people', { email: email.toUpperCase(), name: 'Y' });
    assert.equal(twice.statusCode, 409);
  });
});
