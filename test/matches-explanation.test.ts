import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WEIGHTS } from '../src/domain/matches/rank.ts';
import { RANKER_VERSION } from '../src/domain/matches/ranker-version.ts';
import { signedIn } from './console-web-client.ts';
import type { PoolCvDescription } from './fixtures/matches/render-cv.ts';
import { consoleCall } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { backend, matchPool } from './support/match-pool.ts';

/** A match's explanation (extensions.md §7, issue 31 item 5): components, weights, values, reasons. */

const ctx = useTestApp();
const { account, importCv, settle, managedRole, matchesOf } = matchPool(ctx);

describe('the explanation', () => {
  test('the score is the weighted sum of its components; the console says it in plain words', async () => {
    const s = await account();
    const other = await account();
    await importCv(s.api, backend[1] as PoolCvDescription);
    await importCv(s.api, backend[2] as PoolCvDescription);
    const job = await managedRole(s);
    await settle();
    const [match] = await matchesOf(s.api, job.id);
    assert.ok(match);
    const path = `/accounts/${s.account.id}/jobs/${job.id}/matches/${match.matchId}/explanation`;
    const res = await consoleCall(ctx.app, 'GET', path);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'components',
      'createdAt',
      'rankerVersion',
      'reasons',
      'score',
    ]);
    assert.equal(body.score, match.score);
    assert.equal(body.rankerVersion, RANKER_VERSION);
    assert.equal(body.createdAt, match.createdAt);
    assert.deepEqual(body.reasons, match.reasons);
    const components = body.components as { name: string; weight: number; value: number }[];
    assert.deepEqual(
      components.map((c) => [c.name, c.weight]),
      Object.entries(WEIGHTS),
    );
    const sum = components.reduce((total, c) => total + c.weight * c.value, 0);
    assert.ok(Math.abs(sum - body.score) < 0.001, `${sum} is the score ${body.score}`);
    for (const c of components) assert.ok(c.value >= 0 && c.value <= 1, c.name);

    const crossed = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${other.account.id}/jobs/${job.id}/matches/${match.matchId}/explanation`,
    );
    assert.equal(crossed.statusCode, 404);
    const unknown = await consoleCall(ctx.app, 'GET', path.replace(match.matchId, 'mat_unknown'));
    assert.equal(unknown.statusCode, 404);

    const recruiter = await signedIn(ctx.app, s.account.id, 'recruiter');
    const page = await recruiter.web.get(`/console/jobs/${job.id}/candidates/${match.candidateId}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Why this person was suggested, in plain words/);
    assert.match(page.body, /An automated system \(ranking version lex-[0-9a-f]{16}\)/);

    const required = components.find((c) => c.name === 'required');
    assert.ok(
      page.body.includes(
        `The required skills of the role that the CV shows: ${Math.round((required?.value ?? 0) * 100)}% for this CV, counting for 30% of the score.`,
      ),
    );
  });
});
