// A query integer is plain decimal digits: `1e1`, `01`, ` 1`, `0x10`, `+1`, `1.0` are malformed
// (api.md: a malformed limit is 400), on every route that takes one (issue 25.5).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { screeningAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { managedJob } from './support/jobs.ts';

const ctx = useTestApp();

const MALFORMED = ['1e1', '01', '%201', '1%20', '0x10', '%2B1', '1.0', '1.', '-0', '', '1,2', 'Infinity'];

interface Target {
  name: string;
  /** The path and query before `limit=`. */
  url: string;
  auth: string;
  /** What a valid limit answers with: the list's key. */
  list: string;
}

async function targets(): Promise<Target[]> {
  const s = await screeningAccount(ctx.app);
  const job = await managedJob(ctx.app, s.api, s.account.id);
  const key = `Bearer ${s.key.secret}`;
  const operator = `Bearer ${CONSOLE_TOKEN}`;
  return [
    { name: 'GET /v1/jobs', url: '/v1/jobs?', auth: key, list: 'jobs' },
    { name: 'GET /v1/jobs/{id}/matches', url: `/v1/jobs/${job.id}/matches?`, auth: key, list: 'matches' },
    { name: 'GET /v1/events', url: '/v1/events?', auth: key, list: 'events' },
    {
      name: 'GET /console/v1/…/matches',
      url: `/console/v1/accounts/${s.account.id}/jobs/${job.id}/matches?`,
      auth: operator,
      list: 'matches',
    },
    {
      name: 'GET /console/v1/…/audit',
      url: `/console/v1/accounts/${s.account.id}/audit?`,
      auth: operator,
      list: 'entries',
    },
    { name: 'GET /feed/jobs.json', url: '/feed/jobs.json?', auth: '', list: 'jobs' },
  ];
}

describe('query integers', () => {
  test('every malformed limit is 400 naming limit; a plain one still works', async () => {
    for (const target of await targets()) {
      const call = (limit: string) =>
        ctx.app.inject({
          method: 'GET',
          url: `${target.url}limit=${limit}`,
          headers: target.auth ? { authorization: target.auth } : {},
        });
      for (const limit of MALFORMED) {
        const res = await call(limit);
        assert.equal(res.statusCode, 400, `${target.name} limit=${limit}: ${res.body}`);
        const error = errorOf(res);
        assert.equal(error.code, 'bad_request', target.name);
        assert.equal(error.field, 'limit', `${target.name} limit=${limit}`);
        assert.match(error.message, /^limit /, target.name);
        assert.ok(error.requestId, target.name);
      }
      for (const limit of ['1', '10']) {
        const res = await call(limit);
        assert.equal(res.statusCode, 200, `${target.name} limit=${limit}: ${res.body}`);
        assert.ok(Array.isArray(res.json()[target.list]), `${target.name}: ${res.body}`);
        assert.ok(res.json()[target.list].length <= Number(limit), target.name);
      }
      // Out of range stays the range's 400, and 0 is a plain number (out of range too).
      for (const limit of ['0', '101000']) assert.equal((await call(limit)).statusCode, 400, target.name);
    }
  });

  test('the v1 routes with an integer query parameter are the ones tried above', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string; schema?: { type?: string } }[] }>
      >;
    };
    const found: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods))
        for (const p of operation.parameters ?? [])
          if (p.in === 'query' && (p.schema?.type === 'integer' || p.schema?.type === 'number'))
            found.push(`${method.toUpperCase()} ${path} ${p.name}`);
    assert.deepEqual(found.sort(), [
      'GET /v1/events limit',
      'GET /v1/jobs limit',
      'GET /v1/jobs/{jobId}/matches limit',
    ]);
  });
});
