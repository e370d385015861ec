import assert from 'node:assert/strict';
import { REFRESH_BATCH_MS } from '../../src/domain/matches/match-service.ts';
import { BACKEND_ROLE } from '../fixtures/matches/backend-role.ts';
import pool from '../fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from '../fixtures/matches/render-cv.ts';
import { type client, screeningAccount, unique } from './accounts.ts';
import type { useTestApp } from './app.ts';
import { candidateBody, uploadPdf } from './intake.ts';
import { createPublished, manageJob } from './jobs.ts';
import { drainAll } from './mail.ts';

/** The labelled pool's people and the steps the matching tests share (test/matches.test.ts's path). */
type Ctx = ReturnType<typeof useTestApp>;
type Api = ReturnType<typeof client>;
export type Scenario = Awaited<ReturnType<typeof screeningAccount>>;

export const people = pool as (PoolCvDescription & { truth: { occupation: string; level: string } })[];
export const backend = people.filter((p) => p.truth.occupation === 'backend');
export const ROLE = BACKEND_ROLE;

export interface MatchBody {
  matchId: string;
  jobId: string;
  candidateId: string;
  score: number;
  reasons: string[];
  rankerVersion: string;
  createdAt: string;
}

export function matchPool(ctx: Ctx) {
  return {
    account: (limits: Record<string, number> = {}) => screeningAccount(ctx.app, { limits }),
    /** Imports a pool CV into the account's pool: the candidate id and the address used. */
    async importCv(api: Api, cv: PoolCvDescription, email = `${unique('m').toLowerCase()}@example.com`) {
      const upload = await uploadPdf(ctx, api, await renderPoolCv(cv));
      const res = await api.post('/v1/candidates', candidateBody(upload.uploadId, { name: cv.name, email }), {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 201, res.body);
      return { candidateId: res.json().candidateId as string, email };
    },
    /** Lets the batching window pass and runs every due task (CV builds, refreshes, generations). */
    async settle(): Promise<void> {
      await drainAll(ctx.worker);
      ctx.clock.advance(REFRESH_BATCH_MS + 1);
      await ctx.services.maintenance();
      await drainAll(ctx.worker);
    },
    async managedRole(s: Scenario, overrides: Record<string, unknown> = {}) {
      const job = await createPublished(s.api, { ...ROLE, ...overrides });
      await manageJob(ctx.app, s.account.id, job.id);
      return job;
    },
    async matchesOf(api: Api, jobId: string): Promise<MatchBody[]> {
      const res = await api.get(`/v1/jobs/${jobId}/matches`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().matches;
    },
  };
}
