import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { candidateBody, uploadPdf } from './support/intake.ts';
import { createPublished, manageJob } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';

/**
 * Issue 29 (workers under load): a managed role's generation is queued at most once. Each change of
 * the role or the pool used to queue one more generate-matches task (keyed by the state), and under
 * a soak's steady imports 3,135 of them were open; a queued generation reads the state when it runs.
 */

const ctx = useTestApp();
const backend = (pool as (PoolCvDescription & { truth: { occupation: string } })[]).filter(
  (p) => p.truth.occupation === 'backend',
);

async function queued(jobId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM tasks
    WHERE name = 'generate-matches' AND state = 'queued' AND payload ->> 'jobId' = ${jobId}`.execute(
    ctx.handle.db,
  );
  return rows[0]?.n ?? 0;
}

describe('match generation under load', () => {
  test('changes while a generation waits queue nothing more; the one that runs sees the last state', async () => {
    const s = await screeningAccount(ctx.app);
    for (const cv of backend.slice(0, 3)) {
      const upload = await uploadPdf(ctx, s.api, await renderPoolCv(cv));
      const res = await s.api.post(
        '/v1/candidates',
        candidateBody(upload.uploadId, { name: cv.name, email: `${unique('q').toLowerCase()}@example.com` }),
        { 'idempotency-key': unique('idem') },
      );
      assert.equal(res.statusCode, 201, res.body);
    }
    await drainAll(ctx.worker);
    const role = await createPublished(s.api, { ...BACKEND_ROLE, maxMatches: 1 });
    await manageJob(ctx.app, s.account.id, role.id);
    await ctx.services.matches.refresh(s.account.id);
    assert.equal(await queued(role.id), 1);
    // Three changes of the role's state (its cap) before the worker gets to it.
    for (const cap of [2, 3, 2]) {
      const res = await s.api.patch(`/v1/jobs/${role.id}`, { maxMatches: cap });
      assert.equal(res.statusCode, 200, res.body);
      await ctx.services.matches.refresh(s.account.id);
    }
    assert.equal(await queued(role.id), 1, 'one generation waits, whatever changed meanwhile');
    await drainAll(ctx.worker);
    const matches = (await s.api.get(`/v1/jobs/${role.id}/matches`)).json().matches;
    assert.equal(matches.length, 2, 'the generation that ran used the last cap');
    // Once it has run, the next change queues a new one.
    const res = await s.api.patch(`/v1/jobs/${role.id}`, { maxMatches: 3 });
    assert.equal(res.statusCode, 200, res.body);
    await ctx.services.matches.refresh(s.account.id);
    assert.equal(await queued(role.id), 1);
  });
});
