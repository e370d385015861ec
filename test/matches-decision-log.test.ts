import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RANKER_VERSION } from '../src/domain/matches/ranker-version.ts';
import { signedIn } from './console-web-client.ts';
import type { PoolCvDescription } from './fixtures/matches/render-cv.ts';
import { renderPoolCv } from './fixtures/matches/render-cv.ts';
import { consoleCall, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applicationBody, uploadPdf } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { backend, matchPool } from './support/match-pool.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/** The decision log (extensions.md §7, issue 31 item 4): kept, without personal data, past erasure. */

const ctx = useTestApp();
const { account, importCv, settle, managedRole, matchesOf } = matchPool(ctx);
const cv = (i: number) => backend[i] as PoolCvDescription;

interface Entry {
  id: string;
  at: string;
  kind: string;
  jobId: string;
  matchId: string;
  candidateId: string;
  rankerVersion: string;
  score: number;
  reasons: string[];
  actor: string;
  screeningId: string | null;
}

async function logOf(
  accountId: string,
  query = '',
): Promise<{ entries: Entry[]; nextCursor: string | null }> {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/matches/log${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

describe('the decision log', () => {
  test('generated, dismissed, restored and invited are logged with ids, version, score, reasons and actor', async () => {
    const s = await account();
    const template = await newTemplate(ctx.app, s.account.id);
    await importCv(s.api, cv(8));
    await importCv(s.api, cv(9));
    const job = await managedRole(s);
    await settle();
    const [first, second] = await matchesOf(s.api, job.id);
    assert.ok(first && second);
    const base = `/accounts/${s.account.id}/jobs/${job.id}/matches`;
    const dismissed = await consoleCall(ctx.app, 'POST', `${base}/${first.matchId}/dismiss`, {
      reason: 'No',
    });
    assert.equal(dismissed.statusCode, 200, dismissed.body);
    ctx.clock.advance(1000);
    const restored = await consoleCall(ctx.app, 'POST', `${base}/${first.matchId}/restore`, {});
    assert.equal(restored.statusCode, 200, restored.body);
    ctx.clock.advance(1000);
    const invited = await triggerScreening(s.api, job.id, second.candidateId, { templateId: template.id });
    assert.equal(invited.statusCode, 201, invited.body);

    const { entries } = await logOf(s.account.id);
    const generated = entries.filter((e) => e.kind === 'generated');
    assert.deepEqual(generated.map((e) => e.matchId).sort(), [first.matchId, second.matchId].sort());
    for (const e of generated) {
      const match: { score: number; reasons: string[]; candidateId: string } =
        e.matchId === first.matchId ? first : second;
      assert.equal(e.actor, 'system');
      assert.equal(e.rankerVersion, RANKER_VERSION);
      assert.equal(e.score, match.score);
      assert.deepEqual(e.reasons, match.reasons);
      assert.equal(e.candidateId, match.candidateId);
      assert.equal(e.jobId, job.id);
    }
    assert.deepEqual(
      entries.filter((e) => e.kind !== 'generated').map((e) => [e.kind, e.matchId, e.actor]),
      [
        ['dismissed', first.matchId, 'operator'],
        ['restored', first.matchId, 'operator'],
        ['invited', second.matchId, `key:${s.key.id}`],
      ],
    );
    const invitation = entries.find((e) => e.kind === 'invited');
    assert.equal(invitation?.screeningId, invited.json().screening.screeningId);
    assert.ok(!JSON.stringify(entries).includes('"No"'), 'the dismissal’s free text stays out of the log');

    // Paging and the range: from/to bound `at`; the cursor walks every entry once.
    const walked: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page = await logOf(
        s.account.id,
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      walked.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(
      walked.map((e) => e.id),
      entries.map((e) => e.id),
    );
    const restoreAt = entries.find((e) => e.kind === 'restored')?.at as string;
    const ranged = await logOf(s.account.id, `?from=${encodeURIComponent(restoreAt)}`);
    assert.deepEqual(
      ranged.entries.map((e) => e.kind),
      ['restored', 'invited'],
    );
    const before = await logOf(s.account.id, `?to=${encodeURIComponent(restoreAt)}`);
    assert.ok(before.entries.every((e) => e.at < restoreAt));
    const bad = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/matches/log?from=yesterday`);
    assert.equal(bad.statusCode, 400);
    assert.equal(errorOf(bad).field, 'from');

    // The export: every entry as CSV, a download.
    const csv = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/matches/log?format=csv`);
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /^attachment;/);
    const lines = csv.body.trim().split('\r\n');
    assert.equal(
      lines[0],
      'id,at,kind,jobId,matchId,candidateId,rankerVersion,score,reasons,actor,screeningId',
    );
    assert.equal(lines.length, entries.length + 1);
    const recruiter = await signedIn(ctx.app, s.account.id, 'recruiter');
    const page = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.match(page.body, /href="\/console\/matches\/log.csv"/);
    const download = await recruiter.web.get('/console/matches/log.csv');
    assert.equal(download.statusCode, 200);
    assert.match(String(download.headers['content-disposition']), /^attachment;/);
    assert.equal(download.body, csv.body, 'the console downloads the same log');
    const other = await account();
    assert.deepEqual((await logOf(other.account.id)).entries, [], 'another account’s log is its own');
  });

  test('the log outlives the person’s erasure and holds nothing of them (name, address, phone searched)', async () => {
    const s = await account();
    const person = cv(10);
    const email = `${unique('erased').toLowerCase()}@example.com`;
    const phone = '+61 491 570 156';
    // An applicant to another role, with a phone number: in the pool, a match of the managed role.
    const otherRole = await createPublished(s.api, { title: 'Platform Engineer', category: 'engineering' });
    const upload = await uploadPdf(ctx, s.api, await renderPoolCv(person));
    const imported = await s.api.post(
      `/v1/jobs/${otherRole.id}/applications`,
      applicationBody(ctx.clock, upload.uploadId, { name: person.name, email, phone }),
      { 'idempotency-key': unique('idem') },
    );
    assert.equal(imported.statusCode, 201, imported.body);
    const candidateId = imported.json().candidateId as string;
    const job = await managedRole(s);
    await settle();
    const [match] = await matchesOf(s.api, job.id);
    assert.equal(match?.candidateId, candidateId);
    const dismissed = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/jobs/${job.id}/matches/${match.matchId}/dismiss`,
      { reason: `Not ${person.name}, wrong person` },
    );
    assert.equal(dismissed.statusCode, 200, dismissed.body);

    const erased = await consoleCall(ctx.app, 'POST', `/accounts/${s.account.id}/people/erase`, { email });
    assert.equal(erased.statusCode, 200, erased.body);
    assert.equal(erased.json().receipt.applications, 1, erased.body);
    assert.equal(erased.json().receipt.matches, 1, erased.body);
    const left = await ctx.handle.db
      .selectFrom('matches')
      .select('id')
      .where('id', '=', match.matchId)
      .execute();
    assert.deepEqual(left, [], 'the match itself is erased');

    // Six months on, the log is still there and still answers.
    ctx.clock.advance(183 * 24 * 3600 * 1000);
    await ctx.services.maintenance();
    const rows = await ctx.handle.db
      .selectFrom('match_decisions')
      .selectAll()
      .where('account_id', '=', s.account.id)
      .execute();
    assert.deepEqual(rows.map((r) => r.kind).sort(), ['dismissed', 'generated']);
    const text = JSON.stringify(rows).toLowerCase();
    for (const needle of [
      person.name,
      ...person.name.split(' '),
      email,
      email.split('@')[0] as string,
      phone,
      phone.replaceAll(' ', ''),
    ])
      assert.ok(!text.includes(needle.toLowerCase()), `the log holds "${needle}"`);
    const listed = await logOf(s.account.id);
    assert.equal(listed.entries.length, 2);
    assert.equal(listed.entries[0]?.candidateId, candidateId, 'the ids stay: the account can answer for it');
  });
});
