import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { consoleCall, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { applicationBody, candidateBody, uploadPdf } from './support/intake.ts';
import { createPublished, manageJob } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/**
 * Issue 30, "Done when": the access export of a person with two applications, an import, a match
 * and a screening holds all of them, and nothing of anyone else in the account (a second person
 * matched and screened for the same role).
 */

const ctx = useTestApp();
const people = pool as (PoolCvDescription & { truth: { occupation: string } })[];
const backend = people.filter((p) => p.truth.occupation === 'backend');

async function settle(): Promise<void> {
  await drainAll(ctx.worker);
  ctx.clock.advance(REFRESH_BATCH_MS + 1);
  await ctx.services.maintenance();
  await drainAll(ctx.worker);
}

describe('the access export', () => {
  test('two applications, an import, a match and a screening: all of them, nothing of the neighbour', async () => {
    const s = await screeningAccount(ctx.app);
    const [me, neighbour] = [backend[0] as PoolCvDescription, backend[1] as PoolCvDescription];
    const myEmail = `${unique('held').toLowerCase()}@example.com`;
    const theirEmail = `${unique('neighbour').toLowerCase()}@example.com`;
    const imported: Record<string, string> = {};
    for (const [cv, email] of [
      [me, myEmail],
      [neighbour, theirEmail],
    ] as const) {
      const upload = await uploadPdf(ctx, s.api, await renderPoolCv(cv));
      const res = await s.api.post(
        '/v1/candidates',
        candidateBody(upload.uploadId, { name: cv.name, email }),
        {
          'idempotency-key': unique('idem'),
        },
      );
      assert.equal(res.statusCode, 201, res.body);
      imported[email] = res.json().candidateId;
    }
    // The person also applied to two unmanaged roles with the same address (any case).
    const applications: string[] = [];
    for (const title of ['Support Engineer', 'Site Reliability Engineer']) {
      const job = await createPublished(s.api, { title });
      const upload = await uploadPdf(ctx, s.api, await renderPoolCv(me));
      const body = applicationBody(ctx.clock, upload.uploadId, {
        name: me.name,
        email: myEmail.toUpperCase(),
      });
      const res = await s.api.post(`/v1/jobs/${job.id}/applications`, body, {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 201, res.body);
      applications.push(res.json().applicationId);
    }
    // Both imports are matched to a managed backend role, and both are invited to a screening.
    const role = await createPublished(s.api, BACKEND_ROLE);
    await manageJob(ctx.app, s.account.id, role.id);
    await settle();
    const matches = (await s.api.get(`/v1/jobs/${role.id}/matches`)).json().matches as {
      matchId: string;
      candidateId: string;
    }[];
    // The person is in the pool once (by address), through the import or an application.
    const myIds = [imported[myEmail], ...applications];
    const mine = matches.find((m) => myIds.includes(m.candidateId));
    const theirs = matches.find((m) => m.candidateId === imported[theirEmail]);
    assert.ok(
      mine && theirs,
      `both matched: ${JSON.stringify(matches.map((m) => m.candidateId))} of ${JSON.stringify(imported)} ${applications}`,
    );
    const template = await newTemplate(ctx.app, s.account.id);
    const screenings: Record<string, string> = {};
    for (const m of [mine, theirs]) {
      const res = await triggerScreening(s.api, role.id, m.candidateId, {
        templateId: template.id,
        message: `Hello ${m === mine ? 'you' : 'neighbour'}, a short call?`,
      });
      assert.equal(res.statusCode, 201, res.body);
      screenings[m.candidateId] = res.json().screening.screeningId ?? res.json().screening.id;
    }

    const res = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${s.account.id}/people/export?email=${encodeURIComponent(myEmail)}`,
    );
    assert.equal(res.statusCode, 200, res.body);
    const doc = res.json();
    assert.deepEqual(doc.applications.map((a: { id: string }) => a.id).sort(), [...applications].sort());
    assert.deepEqual(
      doc.imports.map((c: { id: string }) => c.id),
      [imported[myEmail]],
    );
    assert.deepEqual(
      doc.matches.map((m: { id: string; jobId: string }) => [m.id, m.jobId]),
      [[mine.matchId, role.id]],
    );
    assert.ok(doc.matches[0].reasons.length > 0, 'the match with its reasons');
    assert.deepEqual(
      doc.screenings.map((x: { id: string; jobId: string; message: string }) => [x.id, x.jobId, x.message]),
      [[screenings[mine.candidateId], role.id, 'Hello you, a short call?']],
    );
    assert.ok(doc.virtualCvs.length >= 3, 'the virtual CVs of both applications and the import');
    const text = JSON.stringify(doc);
    for (const trace of [
      neighbour.name,
      theirEmail,
      imported[theirEmail],
      theirs.matchId,
      'neighbour, a short call',
    ])
      assert.ok(!text.includes(String(trace)), `nothing of the neighbour: ${trace}`);
  });
});
