import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { consoleCall, jobsAccount } from './support/accounts.ts';
import { listen, startApp, useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { jobCount } from './support/jobs.ts';
import { captureLog } from './support/log.ts';

const ctx = useTestApp();

describe('framework errors use the error body', () => {
  test('malformed JSON → 400 bad_request, nothing written', async () => {
    const { account, key } = await jobsAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload: '{"title": "Engineer",',
    });
    const error = assertError(res, 400, 'bad_request');
    assert.match(error.message, /JSON/);
    assert.equal(await jobCount(ctx.handle, account.id), 0);
  });

  test('an empty body with Content-Type JSON → 400 bad_request', async () => {
    const { key } = await jobsAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload: '',
    });
    assertError(res, 400, 'bad_request');
  });

  for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
    test(`Content-Type ${type} → 415 unsupported_media_type`, async () => {
      const { account, key } = await jobsAccount(ctx.app);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/jobs',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': type },
        payload: type === 'application/x-www-form-urlencoded' ? 'title=Engineer' : 'title: Engineer',
      });
      const error = assertError(res, 415, 'unsupported_media_type');
      assert.match(error.message, /application\/json/);
      assert.equal(await jobCount(ctx.handle, account.id), 0);
    });
  }

  test('a body larger than 1 MiB → 413 payload_too_large', async () => {
    const { account, key } = await jobsAccount(ctx.app);
    const payload = JSON.stringify({ title: 'Big', description: 'x'.repeat(1_048_576) });
    assert.ok(Buffer.byteLength(payload) > 1_048_576);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload,
    });
    const error = assertError(res, 413, 'payload_too_large');
    assert.match(error.message, /1 MiB/);
    assert.equal(await jobCount(ctx.handle, account.id), 0);
  });

  test('a body just under 1 MiB is read (and judged by the schema, not the size limit)', async () => {
    const { key } = await jobsAccount(ctx.app);
    const payload = JSON.stringify({ title: 'Big', description: 'x'.repeat(1_000_000) });
    assert.ok(Buffer.byteLength(payload) < 1_048_576);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload,
    });
    const error = assertError(res, 400, 'bad_request');
    assert.match(error.message, /description/);
  });

  for (const url of ['/v1/nothing-here', '/v2/jobs', '/console/v1/nothing', '/']) {
    test(`unknown route ${url} → 404 not_found`, async () => {
      const res = await ctx.app.inject({ method: 'GET', url });
      assertError(res, 404, 'not_found');
    });
  }

  test('a known path with an unknown method → 404 not_found', async () => {
    const res = await ctx.app.inject({ method: 'DELETE', url: '/v1/jobs' });
    assertError(res, 404, 'not_found');
  });
});

describe('validation errors name the field', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown body field', { title: 'Engineer', favouriteColour: 'blue' }, /favouriteColour/],
    ['a forbidden field status', { title: 'Engineer', status: 'published' }, /status/],
    ['a forbidden field id', { title: 'Engineer', id: 'job_123' }, /\bid\b/],
    ['a forbidden field applyLink', { title: 'Engineer', applyLink: 'https://x.test' }, /applyLink/],
    ['a wrong type (title a number)', { title: 5 }, /title/],
    ['a number sent as a string is not coerced', { title: 'Engineer', maxMatches: '5' }, /maxMatches/],
    ['a missing required field', { description: 'No title' }, /title/],
    ['a wrong enum value', { title: 'Engineer', category: 'astronaut' }, /category/],
    [
      'a nested wrong field',
      { title: 'Engineer', skills: [{ name: 'TS', level: 'guru' }] },
      /skills\[0\]\.level/,
    ],
  ];
  for (const [name, body, field] of cases) {
    test(`${name} → 400 bad_request naming it; nothing written`, async () => {
      const { account, api } = await jobsAccount(ctx.app);
      const res = await api.post('/v1/jobs', body);
      const error = assertError(res, 400, 'bad_request');
      assert.match(error.message, field);
      assert.equal(await jobCount(ctx.handle, account.id), 0);
    });
  }

  test('a JSON body that is not an object → 400', async () => {
    const { api } = await jobsAccount(ctx.app);
    const res = await api.post('/v1/jobs', ['title']);
    assertError(res, 400, 'bad_request');
  });

  test('an invalid optional body is still refused (publish expiryDays 7)', async () => {
    const { api } = await jobsAccount(ctx.app);
    const created = await api.post('/v1/jobs', { title: 'T', description: 'D', category: 'data' });
    const id = created.json().job.id;
    const res = await api.post(`/v1/jobs/${id}/publish`, { expiryDays: 7 });
    const error = assertError(res, 400, 'bad_request');
    assert.match(error.message, /expiryDays/);
    const row = await ctx.handle.db
      .selectFrom('jobs')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'draft');
  });

  test('console validation errors use the same body', async () => {
    const res = await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Co', plan: 'gold' });
    const error = assertError(res, 400, 'bad_request');
    assert.match(error.message, /plan/);
  });
});

describe('malformed query parameters', () => {
  const cases: [string, RegExp][] = [
    ['limit=abc', /limit/],
    ['limit=0', /limit/],
    ['limit=101', /limit/],
    ['limit=1.5', /limit/],
    ['limit=-3', /limit/],
    ['status=draft', /status/],
    ['status=published,bogus', /status/],
    ['updatedSince=yesterday', /updatedSince/],
    ['cursor=!!not-a-cursor!!', /cursor/],
  ];
  for (const [query, field] of cases) {
    test(`GET /v1/jobs?${query} → 400 naming the parameter`, async () => {
      const { api } = await jobsAccount(ctx.app);
      const res = await api.get(`/v1/jobs?${query}`);
      const error = assertError(res, 400, 'bad_request');
      assert.match(error.message, field);
    });
  }

  test('the boundaries limit=1 and limit=100 are accepted', async () => {
    const { api } = await jobsAccount(ctx.app);
    for (const limit of [1, 100]) {
      const res = await api.get(`/v1/jobs?limit=${limit}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { jobs: [], nextCursor: null });
    }
  });
});

describe('request ids', () => {
  test('unique per request, and equal to the x-request-id header', async () => {
    const { api } = await jobsAccount(ctx.app);
    const ids = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const res = await api.get('/v1/jobs?limit=abc');
      const error = assertError(res, 400, 'bad_request');
      ids.add(error.requestId);
    }
    const unauthorized = await ctx.app.inject({ method: 'GET', url: '/v1/jobs' });
    ids.add(assertError(unauthorized, 401, 'unauthorized').requestId);
    const missing = await ctx.app.inject({ method: 'GET', url: '/nope' });
    ids.add(assertError(missing, 404, 'not_found').requestId);
    assert.equal(ids.size, 17);
  });

  test('successful answers carry an x-request-id too', async () => {
    const { api } = await jobsAccount(ctx.app);
    const a = await api.get('/v1/jobs');
    const b = await api.get('/v1/jobs');
    assert.equal(a.statusCode, 200);
    assert.match(String(a.headers['x-request-id']), /^req_/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });

  test('a request id sent by the client is not trusted as ours', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'evil' } });
    const error = assertError(res, 404, 'not_found');
    assert.notEqual(error.requestId, 'evil');
  });
});

/** Sends raw bytes over a socket and reads until the server closes it (or the timeout). */
function rawRequest(port: number, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; got so far: ${Buffer.concat(chunks).toString('utf8')}`));
    }, 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      // The server may reset the connection after answering; the answer read so far counts.
      if (chunks.length > 0) return;
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(data);
  });
}

function parseRaw(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('over a real socket', () => {
  test('a header larger than 16 KiB → 431 with the error body, and the server keeps serving', async () => {
    const server = await startApp();
    const base = await listen(server.app);
    const port = Number(new URL(base).port);

    const raw = await rawRequest(
      port,
      `GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const res = parseRaw(raw);
    assert.equal(res.status, 431, raw.slice(0, 300));
    assert.match(res.headers['content-type'] ?? '', /^application\/json/);
    const body = JSON.parse(res.body);
    assert.equal(body.error.code, 'header_too_large');
    assert.match(body.error.message, /16384/);
    assert.match(body.error.requestId, /^req_/);
    assert.equal(res.headers['x-request-id'], body.error.requestId);

    // The process did not crash and still answers, on a fresh connection.
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const unauthorized = await fetch(`${base}/v1/jobs`);
    assert.equal(unauthorized.status, 401);
    assert.equal(((await unauthorized.json()) as { error: { code: string } }).error.code, 'unauthorized');
  });

  test('a long header under the limit is served normally', async () => {
    const server = await startApp();
    const base = await listen(server.app);
    const res = await fetch(`${base}/healthz`, { headers: { 'x-padding': 'a'.repeat(8_000) } });
    assert.equal(res.status, 200);
  });

  test('garbage that is not HTTP → 400 with the error body, no crash', async () => {
    const server = await startApp();
    const base = await listen(server.app);
    const raw = await rawRequest(Number(new URL(base).port), 'THIS IS NOT HTTP\r\n\r\n');
    const res = parseRaw(raw);
    assert.equal(res.status, 400, raw);
    assert.equal(JSON.parse(res.body).error.code, 'bad_request');
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  test('malformed JSON over a socket → 400 error body', async () => {
    const server = await startApp();
    const base = await listen(server.app);
    const { key } = await jobsAccount(server.app);
    const res = await fetch(`${base}/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; requestId: string } };
    assert.equal(body.error.code, 'bad_request');
    assert.equal(res.headers.get('x-request-id'), body.error.requestId);
  });
});

describe('unexpected failures', () => {
  test('500 internal with a generic message; the detail and the requestId go to the log', async () => {
    const { stream, lines } = captureLog();
    const detail = 'connection to shard 7 exploded: s3cr3t-internal-detail';
    const failing = await startApp({
      logger: { level: 'info', stream },
      wrapServices: (services) => ({
        ...services,
        jobs: {
          ...services.jobs,
          list: async () => {
            throw new Error(detail);
          },
        },
      }),
    });
    const { key } = await jobsAccount(failing.app);
    const res = await failing.app.inject({
      method: 'GET',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}` },
    });
    const error = assertError(res, 500, 'internal');
    assert.ok(!res.body.includes('s3cr3t'), 'the detail must not reach the caller');
    assert.ok(!res.body.includes('shard'), 'the detail must not reach the caller');
    assert.match(error.message, /requestId/);
    assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'requestId']);

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = entries.filter((entry) => entry.requestId === error.requestId);
    assert.ok(mine.length >= 2, `log lines of the request: ${JSON.stringify(mine)}`);
    const failure = mine.find((entry) => JSON.stringify(entry).includes('s3cr3t-internal-detail'));
    assert.ok(failure, `the detail is logged with the requestId: ${JSON.stringify(mine)}`);
    assert.ok(Number(failure.level) >= 50, 'logged as an error');
    const completed = mine.find((entry) => (entry.res as { statusCode?: number } | undefined)?.statusCode);
    assert.ok(completed, 'the request-completed line carries the requestId');
    assert.equal((completed.res as { statusCode: number }).statusCode, 500);
    // The key itself never reaches the log.
    assert.ok(!lines.join('\n').includes(key.secret));

    // The service keeps serving.
    const health = await failing.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
  });

  test('a database that went away is a 500 internal, not a crash', async () => {
    const { openDatabase } = await import('../src/db/connect.ts');
    const { migrate } = await import('../src/db/migrate.ts');
    const { testConfig } = await import('./support/app.ts');
    const handle = await openDatabase({ databaseUrl: testConfig.databaseUrl, dataDir: null });
    await migrate(handle);
    const dedicated = await startApp({ handle });
    const { key } = await jobsAccount(dedicated.app);
    await handle.close();
    const res = await dedicated.app.inject({
      method: 'GET',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}` },
    });
    assertError(res, 500, 'internal');
  });
});
