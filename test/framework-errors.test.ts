import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { MAX_PARAM_LENGTH } from '../src/plugins/error-handler.ts';
import { intakeAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, listen, startApp, useTestApp } from './support/app.ts';

/**
 * What Fastify refuses itself (the router's bad URLs and long parameters, the content-type
 * parsers) is answered in the spec's error body with a catalogue code, the request id in the body
 * and the header. Before, the router's refusals answered Fastify's own body (400 and 414).
 */

let secret: string;

const ctx = useTestApp({}, async () => {
  secret = (await intakeAccount(ctx.app)).key.secret;
});

function assertSpecError(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code: string,
) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = JSON.parse(res.body) as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.match(String(body.error.requestId), /^req_[0-9a-z]+$/);
  assert.equal(res.headers['x-request-id'], body.error.requestId);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  for (const key of ['statusCode', 'error']) assert.ok(!(key in body.error), `no Fastify field ${key}`);
  return body.error as { code: string; message: string; requestId: string };
}

const get = (url: string, authorization = `Bearer ${secret}`) =>
  ctx.app.inject({ method: 'GET', url, headers: { authorization } });

describe('the router', () => {
  const malformed = [
    '/v1/jobs/%zz',
    '/v1/jobs/%E0%A4%A',
    '/v1/jobs/%ED%A0%80', // an encoded surrogate is not UTF-8
    '/v1/jobs/%C0%AF', // an overlong encoding
    '/v1/applications/%FF',
    '/v1/jobs/job_1/publish%',
  ];
  for (const url of malformed) {
    test(`GET ${url} → 400 bad_request in the spec's body`, async () => {
      const error = assertSpecError(await get(url), 400, 'bad_request');
      assert.match(error.message, /percent-escape/);
      assert.ok(!error.message.includes(url), 'the path is not echoed');
    });
  }

  test('a malformed path on a console route, and without credentials, is the same 400', async () => {
    assertSpecError(await get('/console/v1/accounts/%zz', `Bearer ${CONSOLE_TOKEN}`), 400, 'bad_request');
    assertSpecError(await ctx.app.inject({ method: 'GET', url: '/v1/jobs/%zz' }), 400, 'bad_request');
    assertSpecError(
      await ctx.app.inject({ method: 'POST', url: '/v1/jobs/%zz/close', payload: {} }),
      400,
      'bad_request',
    );
  });

  test(`a path parameter over ${MAX_PARAM_LENGTH} characters → 400 (not Fastify's 414)`, async () => {
    for (const url of [
      `/v1/jobs/${'a'.repeat(MAX_PARAM_LENGTH + 1)}`,
      `/v1/jobs/${'a'.repeat(5_000)}/close`,
      `/v1/applications/${'%41'.repeat(300)}`,
    ]) {
      const error = assertSpecError(await get(url), 400, 'bad_request');
      assert.match(error.message, new RegExp(`longer than ${MAX_PARAM_LENGTH} characters`));
    }
  });

  test('an id of 65 to 200 characters is refused by the schema, naming the parameter', async () => {
    const error = assertSpecError(await get(`/v1/jobs/${'a'.repeat(MAX_PARAM_LENGTH)}`), 400, 'bad_request');
    assert.match(error.message, /jobId/);
  });

  test('a query parameter name is echoed at most 100 characters long', async () => {
    const error = assertSpecError(await get(`/v1/jobs?${'q'.repeat(10_000)}=1`), 400, 'bad_request');
    assert.ok(error.message.length < 300, error.message);
  });
});

describe('the content-type parsers', () => {
  const post = (headers: Record<string, string>, payload: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${secret}`, ...headers },
      payload,
    });

  test('a compressed body → 415, never read as text', async () => {
    const res = await post(
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      '{"title":"T"}',
    );
    const error = assertSpecError(res, 415, 'unsupported_media_type');
    assert.match(error.message, /Content-Encoding/);
  });

  test('Content-Encoding identity is read as usual', async () => {
    const res = await post(
      { 'content-type': 'application/json', 'content-encoding': 'identity' },
      '{"title":"T"}',
    );
    assert.equal(res.statusCode, 201, res.body);
  });

  for (const type of ['multipart/form-data; boundary=x', 'application/jsonx', 'application/octet-stream']) {
    test(`Content-Type ${type} → 415`, async () => {
      assertSpecError(await post({ 'content-type': type }, '--x--'), 415, 'unsupported_media_type');
    });
  }

  for (const [name, payload] of [
    ['a truncated body', '{"title":'],
    ['a bare word', 'undefined'],
    ['a lone surrogate escape cut short', '{"title":"\\ud8"}'],
    ['a constructor prototype', '{"title":"T","constructor":{"prototype":{"x":1}}}'],
  ] as const) {
    test(`${name} → 400`, async () => {
      assertSpecError(await post({ 'content-type': 'application/json' }, payload), 400, 'bad_request');
    });
  }
});

/** Sends raw bytes and reads until the server closes the socket. */
function raw(port: number, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer: ${Buffer.concat(chunks).toString('utf8')}`));
    }, 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(data);
    socket.end();
  });
}

function parse(text: string) {
  const at = text.indexOf('\r\n\r\n');
  const [status = '', ...lines] = text.slice(0, at).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(at + 4);
  if (headers['transfer-encoding'] === 'chunked')
    body = body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '');
  return { statusCode: Number(status.split(' ')[1]), headers, body };
}

describe('over a real socket', () => {
  test('malformed percent-encoding, a long parameter and a short body all answer the spec body', async () => {
    const server = await startApp();
    try {
      const port = Number(new URL(await listen(server.app)).port);
      const auth = `Authorization: Bearer ${secret}\r\n`;
      const badUrl = parse(
        await raw(port, `GET /v1/jobs/%zz HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`),
      );
      assertSpecError(badUrl, 400, 'bad_request');
      const long = parse(
        await raw(
          port,
          `GET /v1/jobs/${'b'.repeat(1_000)} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
        ),
      );
      assertSpecError(long, 400, 'bad_request');
      // The connection ends before the body Content-Length announced: no answer is owed, no crash.
      await raw(
        port,
        `POST /v1/jobs HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`,
      );
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
    } finally {
      await server.close();
    }
  });
});
