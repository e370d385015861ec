import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { client, consoleCall, newAccount, newKey, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';

const ctx = useTestApp();

const DEFAULT_LIMITS = {
  requestsPerMinute: 120,
  dailyApplications: 500,
  jobDailyApplications: 200,
  dailyCandidateImports: 500,
  weeklyUnsolicitedContacts: 2,
  managedAdSlots: 5,
  includedScreeningsPerManagedAd: 10,
  monthlyOverageCapCents: 50000,
  hostedDailyApplications: 300,
  hostedJobDailyApplications: 100,
};

async function accountRow(id: string) {
  return ctx.handle.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A valid company address nobody holds yet. */
const address = () =>
  unique('co')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');

describe('accounts', () => {
  test('create → 201 with every field, the defaults, and the row stored', async () => {
    const companyAddress = address();
    const res = await consoleCall(ctx.app, 'POST', '/accounts', {
      name: 'Acme Hiring',
      companyName: 'Acme Pty Ltd',
      logoUrl: 'https://cdn.acme.test/logo.png',
      companyAddress,
    });
    assert.equal(res.statusCode, 201, res.body);
    const { account } = res.json();
    assert.match(account.id, /^acc_/);
    assert.deepEqual(account, {
      id: account.id,
      name: 'Acme Hiring',
      companyName: 'Acme Pty Ltd',
      logoUrl: 'https://cdn.acme.test/logo.png',
      companyAddress,
      dpaAcceptedAt: null,
      limits: DEFAULT_LIMITS,
      retention: { applicationDays: 180, candidateDays: 180 },
      matchingEnabled: true,
      embedOrigins: [],
    });
    const row = await accountRow(account.id);
    assert.equal(row?.name, 'Acme Hiring');
    assert.equal(row?.company_address, companyAddress);
    assert.equal(row?.requests_per_minute, 120);
  });

  test('create with a name only: the rest is null', async () => {
    const res = await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Minimal' });
    assert.equal(res.statusCode, 201);
    const { account } = res.json();
    assert.equal(account.companyName, null);
    assert.equal(account.logoUrl, null);
    assert.equal(account.companyAddress, null);
    assert.equal(account.dpaAcceptedAt, null);
  });

  const invalidCreates: [string, Record<string, unknown>, RegExp][] = [
    ['no name', { companyName: 'x' }, /name/],
    ['an empty name', { name: '' }, /name/],
    ['an unknown field', { name: 'x', plan: 'gold' }, /plan/],
    ['a logoUrl that is not http(s)', { name: 'x', logoUrl: 'javascript:alert(1)' }, /logoUrl/],
  ];
  for (const [what, body, field] of invalidCreates) {
    test(`create with ${what} → 400 naming the field`, async () => {
      const res = await consoleCall(ctx.app, 'POST', '/accounts', body);
      assert.match(assertError(res, 400, 'bad_request').message, field);
    });
  }

  for (const bad of ['Acme Co', 'a', '-acme', 'acme-', 'ac--me', 'acme_co', 'ÄCME', 'x'.repeat(61)]) {
    test(`companyAddress ${JSON.stringify(bad)} is invalid → 400, nothing stored`, async () => {
      const name = unique('invalid-address');
      const res = await consoleCall(ctx.app, 'POST', '/accounts', { name, companyAddress: bad });
      assert.match(assertError(res, 400, 'bad_request').message, /companyAddress/);
      const rows = await ctx.handle.db.selectFrom('accounts').select('id').where('name', '=', name).execute();
      assert.equal(rows.length, 0);
    });
  }

  test('companyAddress of 2 and of 60 characters are valid', async () => {
    for (const length of [2, 60]) {
      const value = `${unique('x').replace(/[^a-z0-9]/g, '')}`.slice(-length).padStart(length, 'a');
      const res = await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Edge', companyAddress: value });
      // A two-letter address may exist from an earlier run on a shared database: then it is a 409.
      if (length === 2 && res.statusCode === 409) continue;
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().account.companyAddress, value);
    }
  });

  test('a companyAddress taken by another account → 409 conflict (create and patch)', async () => {
    const holder = await newAccount(ctx.app);
    const taken = holder.companyAddress!;
    const name = unique('second');
    const created = await consoleCall(ctx.app, 'POST', '/accounts', { name, companyAddress: taken });
    assertError(created, 409, 'conflict');
    assert.equal(
      (await ctx.handle.db.selectFrom('accounts').select('id').where('name', '=', name).execute()).length,
      0,
    );

    const other = await newAccount(ctx.app);
    const patched = await consoleCall(ctx.app, 'PATCH', `/accounts/${other.id}`, { companyAddress: taken });
    assertError(patched, 409, 'conflict');
    assert.equal((await accountRow(other.id))?.company_address, other.companyAddress);

    // The holder may send its own address again.
    const same = await consoleCall(ctx.app, 'PATCH', `/accounts/${holder.id}`, { companyAddress: taken });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal(same.json().account.companyAddress, taken);
  });

  test("an address an account moved away from stays reserved for that account's redirects", async () => {
    const mover = await newAccount(ctx.app);
    const old = mover.companyAddress!;
    const next = address();
    const moved = await consoleCall(ctx.app, 'PATCH', `/accounts/${mover.id}`, { companyAddress: next });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json().account.companyAddress, next);
    const other = await newAccount(ctx.app);
    assertError(
      await consoleCall(ctx.app, 'PATCH', `/accounts/${other.id}`, { companyAddress: old }),
      409,
      'conflict',
    );
    // The mover can move back.
    const back = await consoleCall(ctx.app, 'PATCH', `/accounts/${mover.id}`, { companyAddress: old });
    assert.equal(back.statusCode, 200, back.body);
    assert.equal((await accountRow(mover.id))?.company_address, old);
  });

  test('companyAddress cannot be removed once chosen → 400', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { companyAddress: null });
    assert.match(assertError(res, 400, 'bad_request').message, /companyAddress/);
    assert.equal((await accountRow(account.id))?.company_address, account.companyAddress);
  });

  test('get → 200 { account }; an unknown account → 404', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().account.id, account.id);
    assert.equal(res.json().account.companyAddress, account.companyAddress);
    assert.deepEqual(res.json().account.limits, DEFAULT_LIMITS);
    assertError(await consoleCall(ctx.app, 'GET', '/accounts/acc_doesnotexist'), 404, 'not_found');
  });

  test('patch changes only the fields sent', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, {
      name: 'Renamed',
      logoUrl: 'https://logo.test/a.svg',
    });
    assert.equal(res.statusCode, 200, res.body);
    const patched = res.json().account;
    assert.equal(patched.name, 'Renamed');
    assert.equal(patched.logoUrl, 'https://logo.test/a.svg');
    assert.equal(patched.companyName, 'Test Company');
    assert.equal(patched.companyAddress, account.companyAddress);
    const cleared = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { companyName: null });
    assert.equal(cleared.json().account.companyName, null);
    assert.equal(cleared.json().account.name, 'Renamed');
    const row = await accountRow(account.id);
    assert.equal(row?.name, 'Renamed');
    assert.equal(row?.company_name, null);
  });

  test('limits patch: the limits sent change, the others keep their values', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, {
      limits: { requestsPerMinute: 5, dailyApplications: 10, monthlyOverageCapCents: 0 },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().account.limits, {
      ...DEFAULT_LIMITS,
      requestsPerMinute: 5,
      dailyApplications: 10,
      monthlyOverageCapCents: 0,
    });
    const row = await accountRow(account.id);
    assert.equal(row?.requests_per_minute, 5);
    assert.equal(row?.daily_applications, 10);
    assert.equal(row?.monthly_overage_cap_cents, 0);
    assert.equal(row?.managed_ad_slots, 5);
    const again = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}`);
    assert.equal(again.json().account.limits.requestsPerMinute, 5);
  });

  const badLimits: [string, Record<string, unknown>][] = [
    ['requestsPerMinute 0', { requestsPerMinute: 0 }],
    ['a negative limit', { dailyApplications: -1 }],
    ['a fractional limit', { managedAdSlots: 1.5 }],
    ['a limit sent as a string', { requestsPerMinute: '5' }],
    ['an unknown limit', { requestsPerHour: 5 }],
  ];
  for (const [what, limits] of badLimits) {
    test(`limits with ${what} → 400, nothing changed`, async () => {
      const account = await newAccount(ctx.app);
      const res = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { limits });
      const error = assertError(res, 400, 'bad_request');
      assert.match(error.message, new RegExp(Object.keys(limits)[0]!));
      const row = await accountRow(account.id);
      assert.equal(row?.requests_per_minute, 120);
      assert.equal(row?.daily_applications, 500);
      assert.equal(row?.managed_ad_slots, 5);
    });
  }

  test('dpaAccepted: true records the moment once; false → 400', async () => {
    const account = await newAccount(ctx.app);
    const refused = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { dpaAccepted: false });
    assert.match(assertError(refused, 400, 'bad_request').message, /dpaAccepted/);
    assert.equal((await accountRow(account.id))?.dpa_accepted_at, null);

    const at = ctx.clock.now().toISOString();
    const accepted = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { dpaAccepted: true });
    assert.equal(accepted.statusCode, 200);
    assert.equal(accepted.json().account.dpaAcceptedAt, at);

    ctx.clock.advance(5_000);
    const again = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { dpaAccepted: true });
    assert.equal(again.json().account.dpaAcceptedAt, at, 'the first acceptance is kept');
    const withdrawn = await consoleCall(ctx.app, 'PATCH', `/accounts/${account.id}`, { dpaAccepted: false });
    assertError(withdrawn, 400, 'bad_request');
    assert.equal((await accountRow(account.id))?.dpa_accepted_at?.toISOString(), at);
  });

  test('patching an unknown account → 404', async () => {
    const res = await consoleCall(ctx.app, 'PATCH', '/accounts/acc_doesnotexist', { name: 'Ghost' });
    assertError(res, 404, 'not_found');
  });
});

describe('the account list', () => {
  test('GET /accounts pages through every account once, oldest first, by cursor', async () => {
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push((await newAccount(ctx.app)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await consoleCall(ctx.app, 'GET', `/accounts?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { accounts: { id: string; limits: unknown }[]; nextCursor: string | null };
      assert.ok(body.accounts.length <= 2);
      for (const account of body.accounts) assert.deepEqual(Object.keys(account.limits as object).length, 10);
      seen.push(...body.accounts.map((a) => a.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 1000);
    assert.equal(new Set(seen).size, seen.length, 'an account listed twice');
    assert.deepEqual([...seen].sort(), seen, 'not in id order');
    for (const id of made) assert.ok(seen.includes(id), `${id} not listed`);
    const rows = await ctx.handle.db.selectFrom('accounts').select('id').execute();
    assert.equal(seen.length, rows.length);
  });

  test('a cursor it did not hand out, or a bad limit → 400 naming the field', async () => {
    assertError(await consoleCall(ctx.app, 'GET', '/accounts?cursor=not-a-cursor'), 400, 'bad_request');
    assertError(await consoleCall(ctx.app, 'GET', '/accounts?limit=0'), 400, 'bad_request');
    assertError(await consoleCall(ctx.app, 'GET', '/accounts?limit=201'), 400, 'bad_request');
    assert.equal((await ctx.app.inject('/console/v1/accounts')).statusCode, 401);
  });
});

describe('API keys', () => {
  test('create → 201 { key: { id, name, scopes, createdAt }, secret }', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
      scopes: ['jobs:read', 'jobs:write', 'jobs:read'],
      name: 'careers site',
    });
    assert.equal(res.statusCode, 201, res.body);
    const { key, secret } = res.json();
    assert.match(key.id, /^key_/);
    assert.equal(key.name, 'careers site');
    assert.deepEqual(key.scopes, ['jobs:read', 'jobs:write'], 'duplicates are dropped');
    assert.equal(key.createdAt, ctx.clock.now().toISOString());
    assert.equal(typeof secret, 'string');
    // The secret works at once.
    assert.equal((await client(ctx.app, secret).get('/v1/jobs')).statusCode, 200);
    const row = await ctx.handle.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirst();
    assert.equal(row?.account_id, account.id);
    assert.equal(row?.name, 'careers site');
  });

  test('create without a name: name is null', async () => {
    const account = await newAccount(ctx.app);
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, { scopes: ['screening'] });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json().key.name, null);
  });

  test('create with an unknown field or a non-array scopes → 400', async () => {
    const account = await newAccount(ctx.app);
    assertError(
      await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, {
        scopes: ['jobs:read'],
        expires: 1,
      }),
      400,
      'bad_request',
    );
    assertError(
      await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/keys`, { scopes: 'jobs:read' }),
      400,
      'bad_request',
    );
  });

  test('keys of an unknown account: create and list → 404', async () => {
    assertError(
      await consoleCall(ctx.app, 'POST', '/accounts/acc_doesnotexist/keys', { scopes: ['jobs:read'] }),
      404,
      'not_found',
    );
    assertError(await consoleCall(ctx.app, 'GET', '/accounts/acc_doesnotexist/keys'), 404, 'not_found');
  });

  test("list → 200 { keys }: the account's keys only, revoked ones with revokedAt", async () => {
    const account = await newAccount(ctx.app);
    const a = await newKey(ctx.app, account.id, ['jobs:read']);
    ctx.clock.advance(1); // ids are time-ordered; the test clock otherwise stands still
    const b = await newKey(ctx.app, account.id, ['jobs:write']);
    const other = await newAccount(ctx.app);
    await newKey(ctx.app, other.id, ['jobs:read']);
    assert.equal(
      (await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${b.id}`)).statusCode,
      204,
    );

    const res = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`);
    assert.equal(res.statusCode, 200);
    const keys = res.json().keys as { id: string; scopes: string[]; revokedAt: string | null }[];
    assert.deepEqual(
      keys.map((k) => k.id),
      [a.id, b.id],
    );
    assert.equal(keys[0]?.revokedAt, null);
    assert.equal(keys[1]?.revokedAt, ctx.clock.now().toISOString());
    assert.deepEqual(keys[1]?.scopes, ['jobs:write']);
    for (const key of keys) {
      for (const field of ['id', 'name', 'scopes', 'createdAt', 'lastUsedAt', 'revokedAt']) {
        assert.ok(field in key, `${field} listed`);
      }
      assert.ok(!('secret' in key));
    }
    assert.ok(!res.body.includes(a.secret) && !res.body.includes(b.secret));
  });

  test('revoke → 204; revoking twice → 204 and the first revokedAt is kept', async () => {
    const account = await newAccount(ctx.app);
    const key = await newKey(ctx.app, account.id, ['jobs:read']);
    const first = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`);
    assert.equal(first.statusCode, 204);
    const revokedAt = (
      await ctx.handle.db
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow()
    ).revoked_at;
    assert.ok(revokedAt instanceof Date);
    ctx.clock.advance(10_000);
    const second = await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${key.id}`);
    assert.equal(second.statusCode, 204);
    const after = await ctx.handle.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    assert.equal(after.revoked_at?.toISOString(), revokedAt.toISOString());
    assert.equal((await client(ctx.app, key.secret).get('/v1/jobs')).statusCode, 401);
  });

  test('revoke an unknown key → 404; another account’s key → 404 and it keeps working', async () => {
    const account = await newAccount(ctx.app);
    assertError(
      await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/key_doesnotexist`),
      404,
      'not_found',
    );
    const other = await newAccount(ctx.app);
    const foreign = await newKey(ctx.app, other.id, ['jobs:read']);
    assertError(
      await consoleCall(ctx.app, 'DELETE', `/accounts/${account.id}/keys/${foreign.id}`),
      404,
      'not_found',
    );
    const row = await ctx.handle.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', foreign.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.revoked_at, null);
    assert.equal((await client(ctx.app, foreign.secret).get('/v1/jobs')).statusCode, 200);
  });
});
