import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { acceptForms, formOf } from '../src/http/pages/form-body.ts';

/** A bare Fastify with the form parser: what a posted form reads as. */
async function server(bodyLimit: number) {
  const app = Fastify({ logger: false });
  acceptForms(app, bodyLimit);
  app.post('/f', async (request) => {
    const form = formOf(request);
    return { a: form.get('a'), all: form.all('a'), has: form.has('b'), missing: form.get('zz') };
  });
  await app.ready();
  return app;
}

const post = (app: Awaited<ReturnType<typeof server>>, payload: string) =>
  app.inject({
    method: 'POST',
    url: '/f',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload,
  });

describe('the one form-body reading (form-body.ts)', () => {
  test('a repeated field: get answers the last value, all every value; an absent field is empty', async () => {
    const app = await server(1024);
    const res = await post(app, 'a=1&a=%3Cb%3E&b=');
    assert.deepEqual(res.json(), { a: '<b>', all: ['1', '<b>'], has: true, missing: '' });
    await app.close();
  });

  test('a body over the limit is refused with 413 before it is read', async () => {
    const app = await server(64);
    const res = await post(app, `a=${'x'.repeat(100)}`);
    assert.equal(res.statusCode, 413);
    await app.close();
  });
});
