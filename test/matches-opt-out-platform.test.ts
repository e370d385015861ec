import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { platformAlias } from '../src/domain/matches/match-service.ts';
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { consoleCall, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { candidateBody, putUpload, uploadPdf } from './support/intake.ts';
import { claimLinksIn, linkPath, mailTo, postForm } from './support/mail.ts';
import { backend, matchPool } from './support/match-pool.ts';

/**
 * "Don't match me" from a platform person (extensions.md §7, issue 31 item 6): their profile is in
 * every account's pool and stays, so generation itself must skip them in the account they said no
 * to, and only there.
 */

/** Platform people are in every account's pool: on a shared PostgreSQL they would reach other files' accounts. */
const opened: string[] = [];
after(async () => {
  for (const id of opened) await consoleCall(ctx.app, 'PATCH', `/people/${id}`, { openToMatches: false });
});
const ctx = useTestApp();
const { account, settle, managedRole } = matchPool(ctx);

async function platformPerson(cv: PoolCvDescription) {
  const bytes = await renderPoolCv(cv);
  const slot = await consoleCall(ctx.app, 'POST', '/uploads', { bytes: bytes.length });
  assert.equal(slot.statusCode, 201, slot.body);
  assert.equal((await putUpload(ctx.app, slot.json().uploadUrl, bytes)).statusCode, 200);
  const email = `${unique('p').toLowerCase()}@example.com`;
  const res = await consoleCall(ctx.app, 'POST', '/people', {
    email,
    name: cv.name,
    cv: { uploadId: slot.json().uploadId },
    openToMatches: true,
  });
  assert.equal(res.statusCode, 201, res.body);
  opened.push(res.json().person.id);
  return { id: res.json().person.id as string, email };
}

const aliasesOf = async (jobId: string) =>
  (
    await ctx.handle.db
      .selectFrom('matches')
      .select('candidate_id')
      .where('job_id', '=', jobId)
      .where('candidate_kind', '=', 'person')
      .execute()
  ).map((row) => row.candidate_id);

describe("Don't match me, from a platform person", () => {
  test('the account notice carries it; generation skips the person in that account only', async () => {
    const a = await account();
    const b = await account();
    const person = await platformPerson(backend[3] as PoolCvDescription);
    const roleA = await managedRole(a);
    const roleB = await managedRole(b);
    await settle();
    const inA = platformAlias(a.account.id, person.id);
    const inB = platformAlias(b.account.id, person.id);
    assert.ok((await aliasesOf(roleA.id)).includes(inA), 'matched in A');
    assert.ok((await aliasesOf(roleB.id)).includes(inB), 'matched in B');

    // Account A imports the address (another case): the person is told, with the notice.
    const upload = await uploadPdf(ctx, a.api, await renderPoolCv(backend[3] as PoolCvDescription));
    const imported = await a.api.post(
      '/v1/candidates',
      candidateBody(upload.uploadId, { name: 'Someone', email: person.email.toUpperCase() }),
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(imported.statusCode, 201, imported.body);
    assert.equal(imported.json().status, 'existing_account');
    await settle();
    const [notice] = await mailTo(ctx.app, person.email);
    assert.ok(notice, 'the account notice was sent');
    assert.match(notice.text, /automated system/);
    const [link] = claimLinksIn(notice.text);
    assert.ok(link);
    const path = linkPath(link);
    const page = await ctx.app.inject({ method: 'GET', url: path });
    assert.match(page.body, new RegExp(`action="${path}/no-matching"`));

    const done = await postForm(ctx.app, `${path}/no-matching`);
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /You will not be matched/);
    assert.ok(!(await aliasesOf(roleA.id)).includes(inA), 'out of A at once');

    // New roles in both accounts: B matches the person, A never does.
    const secondA = await managedRole(a, { title: 'Backend Engineer' });
    const secondB = await managedRole(b, { title: 'Backend Engineer' });
    await settle();
    assert.ok(!(await aliasesOf(secondA.id)).includes(inA), 'never matched in A again');
    assert.ok(!(await aliasesOf(roleA.id)).includes(inA));
    assert.ok((await aliasesOf(secondB.id)).includes(inB), 'B still matches the person');
    assert.ok((await aliasesOf(roleB.id)).includes(inB));
    const profile = await ctx.handle.db
      .selectFrom('match_profiles')
      .select('subject_id')
      .where('subject_id', '=', person.id)
      .execute();
    assert.equal(profile.length, 1, "the platform profile stays, for other accounts' pools");
  });
});
