import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../src/plugins/json-body.ts';
import { intakeAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, useTestApp } from './support/app.ts';
import { assertBadRequest, errorOf } from './support/assert.ts';
import { createPublished } from './support/jobs.ts';

/**
 * JSON bodies are bounded in nesting before they are parsed, so no walk over the value (the
 * validator, the Idempotency-Key's canonical hash) can overflow the stack. Before, a 100k-deep body
 * with an Idempotency-Key on a route without a body schema overflowed the hash: 500.
 */

const ctx = useTestApp();

const nested = (depth: number, open = '[', close = ']', inner = '') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** The refusal of a body nested too deep, before it is parsed. */
const TOO_DEEP = new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`);

describe('deep bodies', () => {
  test('a 100k-deep array with an Idempotency-Key on close → 400, the key stays free', async () => {
    const { api, key } = await intakeAccount(ctx.app);
    const job = await createPublished(api);
    const started = performance.now();
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/v1/jobs/${job.id}/close`,
      headers: {
        authorization: `Bearer ${key.secret}`,
        'content-type': 'application/json',
        'idempotency-key': 'deep-1',
      },
      payload: nested(100_000),
    });
    assertBadRequest(res, TOO_DEEP);
    assert.ok(performance.now() - started < 1_000);
    // Nothing was claimed or written: the same key closes the job with a sane body.
    const closed = await api.post(`/v1/jobs/${job.id}/close`, {}, { 'idempotency-key': 'deep-1' });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().job.status, 'closed');
  });

  test('a 100k-deep object inside a job body → 400', async () => {
    const { key } = await intakeAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: {
        authorization: `Bearer ${key.secret}`,
        'content-type': 'application/json',
        'idempotency-key': 'deep-2',
      },
      payload: `{"title":"T","salary":${nested(100_000, '{"a":', '}', '1')}}`,
    });
    assertBadRequest(res, TOO_DEEP);
  });

  test('deep console bodies are refused the same way', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/console/v1/accounts',
      headers: { authorization: `Bearer ${CONSOLE_TOKEN}`, 'content-type': 'application/json' },
      payload: nested(50_000),
    });
    assertBadRequest(res, TOO_DEEP);
  });

  test(`${MAX_JSON_DEPTH} levels pass to the schema; ${MAX_JSON_DEPTH + 1} do not`, async () => {
    const { key } = await intakeAccount(ctx.app);
    const send = (payload: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/jobs',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        payload,
      });
    // The body object is level 1; 31 more arrays make 32.
    const atLimit = await send(`{"title":"T","benefits":${nested(MAX_JSON_DEPTH - 1)}}`);
    assert.equal(atLimit.statusCode, 400, atLimit.body);
    assert.match(errorOf(atLimit).message, /benefits/, 'judged by the schema, not the depth bound');
    assertBadRequest(await send(`{"title":"T","benefits":${nested(MAX_JSON_DEPTH)}}`), TOO_DEEP);
  });

  test('brackets inside strings do not count; escaped quotes do not end a string', async () => {
    const { api } = await intakeAccount(ctx.app);
    const description = `${'['.repeat(5_000)} \\" ${'{'.repeat(5_000)} "`;
    const res = await api.post('/v1/jobs', { title: 'Brackets [[[{{{', description });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().job.title, 'Brackets [[[{{{');
  });

  test('prototype poisoning is still refused', async () => {
    const { key } = await intakeAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload: '{"title":"T","__proto__":{"admin":true}}',
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(errorOf(res).code, 'bad_request');
  });
});

describe('nestsDeeperThan', () => {
  test('counts arrays and objects, skips strings and escapes', () => {
    assert.equal(nestsDeeperThan('[[[]]]', 3), false);
    assert.equal(nestsDeeperThan('[[[[]]]]', 3), true);
    assert.equal(nestsDeeperThan('{"a":{"b":{"c":{}}}}', 3), true);
    assert.equal(nestsDeeperThan('["[[[[[[", "\\"[[[[[["]', 1), false);
    assert.equal(nestsDeeperThan('[[],[],[],[]]', 2), false);
  });

  test('a 1 MiB body is scanned in well under 50 ms', () => {
    const text = JSON.stringify({ description: 'x['.repeat(500_000) });
    const started = performance.now();
    for (let i = 0; i < 5; i++) nestsDeeperThan(text, MAX_JSON_DEPTH);
    assert.ok((performance.now() - started) / 5 < 50);
  });
});
