import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { IDEMPOTENCY_LOCK_MS, requestHash } from '../src/domain/idempotency/idempotency-service.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { jobsAccount, unique } from './support/accounts.ts';
import { listen, startApp, type TestContext, testConfig, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';

const ctx = useTestApp();

async function jobIds(handle: TestContext['handle'], accountId: string): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('jobs')
    .select('id')
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

async function records(handle: TestContext['handle'], accountId: string) {
  return handle.db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('key')
    .execute();
}

const ik = (key: string) => ({ 'idempotency-key': key });

function assertSameAnswer(replay: LightMyRequestResponse, first: LightMyRequestResponse) {
  assert.equal(replay.statusCode, first.statusCode);
  assert.ok(
    replay.rawPayload.equals(first.rawPayload),
    `replayed bytes differ:\n${replay.body}\n${first.body}`,
  );
  assert.equal(replay.headers['content-type'], first.headers['content-type']);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(first.headers['idempotent-replayed'], undefined);
}

describe('replay', () => {
  test('same key and same body: the first answer byte for byte, and one job', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const key = unique('ik');
    const body = {
      title: 'Backend engineer',
      description: 'APIs',
      skills: [{ name: 'SQL', level: 'required' }],
    };
    const first = await api.post('/v1/jobs', body, ik(key));
    assert.equal(first.statusCode, 201, first.body);
    const second = await api.post('/v1/jobs', body, ik(key));
    assertSameAnswer(second, first);
    // The same body with its keys in another order is the same request.
    const reordered = await api.post(
      '/v1/jobs',
      { skills: [{ level: 'required', name: 'SQL' }], description: 'APIs', title: 'Backend engineer' },
      ik(key),
    );
    assertSameAnswer(reordered, first);
    assert.deepEqual(await jobIds(ctx.handle, account.id), [first.json().job.id]);

    const [record] = await records(ctx.handle, account.id);
    assert.equal(record?.route, 'POST /v1/jobs');
    assert.equal(record?.key, key);
    assert.equal(record?.status_code, 201);
    assert.equal(record?.response_body, first.body);
    assert.equal(record?.locked_until, null);
  });

  test('without a key, every request is a new job (the control case)', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const a = await api.post('/v1/jobs', { title: 'Same' });
    const b = await api.post('/v1/jobs', { title: 'Same' });
    assert.equal(a.statusCode, 201);
    assert.equal(b.statusCode, 201);
    assert.notEqual(a.json().job.id, b.json().job.id);
    assert.equal((await jobIds(ctx.handle, account.id)).length, 2);
    assert.equal((await records(ctx.handle, account.id)).length, 0);
  });

  test('same key, different body → 409 conflict; nothing more is created', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const key = unique('ik');
    const first = await api.post('/v1/jobs', { title: 'One' }, ik(key));
    assert.equal(first.statusCode, 201);
    const other = await api.post('/v1/jobs', { title: 'Two' }, ik(key));
    assert.equal(other.statusCode, 409, other.body);
    assert.equal(errorOf(other).code, 'conflict');
    assert.match(errorOf(other).message, /different request/);
    assert.equal(other.headers['idempotent-replayed'], undefined);
    assert.deepEqual(await jobIds(ctx.handle, account.id), [first.json().job.id]);
    // The original still replays afterwards.
    assertSameAnswer(await api.post('/v1/jobs', { title: 'One' }, ik(key)), first);
  });

  test('a refusal (422 not_publishable) is replayed with the same key, even after the job was fixed', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const created = await api.post('/v1/jobs', { title: 'Unfinished' });
    const id = created.json().job.id;
    const key = unique('ik');
    const refused = await api.post(`/v1/jobs/${id}/publish`, undefined, ik(key));
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(errorOf(refused).code, 'not_publishable');
    assert.deepEqual(errorOf(refused).missing, ['description', 'category']);

    const fixed = await api.patch(`/v1/jobs/${id}`, { description: 'Now complete', category: 'other' });
    assert.equal(fixed.statusCode, 200, fixed.body);

    const replay = await api.post(`/v1/jobs/${id}/publish`, undefined, ik(key));
    assertSameAnswer(replay, refused);
    const row = await ctx.handle.db
      .selectFrom('jobs')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'draft', 'a replayed refusal does not run the publish');
    const stored = (await records(ctx.handle, account.id)).find((r) => r.key === key);
    assert.equal(stored?.status_code, 422);
    assert.equal(stored?.route, 'POST /v1/jobs/:jobId/publish');

    // A new key runs the publish.
    const published = await api.post(`/v1/jobs/${id}/publish`, undefined, ik(unique('ik')));
    assert.equal(published.statusCode, 200, published.body);
    assert.equal(published.json().job.status, 'published');
  });

  test('keys are scoped per account: two accounts can use the same key', async () => {
    const one = await jobsAccount(ctx.app);
    const two = await jobsAccount(ctx.app);
    const key = unique('shared');
    const a = await one.api.post('/v1/jobs', { title: 'Same' }, ik(key));
    const b = await two.api.post('/v1/jobs', { title: 'Same' }, ik(key));
    assert.equal(a.statusCode, 201);
    assert.equal(b.statusCode, 201);
    assert.equal(b.headers['idempotent-replayed'], undefined);
    assert.notEqual(a.json().job.id, b.json().job.id);
    assert.deepEqual(await jobIds(ctx.handle, one.account.id), [a.json().job.id]);
    assert.deepEqual(await jobIds(ctx.handle, two.account.id), [b.json().job.id]);
  });

  test('keys are scoped per route: the create key can be reused on publish', async () => {
    const { api } = await jobsAccount(ctx.app);
    const key = unique('ik');
    const created = await api.post('/v1/jobs', { title: 'T', description: 'D', category: 'sales' }, ik(key));
    assert.equal(created.statusCode, 201);
    const published = await api.post(`/v1/jobs/${created.json().job.id}/publish`, undefined, ik(key));
    assert.equal(published.statusCode, 200, published.body);
    assert.equal(published.headers['idempotent-replayed'], undefined);
  });
});

describe('the key itself', () => {
  test('a key longer than 255 characters → 400 naming the header; nothing created', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const res = await api.post('/v1/jobs', { title: 'Long key' }, ik('k'.repeat(256)));
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(errorOf(res).code, 'bad_request');
    assert.match(errorOf(res).message, /idempotency-key/i);
    assert.deepEqual(await jobIds(ctx.handle, account.id), []);
    assert.equal((await records(ctx.handle, account.id)).length, 0);
  });

  test('a key of exactly 255 characters is accepted', async () => {
    const { account, api } = await jobsAccount(ctx.app);
    const key = `${unique('k')}-`.padEnd(255, 'k');
    const res = await api.post('/v1/jobs', { title: 'Max key' }, ik(key));
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await records(ctx.handle, account.id))[0]?.key, key);
  });

  test('a key with a space or control character → 400', async () => {
    const { api } = await jobsAccount(ctx.app);
    const res = await api.post('/v1/jobs', { title: 'x' }, ik('two words'));
    assert.equal(res.statusCode, 400);
    assert.match(errorOf(res).message, /idempotency-key/i);
  });
});

describe('requests still running', () => {
  test('same key while the first is still running → 409; taken over once its lock (60 s) passed', async () => {
    const clock = new ManualClock(new Date());
    const server = await startApp({ clock });
    const { account, api } = await jobsAccount(server.app);
    const key = unique('ik');
    const body = { title: 'In flight' };
    // A request that claimed the key and never finished (still running, or its process died).
    const claim = await server.services.idempotency.claim(
      { accountId: account.id, route: 'POST /v1/jobs', key },
      requestHash('POST', '/v1/jobs', body),
    );
    assert.equal(claim.kind, 'claimed');

    const busy = await api.post('/v1/jobs', body, ik(key));
    assert.equal(busy.statusCode, 409, busy.body);
    assert.equal(errorOf(busy).code, 'conflict');
    assert.match(errorOf(busy).message, /still running/);
    assert.deepEqual(await jobIds(server.handle, account.id), []);

    clock.advance(IDEMPOTENCY_LOCK_MS - 1);
    const stillBusy = await api.post('/v1/jobs', body, ik(key));
    assert.equal(stillBusy.statusCode, 409);
    assert.deepEqual(await jobIds(server.handle, account.id), []);

    // A different body while it runs is still a different request.
    const different = await api.post('/v1/jobs', { title: 'Other' }, ik(key));
    assert.equal(different.statusCode, 409);
    assert.match(errorOf(different).message, /different request/);

    clock.advance(2);
    const takenOver = await api.post('/v1/jobs', body, ik(key));
    assert.equal(takenOver.statusCode, 201, takenOver.body);
    assert.equal(takenOver.headers['idempotent-replayed'], undefined);
    assert.deepEqual(await jobIds(server.handle, account.id), [takenOver.json().job.id]);
    const [record] = await records(server.handle, account.id);
    assert.equal(record?.status_code, 201);
    assert.equal(record?.locked_until, null);
    assertSameAnswer(await api.post('/v1/jobs', body, ik(key)), takenOver);
  });

  test('a 500 is not kept: the claim is released and a retry with the same key runs afresh', async () => {
    let failures = 1;
    const server = await startApp({
      wrapServices: (services) => ({
        ...services,
        jobs: {
          ...services.jobs,
          create: async (...args: Parameters<typeof services.jobs.create>) => {
            if (failures-- > 0) throw new Error('transient failure');
            return services.jobs.create(...args);
          },
        },
      }),
    });
    const { account, api } = await jobsAccount(server.app);
    const key = unique('ik');
    const failed = await api.post('/v1/jobs', { title: 'Retry me' }, ik(key));
    assert.equal(failed.statusCode, 500);
    assert.equal(errorOf(failed).code, 'internal');
    assert.deepEqual(await records(server.handle, account.id), []);
    const retried = await api.post('/v1/jobs', { title: 'Retry me' }, ik(key));
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    assert.equal((await jobIds(server.handle, account.id)).length, 1);
  });

  test('the stored answer commits with the write: when storing it fails, no job is left behind', async () => {
    let failures = 1;
    const server = await startApp({
      wrapServices: (services) => ({
        ...services,
        idempotency: {
          ...services.idempotency,
          complete: async (...args: Parameters<typeof services.idempotency.complete>) => {
            await services.idempotency.complete(...args);
            if (failures-- > 0) throw new Error('lost the answer');
          },
        },
      }),
    });
    const { account, api } = await jobsAccount(server.app);
    const key = unique('ik');
    const failed = await api.post('/v1/jobs', { title: 'Atomic' }, ik(key));
    assert.equal(failed.statusCode, 500);
    assert.deepEqual(await jobIds(server.handle, account.id), [], 'the job rolled back with the answer');
    assert.deepEqual(await records(server.handle, account.id), []);
    const retried = await api.post('/v1/jobs', { title: 'Atomic' }, ik(key));
    assert.equal(retried.statusCode, 201);
    assert.deepEqual(await jobIds(server.handle, account.id), [retried.json().job.id]);
  });
});

describe('concurrency', () => {
  /** Six requests at once with one key: one job; the others replay it or answer 409. */
  function checkSix(answers: { status: number; replayed: string | null; body: string }[], jobs: string[]) {
    assert.equal(jobs.length, 1, `jobs created: ${jobs.length}`);
    const originals = answers.filter((a) => a.status === 201 && a.replayed === null);
    assert.equal(originals.length, 1, JSON.stringify(answers.map((a) => [a.status, a.replayed])));
    const original = originals[0]!;
    assert.equal(JSON.parse(original.body).job.id, jobs[0]);
    for (const answer of answers) {
      if (answer === original) continue;
      if (answer.status === 201) {
        assert.equal(answer.replayed, 'true');
        assert.equal(answer.body, original.body);
      } else {
        assert.equal(answer.status, 409, answer.body);
        assert.equal(JSON.parse(answer.body).error.code, 'conflict');
      }
    }
  }

  test('six concurrent requests with one key (inject) → exactly one job', async () => {
    for (let round = 0; round < 3; round++) {
      const { account, api } = await jobsAccount(ctx.app);
      const key = unique('six');
      const results = await Promise.all(
        Array.from({ length: 6 }, () => api.post('/v1/jobs', { title: 'Concurrent' }, ik(key))),
      );
      checkSix(
        results.map((r) => ({
          status: r.statusCode,
          replayed: (r.headers['idempotent-replayed'] as string | undefined) ?? null,
          body: r.body,
        })),
        await jobIds(ctx.handle, account.id),
      );
    }
  });

  test(`six concurrent requests with one key over real sockets → exactly one job (${testConfig.databaseUrl ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const server = await startApp();
    const base = await listen(server.app);
    for (let round = 0; round < 5; round++) {
      const { account, key } = await jobsAccount(server.app);
      const idem = unique('six-socket');
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${base}/v1/jobs`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key.secret}`,
              'content-type': 'application/json',
              'idempotency-key': idem,
            },
            body: JSON.stringify({ title: 'Concurrent over sockets', description: `round ${round}` }),
          }).then(async (res) => ({
            status: res.status,
            replayed: res.headers.get('idempotent-replayed'),
            body: await res.text(),
          })),
        ),
      );
      checkSix(results, await jobIds(server.handle, account.id));
    }
  });
});

describe('expiry', () => {
  test('a record is remembered 24 hours; after that the key starts afresh', async () => {
    // A clock in the past, so this test's expired records are nobody else's.
    const clock = new ManualClock('2020-03-01T10:00:00Z');
    const server = await startApp({ clock });
    const { account, api } = await jobsAccount(server.app);
    const key = unique('ik');
    const first = await api.post('/v1/jobs', { title: 'Day one' }, ik(key));
    assert.equal(first.statusCode, 201);
    const [record] = await records(server.handle, account.id);
    assert.equal(record?.expires_at.toISOString(), '2020-03-02T10:00:00.000Z');

    clock.advance(24 * 3_600_000 - 1);
    assertSameAnswer(await api.post('/v1/jobs', { title: 'Day one' }, ik(key)), first);

    clock.advance(1);
    const again = await api.post('/v1/jobs', { title: 'Day one' }, ik(key));
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], undefined);
    assert.notEqual(again.json().job.id, first.json().job.id);
    assert.equal((await jobIds(server.handle, account.id)).length, 2);
    // An expired record no longer holds a different body off either.
    clock.advance(24 * 3_600_000);
    const different = await api.post('/v1/jobs', { title: 'Day three' }, ik(key));
    assert.equal(different.statusCode, 201, different.body);
  });

  test('sweep() removes expired records and keeps live ones', async () => {
    const clock = new ManualClock('2019-06-01T00:00:00Z');
    const server = await startApp({ clock });
    const { account, api } = await jobsAccount(server.app);
    const old = unique('old');
    assert.equal((await api.post('/v1/jobs', { title: 'Old' }, ik(old))).statusCode, 201);
    clock.advance(12 * 3_600_000);
    const young = unique('young');
    assert.equal((await api.post('/v1/jobs', { title: 'Young' }, ik(young))).statusCode, 201);
    assert.deepEqual(
      (await records(server.handle, account.id)).map((r) => r.key).sort(),
      [old, young].sort(),
    );

    // Half a day before the old record expires, a sweep keeps both.
    await server.services.idempotency.sweep();
    assert.equal((await records(server.handle, account.id)).length, 2);
    clock.advance(12 * 3_600_000);
    assert.ok((await server.services.idempotency.sweep()) >= 1);
    assert.deepEqual(
      (await records(server.handle, account.id)).map((r) => r.key),
      [young],
    );
    clock.advance(12 * 3_600_000);
    assert.ok((await server.services.idempotency.sweep()) >= 1);
    assert.deepEqual(await records(server.handle, account.id), []);
    // The jobs themselves are not touched by the sweep.
    assert.equal((await jobIds(server.handle, account.id)).length, 2);
  });
});
