import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { client, consoleCall, jobsAccount, newAccount, newKey } from './support/accounts.ts';
import { startApp, useTestApp } from './support/app.ts';
import { assertError, errorOf } from './support/assert.ts';

const ctx = useTestApp();

/** What a key is in the console's answers, sorted: never its secret or hash. */
const KEY_FIELDS = ['createdAt', 'id', 'lastUsedAt', 'mode', 'name', 'revokedAt', 'scopes'];

/** How many rows of `table` the account has. */
async function rowsOf(table: 'jobs' | 'api_keys', accountId: string): Promise<number> {
  return (await ctx.handle.db.selectFrom(table).select('id').where('account_id', '=', accountId).execute())
    .length;
}

describe('API keys: both headers', () => {
  test('Authorization: Bearer and x-api-key both authenticate the same key', async () => {
    const { key } = await jobsAccount(ctx.app);
    const bearer = await ctx.app.inject({
      method: 'GET',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}` },
    });
    assert.equal(bearer.statusCode, 200, bearer.body);
    assert.deepEqual(bearer.json(), { jobs: [], nextCursor: null });

    const header = await ctx.app.inject({
      method: 'GET',
      url: '/v1/jobs',
      headers: { 'x-api-key': key.secret },
    });
    assert.equal(header.statusCode, 200, header.body);
    assert.deepEqual(header.json(), { jobs: [], nextCursor: null });

    // Both count against the same key: the second answer has one less remaining.
    assert.equal(
      Number(header.headers['x-ratelimit-remaining']),
      Number(bearer.headers['x-ratelimit-remaining']) - 1,
    );
  });

  test('a key is used: lastUsedAt is recorded', async () => {
    const account = await newAccount(ctx.app);
    const key = await newKey(ctx.app, account.id, ['jobs:read']);
    const before = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys[0];
    assert.equal(before.lastUsedAt, null);
    assert.equal((await client(ctx.app, key.secret).get('/v1/jobs')).statusCode, 200);
    const afterUse = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys[0];
    assert.equal(afterUse.lastUsedAt, ctx.clock.now().toISOString());
  });
});

describe('401 unauthorized', () => {
  const cases: [string, Record<string, string>][] = [
    ['no key at all', {}],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['a Basic credential instead of Bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed Bearer (two tokens)', { authorization: 'Bearer abc def' }],
    ['an unknown Bearer key', { authorization: 'Bearer cak_thisKeyWasNeverMintedAnywhere0000000000' }],
    ['an unknown x-api-key', { 'x-api-key': 'cak_thisKeyWasNeverMintedAnywhere0000000000' }],
    ['a too short key', { 'x-api-key': 'abc' }],
    ['an empty x-api-key', { 'x-api-key': '' }],
  ];
  for (const [name, headers] of cases) {
    test(`${name} → 401 unauthorized`, async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/v1/jobs', headers });
      assertError(res, 401, 'unauthorized');
      assert.equal(res.headers['x-request-id'], errorOf(res).requestId);
      // A refused caller gets no rate-limit headers: there is no key to count against.
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
    });
  }

  test('401 on a write route too, and nothing is written', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': 'cak_unknown_unknown_unknown_unknown' },
      payload: { title: 'Nope' },
    });
    assertError(res, 401, 'unauthorized');
  });

  test('a key that is almost right (one character changed) is refused', async () => {
    const { key } = await jobsAccount(ctx.app);
    const last = key.secret.at(-1) === 'A' ? 'B' : 'A';
    const res = await client(ctx.app, key.secret.slice(0, -1) + last).get('/v1/jobs');
    assertError(res, 401, 'unauthorized');
  });
});

describe('403 forbidden: scopes', () => {
  test('a key without jobs:read cannot list jobs; the message names the scope', async () => {
    const account = await newAccount(ctx.app);
    const key = await newKey(ctx.app, account.id, ['jobs:write']);
    const res = await client(ctx.app, key.secret).get('/v1/jobs');
    const error = assertError(res, 403, 'forbidden');
    assert.match(error.message, /jobs:read/);
  });

  test('jobs:write does not imply jobs:read (get one job)', async () => {
    const account = await newAccount(ctx.app);
    const writer = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:write'])).secret);
    const created = await writer.post('/v1/jobs', {
      title: 'Engineer',
      description: 'Build things',
      category: 'engineering',
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().job.id;
    assert.equal((await writer.post(`/v1/jobs/${id}/publish`)).statusCode, 200);
    const read = await writer.get(`/v1/jobs/${id}`);
    const error = assertError(read, 403, 'forbidden');
    assert.match(error.message, /jobs:read/);

    // The same job is readable by a key that has the scope.
    const reader = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:read'])).secret);
    const ok = await reader.get(`/v1/jobs/${id}`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().job.id, id);
  });

  test('jobs:read does not grant jobs:write; nothing is created', async () => {
    const account = await newAccount(ctx.app);
    const reader = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:read'])).secret);
    const res = await reader.post('/v1/jobs', { title: 'Should not exist' });
    const error = assertError(res, 403, 'forbidden');
    assert.match(error.message, /jobs:write/);
    assert.equal(await rowsOf('jobs', account.id), 0);
  });

  test('applications:write or screening alone grants no job route', async () => {
    const account = await newAccount(ctx.app, { dpa: true });
    const key = await newKey(ctx.app, account.id, ['applications:write', 'screening']);
    const api = client(ctx.app, key.secret);
    assert.match(assertError(await api.get('/v1/jobs'), 403, 'forbidden').message, /jobs:read/);
    assert.match(
      assertError(await api.post('/v1/jobs', { title: 'x' }), 403, 'forbidden').message,
      /jobs:write/,
    );
  });
});

describe('revocation', () => {
  test('a key revoked through the console fails with 401 from the very next request', async () => {
    const account = await newAccount(ctx.app);
    const key = await newKey(ctx.app, account.id, ['jobs:read']);
    const other = await newKey(ctx.app, account.id, ['jobs:read']);
    const api = client(ctx.app, key.secret);
    assert.equal((await api.get('/v1/jobs')).statusCode, 200);

    const revoked = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`);
    assert.equal(revoked.statusCode, 204);
    assert.equal(revoked.body, '');

    assertError(await api.get('/v1/jobs'), 401, 'unauthorized');
    assertError(
      await ctx.app.inject({ method: 'GET', url: '/v1/jobs', headers: { 'x-api-key': key.secret } }),
      401,
      'unauthorized',
    );
    // The account's other key is untouched.
    assert.equal((await client(ctx.app, other.secret).get('/v1/jobs')).statusCode, 200);

    const row = await ctx.handle.db
      .selectFrom('api_keys')
      .select(['revoked_at'])
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.revoked_at instanceof Date);
  });

  test('a revocation made through another app instance holds at once (no cache)', async () => {
    const second = await startApp();
    try {
      const account = await newAccount(ctx.app);
      const key = await newKey(ctx.app, account.id, ['jobs:read']);
      assert.equal((await client(ctx.app, key.secret).get('/v1/jobs')).statusCode, 200);
      assert.equal((await client(second.app, key.secret).get('/v1/jobs')).statusCode, 200);
      const revoked = await consoleCall(second.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`);
      assert.equal(revoked.statusCode, 204);
      assertError(await client(ctx.app, key.secret).get('/v1/jobs'), 401, 'unauthorized');
    } finally {
      await second.close();
    }
  });
});

describe('secrets', () => {
  test('keys listed never contain a secret; the secret is shown once', async () => {
    const account = await newAccount(ctx.app);
    const minted = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read'],
      name: 'website',
    });
    assert.equal(minted.statusCode, 201);
    assert.equal(minted.headers['cache-control'], 'no-store');
    const { key, secret } = minted.json();
    assert.equal(typeof secret, 'string');
    assert.ok(secret.length >= 32);
    assert.deepEqual(Object.keys(key).sort(), KEY_FIELDS);

    const listed = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`);
    assert.equal(listed.statusCode, 200);
    assert.ok(!listed.body.includes(secret), 'the list must not carry the secret');
    const hash = createHash('sha256').update(secret).digest('hex');
    assert.ok(!listed.body.includes(hash), 'the list must not carry the hash either');
    for (const item of listed.json().keys) {
      assert.deepEqual(Object.keys(item).sort(), KEY_FIELDS);
    }
    assert.equal(listed.json().keys[0].id, key.id);
  });

  test('the secret is stored only as its SHA-256 hash', async () => {
    const account = await newAccount(ctx.app);
    const { id, secret } = await newKey(ctx.app, account.id, ['jobs:read']);
    const row = await ctx.handle.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.secret_hash, createHash('sha256').update(secret).digest('hex'));
    assert.equal(row.account_id, account.id);
    assert.deepEqual(row.scopes, ['jobs:read']);
    const stored = JSON.stringify(row);
    assert.ok(!stored.includes(secret), 'the secret must not be stored in any column');
    // Nowhere else in the key table either.
    const all = await ctx.handle.db.selectFrom('api_keys').selectAll().execute();
    assert.ok(!JSON.stringify(all).includes(secret));
  });
});

describe('minting keys', () => {
  test('applications:write before the DPA → 409 dpa_required; after accepting it → 201', async () => {
    const account = await newAccount(ctx.app);
    const refused = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read', 'applications:write'],
    });
    const { message } = assertError(refused, 409, 'dpa_required');
    // The refusal says how to accept the addendum: the console page, the console API, the CLI.
    assert.match(message, /\/console\/settings/);
    assert.match(message, /PATCH \/console\/v1\/accounts\/\{accountId\} with \{"dpaAccepted": true\}/);
    assert.match(message, /npm run console -- account:dpa/);
    assert.equal(await rowsOf('api_keys', account.id), 0, 'a refused mint stores nothing');

    const accepted = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { dpaAccepted: true });
    assert.equal(accepted.statusCode, 200);
    assert.notEqual(accepted.json().account.dpaAcceptedAt, null);

    const minted = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read', 'applications:write'],
    });
    assert.equal(minted.statusCode, 201, minted.body);
    assert.deepEqual(minted.json().key.scopes, ['jobs:read', 'applications:write']);
  });

  test('an unknown scope → 400 naming it, nothing stored', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read', 'jobs:delete'],
    });
    const error = assertError(res, 400, 'bad_request');
    assert.match(error.message, /jobs:delete/);
    assert.equal(await rowsOf('api_keys', account.id), 0);
  });

  test('no scopes at all → 400', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, { scopes: [] });
    const error = assertError(res, 400, 'bad_request');
    assert.match(error.message, /scopes/);
  });
});

describe('console token', () => {
  test('no token → 401 unauthorized', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/console/v1/accounts', payload: { name: 'x' } });
    assertError(res, 401, 'unauthorized');
  });

  test('a wrong token → 401 unauthorized, and nothing is created', async () => {
    const name = `wrong-token-${Date.now()}`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/console/v1/accounts',
      headers: { authorization: 'Bearer not-the-console-token-at-all' },
      payload: { name },
    });
    assertError(res, 401, 'unauthorized');
    const rows = await ctx.handle.db.selectFrom('accounts').select('id').where('name', '=', name).execute();
    assert.equal(rows.length, 0);
  });

  test('an API key is not a console token', async () => {
    const { account, key } = await jobsAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/console/v1/accounts/${account.id}`,
      headers: { authorization: `Bearer ${key.secret}` },
    });
    assertError(res, 401, 'unauthorized');
  });

  test('the console token is not an API key', async () => {
    const res = await client(ctx.app, 'test-console-token-0123456789').get('/v1/jobs');
    assertError(res, 401, 'unauthorized');
  });
});

describe('account scoping', () => {
  test("another account's key cannot see the account's job (404)", async () => {
    const owner = await jobsAccount(ctx.app);
    const created = await owner.api.post('/v1/jobs', {
      title: 'Data engineer',
      description: 'Pipelines',
      category: 'data',
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().job.id;
    const published = await owner.api.post(`/v1/jobs/${id}/publish`);
    assert.equal(published.statusCode, 200, published.body);
    assert.equal((await owner.api.get(`/v1/jobs/${id}`)).statusCode, 200);

    const stranger = await jobsAccount(ctx.app);
    assertError(await stranger.api.get(`/v1/jobs/${id}`), 404, 'not_found');
    const list = await stranger.api.get('/v1/jobs');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json().jobs, []);
    // Nor write it.
    assertError(await stranger.api.post(`/v1/jobs/${id}/close`), 404, 'not_found');
    assertError(await stranger.api.patch(`/v1/jobs/${id}`, { title: 'Mine now' }), 404, 'not_found');
    const row = await ctx.handle.db
      .selectFrom('jobs')
      .select(['status', 'content'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'published');
    assert.equal((row.content as { title: string }).title, 'Data engineer');
  });
});
