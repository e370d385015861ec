import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import type { PoolCvDescription } from './fixtures/matches/render-cv.ts';
import { consoleCall } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { backend, matchPool } from './support/match-pool.ts';

/** A recruiter decides (extensions.md §7, issue 31 item 2): dismiss with a reason, restore; audited. */

const ctx = useTestApp();
const { account, importCv, settle, managedRole, matchesOf } = matchPool(ctx);
const cv = (i: number) => backend[i] as PoolCvDescription;

async function auditOf(accountId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/audit`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().entries as {
    action: string;
    target: string;
    actor: { kind: string; email: string | null };
    at: string;
    detail: Record<string, unknown>;
  }[];
}

const path = (accountId: string, jobId: string, matchId: string, act: string) =>
  `/accounts/${accountId}/jobs/${jobId}/matches/${matchId}/${act}`;

describe('dismiss and restore', () => {
  test('a dismissed match leaves the list, frees its slot, and the person is never matched to the role again', async () => {
    const s = await account();
    const first = await importCv(s.api, cv(1));
    const second = await importCv(s.api, cv(2));
    const job = await managedRole(s, { maxMatches: 1 });
    await settle();
    const [only] = await matchesOf(s.api, job.id);
    assert.ok(only);
    const dismissedPerson = only.candidateId === first.candidateId ? first : second;
    const other = dismissedPerson === first ? second : first;

    // A reason is required, at most 500 characters.
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 42 }]) {
      const bad = await consoleCall(
        ctx.app,
        'POST',
        path(s.account.id, job.id, only.matchId, 'dismiss'),
        body,
      );
      assert.equal(bad.statusCode, 400, JSON.stringify(body));
      assert.equal(errorOf(bad).code, 'bad_request');
      assert.equal(errorOf(bad).field, 'reason');
    }
    assert.equal((await matchesOf(s.api, job.id)).length, 1, 'a refused dismissal changes nothing');
    const unknown = await consoleCall(ctx.app, 'POST', path(s.account.id, job.id, 'mat_nope', 'dismiss'), {
      reason: 'no',
    });
    assert.equal(unknown.statusCode, 404);

    const reason = 'Wants a remote role only';
    const done = await consoleCall(ctx.app, 'POST', path(s.account.id, job.id, only.matchId, 'dismiss'), {
      reason,
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json().match.dismissal.reason, reason);
    assert.equal(done.json().match.dismissal.by, 'operator');
    assert.deepEqual(await matchesOf(s.api, job.id), [], 'out of GET /v1/jobs/{jobId}/matches at once');

    // The freed slot is filled by the next person; the dismissed one stays out.
    await settle();
    assert.deepEqual(
      (await matchesOf(s.api, job.id)).map((m) => m.candidateId),
      [other.candidateId],
      'the slot went to the other person',
    );
    // New pool members arrive and the cap is raised: the dismissed person is still never matched.
    const raised = await s.api.patch(`/v1/jobs/${job.id}`, { maxMatches: 10 });
    assert.equal(raised.statusCode, 200, raised.body);
    const newcomer = await importCv(s.api, cv(3));
    await importCv(s.api, cv(1), dismissedPerson.email); // the same address imported again
    await settle();
    const ids = (await matchesOf(s.api, job.id)).map((m) => m.candidateId);
    assert.ok(ids.includes(newcomer.candidateId), 'the newcomer was matched');
    assert.ok(!ids.includes(dismissedPerson.candidateId), 'the dismissed person is not matched again');
    const rows = await ctx.handle.db
      .selectFrom('matches')
      .select(['candidate_id', 'dismissed_at'])
      .where('job_id', '=', job.id)
      .where('person_key', '=', dismissedPerson.email)
      .execute();
    assert.equal(rows.length, 1, 'one row for the person, the dismissed one');
    assert.ok(rows[0]?.dismissed_at);

    // The console lists it as dismissed; restoring brings it back (the reason optional).
    const listed = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${s.account.id}/jobs/${job.id}/matches/dismissed`,
    );
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      listed.json().matches.map((m: { matchId: string }) => m.matchId),
      [only.matchId],
    );
    const restored = await consoleCall(ctx.app, 'POST', path(s.account.id, job.id, only.matchId, 'restore'));
    assert.equal(restored.statusCode, 200, restored.body);
    assert.equal(restored.json().match.dismissal, null);
    assert.ok((await matchesOf(s.api, job.id)).some((m) => m.matchId === only.matchId));

    const trail = await auditOf(s.account.id);
    const dismissal = trail.find((e) => e.action === 'match.dismissed' && e.target === only.matchId);
    assert.ok(dismissal, 'the dismissal is audited');
    assert.equal(dismissal.actor.kind, 'operator');
    assert.equal(dismissal.detail.reason, reason);
    assert.ok(dismissal.at);
    assert.ok(trail.some((e) => e.action === 'match.restored' && e.target === only.matchId));
  });

  test('another account cannot dismiss; the console page dismisses with a reason and shows the Dismissed view', async () => {
    const s = await account();
    const other = await account();
    await importCv(s.api, cv(4));
    await importCv(s.api, cv(5));
    const job = await managedRole(s);
    await settle();
    const [best, next] = await matchesOf(s.api, job.id);
    assert.ok(best && next);
    const crossed = await consoleCall(
      ctx.app,
      'POST',
      path(other.account.id, job.id, best.matchId, 'dismiss'),
      {
        reason: 'not ours',
      },
    );
    assert.equal(crossed.statusCode, 404);

    const recruiter = await signedIn(ctx.app, s.account.id, 'recruiter');
    const page = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`action="/console/jobs/${job.id}/matches/${best.matchId}/dismiss"`));
    const empty = await recruiter.web.post(`/console/jobs/${job.id}/matches/${best.matchId}/dismiss`, {
      reason: '',
    });
    assert.equal(empty.statusCode, 303);
    assert.match((await recruiter.web.get(empty.headers.location as string)).body, /reason is required/);
    assert.equal((await matchesOf(s.api, job.id)).length, 2);
    await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    const done = await recruiter.web.post(`/console/jobs/${job.id}/matches/${best.matchId}/dismiss`, {
      reason: 'Asked for <b>part-time</b> only',
    });
    assert.equal(done.statusCode, 303);
    const after = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.match(after.body, /Match dismissed/);
    assert.ok(!after.body.includes(`/matches/${best.matchId}/dismiss`), 'gone from the list');
    assert.ok(after.body.includes(`/matches/${next.matchId}/dismiss`));
    const view = await recruiter.web.get(`/console/jobs/${job.id}/matches?view=dismissed`);
    assert.equal(view.statusCode, 200);
    assert.ok(view.body.includes('Asked for &lt;b&gt;part-time&lt;/b&gt; only'), 'the reason, escaped');
    assert.ok(view.body.includes(`/matches/${best.matchId}/restore`));
    const restored = await recruiter.web.post(`/console/jobs/${job.id}/matches/${best.matchId}/restore`, {
      reason: '',
    });
    assert.equal(restored.statusCode, 303);
    assert.equal((await matchesOf(s.api, job.id)).length, 2);
    const trail = await auditOf(s.account.id);
    const entry = trail.find((e) => e.action === 'match.dismissed');
    assert.equal(entry?.actor.email, recruiter.email, 'who dismissed it');
    assert.ok(trail.some((e) => e.action === 'match.restored' && e.actor.email === recruiter.email));
  });
});
