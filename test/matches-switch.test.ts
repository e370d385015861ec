import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import type { PoolCvDescription } from './fixtures/matches/render-cv.ts';
import { consoleCall } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { backend, matchPool } from './support/match-pool.ts';

/** The account's matchingEnabled switch (extensions.md §7, issue 31 item 3). */

const ctx = useTestApp();
const { account, importCv, settle, managedRole, matchesOf } = matchPool(ctx);
const cv = (i: number) => backend[i] as PoolCvDescription;

const countOf = async (jobId: string) =>
  Number(
    (
      await ctx.handle.db
        .selectFrom('matches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('job_id', '=', jobId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('matchingEnabled', () => {
  test('on by default; off: nothing generated and 409 matching_disabled; on again: generated', async () => {
    const s = await account();
    const got = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}`);
    assert.equal(got.json().account.matchingEnabled, true, 'on by default');
    await importCv(s.api, cv(6));
    const job = await managedRole(s);
    await settle();
    assert.equal((await matchesOf(s.api, job.id)).length, 1);

    const off = await consoleCall(ctx.app, 'PATCH', `/accounts/${s.account.id}`, { matchingEnabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().account.matchingEnabled, false);
    const refused = await s.api.get(`/v1/jobs/${job.id}/matches`);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(errorOf(refused).code, 'matching_disabled');
    const consoleRead = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/jobs/${job.id}/matches`);
    assert.equal(consoleRead.statusCode, 409);

    // New pool members and a new role: nothing is generated while it is off.
    const newcomer = await importCv(s.api, cv(7));
    const second = await managedRole(s, { title: 'Backend Engineer' });
    await settle();
    const generated = await ctx.services.matches.generate(s.account.id, second.id);
    assert.equal(generated, 0, 'a queued generation makes nothing');
    assert.equal(await countOf(job.id), 1, 'no new match of the first role');
    assert.equal(await countOf(second.id), 0, 'none of the second role');

    const audit = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/audit`);
    assert.ok(
      (audit.json().entries as { action: string }[]).some((e) => e.action === 'account.matching_disabled'),
      'the switch is audited',
    );

    const on = await consoleCall(ctx.app, 'PATCH', `/accounts/${s.account.id}`, { matchingEnabled: true });
    assert.equal(on.statusCode, 200, on.body);
    await settle();
    const after = await matchesOf(s.api, job.id);
    assert.equal(after.length, 2);
    assert.ok(
      after.some((m) => m.candidateId === newcomer.candidateId),
      'the newcomer matched once on',
    );
    assert.equal((await matchesOf(s.api, second.id)).length, 2);
  });

  test('Settings switches it, audited as the admin; the Matches page says it is off', async () => {
    const s = await account();
    const job = await managedRole(s);
    const admin = await signedIn(ctx.app, s.account.id, 'admin');
    const page = await admin.web.get('/console/settings');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Automated matching/);
    const off = await admin.web.post('/console/settings/matching', { enabled: 'no' });
    assert.equal(off.statusCode, 303);
    assert.equal(
      (await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}`)).json().account.matchingEnabled,
      false,
    );
    const matchesPage = await admin.web.get(`/console/jobs/${job.id}/matches`);
    assert.equal(matchesPage.statusCode, 200);
    assert.match(matchesPage.body, /switched off for this account/);
    await admin.web.get('/console/settings');
    const on = await admin.web.post('/console/settings/matching', { enabled: 'yes' });
    assert.equal(on.statusCode, 303);
    assert.equal(
      (await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}`)).json().account.matchingEnabled,
      true,
    );
    const audit = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/audit`);
    const entries = audit.json().entries as { action: string; actor: { email: string | null } }[];
    assert.equal(entries.find((e) => e.action === 'account.matching_disabled')?.actor.email, admin.email);
    assert.ok(entries.some((e) => e.action === 'account.matching_enabled'));
  });
});
