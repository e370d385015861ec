import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, useTestApp } from './support/app.ts';
import { assertBadRequest, errorOf } from './support/assert.ts';
import { applicationBody } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

/**
 * Strings the database refuses (a NUL character; an unpaired UTF-16 surrogate, which PostgreSQL's
 * JSON refuses) are refused by the schema with a 400 naming the field, wherever they come from:
 * body, path, query. Before, each was a 500.
 */

const ctx = useTestApp();

/** What the refusal of a hostile string says, besides the field's name. */
const NUL_OR_SURROGATE = /NUL|surrogate/;

const HOSTILE: [string, string][] = [
  ['a NUL character', 'a\u0000b'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', 'x\udc00y'],
  ['a reversed pair', '\udc00\ud800'],
];

describe('bodies', () => {
  for (const [name, value] of HOSTILE) {
    test(`job title with ${name} → 400 naming title`, async () => {
      const { api } = await intakeAccount(ctx.app);
      const res = await api.post('/v1/jobs', { title: value });
      assertBadRequest(res, NUL_OR_SURROGATE, /^title /);
    });

    test(`a nested string with ${name} → 400 naming skills[0].name`, async () => {
      const { api } = await intakeAccount(ctx.app);
      const res = await api.post('/v1/jobs', { title: 'T', skills: [{ name: value, level: 'required' }] });
      assertBadRequest(res, NUL_OR_SURROGATE, /skills\[0\]\.name/);
    });

    test(`an application's name with ${name} → 400 naming name`, async () => {
      const { api } = await intakeAccount(ctx.app);
      const job = await createPublished(api);
      const res = await api.post(
        `/v1/jobs/${job.id}/applications`,
        applicationBody(ctx.clock, 'upl_x', { name: value }),
        { 'idempotency-key': `k-${Math.random()}` },
      );
      assertBadRequest(res, NUL_OR_SURROGATE, /^name /);
    });
  }

  test('a lawfulBasis key with a NUL character → 400 naming lawfulBasis', async () => {
    const { api } = await intakeAccount(ctx.app);
    const job = await createPublished(api);
    const res = await api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, 'upl_x', { lawfulBasis: { attested: true, 'note\u0000': 'x' } }),
      { 'idempotency-key': `k-${Math.random()}` },
    );
    assertBadRequest(res, NUL_OR_SURROGATE, /A property name in lawfulBasis/);
  });

  test('a lawfulBasis value with a lone surrogate → 400', async () => {
    const { api } = await intakeAccount(ctx.app);
    const job = await createPublished(api);
    const res = await api.post(
      `/v1/jobs/${job.id}/applications`,
      applicationBody(ctx.clock, 'upl_x', { lawfulBasis: { attested: true, note: '\ud83d' } }),
      { 'idempotency-key': `k-${Math.random()}` },
    );
    assert.equal(res.statusCode, 400, res.body);
    assert.match(errorOf(res).message, /lawfulBasis/);
  });

  test('a console body (account name) → 400 naming name', async () => {
    const res = await consoleCall(ctx.app, 'POST', '/accounts', { name: 'Co\u0000' });
    assertBadRequest(res, NUL_OR_SURROGATE, /^name /);
  });

  test('well-formed pairs (emoji, CJK extension) and other controls are accepted', async () => {
    const { api } = await intakeAccount(ctx.app);
    const title = 'Chef 👩‍🍳 𠀀 tab\there';
    const res = await api.post('/v1/jobs', { title, description: 'bell \u0007 ok' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().job.title, title);
  });

  test('a raw JSON escape \\u0000 in the body text is refused the same way', async () => {
    const { key } = await intakeAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload: '{"title":"a\\u0000b"}',
    });
    assertBadRequest(res, NUL_OR_SURROGATE, /^title /);
  });
});

describe('path parameters and query strings', () => {
  const paths = [
    ['/v1/jobs/%00', /jobId/],
    ['/v1/jobs/job_%00', /jobId/],
    ['/v1/applications/%00', /applicationId/],
  ] as const;
  for (const [url, field] of paths) {
    test(`GET ${url} → 400 naming the path parameter, never 500`, async () => {
      const { api } = await intakeAccount(ctx.app);
      const res = await api.get(url);
      assertBadRequest(res, NUL_OR_SURROGATE, field);
    });
  }

  test('POST /v1/jobs/%00/close → 400', async () => {
    const { api } = await intakeAccount(ctx.app);
    assertBadRequest(await api.post('/v1/jobs/%00/close'), NUL_OR_SURROGATE, /jobId/);
  });

  test('console GET /console/v1/accounts/%00 → 400', async () => {
    assertBadRequest(await consoleCall(ctx.app, 'GET', '/accounts/%00'), NUL_OR_SURROGATE, /accountId/);
  });

  for (const url of [
    '/apply/%00',
    '/apply/job_%00',
    '/en/jobs/%00/%00',
    '/en/jobs/co/x%00y',
    '/feed/jobs.json?cursor=%00',
  ]) {
    test(`hosted page GET ${url} → 400, never 500`, async () => {
      const res = await ctx.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(errorOf(res).code, 'bad_request');
    });
  }

  test('GET /v1/jobs?updatedSince=%00 → 400 naming updatedSince', async () => {
    const { api } = await intakeAccount(ctx.app);
    assertBadRequest(await api.get('/v1/jobs?updatedSince=%00'), NUL_OR_SURROGATE, /updatedSince/);
  });
});

describe('the served OpenAPI documents say it', () => {
  for (const [name, url, token] of [
    ['public', '/v1/openapi.json', undefined],
    ['console', '/console/v1/openapi.json', CONSOLE_TOKEN],
  ] as const) {
    test(`every string a request carries refuses NUL and lone surrogates (${name} document)`, async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
      assert.equal(res.statusCode, 200);
      const doc = res.json() as {
        paths: Record<string, Record<string, Operation>>;
        components: { schemas: Record<string, unknown> };
      };
      const { checked, unsafe } = unsafeStrings(doc);
      assert.deepEqual(unsafe, []);
      assert.ok(checked >= 25, `request strings checked: ${checked}`);
    });
  }
});

/** Walks every parameter and request body (following references) and tries the hostile strings. */
function unsafeStrings(doc: {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}) {
  const ajv = new Ajv({ strict: false, validateFormats: true });
  addFormats.default(ajv);
  let checked = 0;
  const unsafe: string[] = [];
  const visit = (schema: unknown, where: string, seen: Set<string>) => {
    if (schema === null || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (typeof s.$ref === 'string') {
      const id = s.$ref.split('/').pop()!;
      if (seen.has(id)) return;
      visit(doc.components.schemas[id], `${where}→${id}`, new Set([...seen, id]));
      return;
    }
    if (s.type === 'string' && !Array.isArray(s.enum) && s.const === undefined) {
      checked += 1;
      const validate = ajv.compile({ ...s, description: undefined });
      for (const [, value] of HOSTILE) {
        if (validate(value)) unsafe.push(`${where} accepts ${JSON.stringify(value)}`);
      }
    }
    for (const [key, child] of Object.entries(s)) {
      if (key === 'examples' || key === 'example') continue;
      if (!Array.isArray(child)) visit(child, `${where}.${key}`, seen);
      else for (const [i, c] of child.entries()) visit(c, `${where}.${key}[${i}]`, seen);
    }
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        visit(parameter.schema, `${method} ${path} ${parameter.in} ${parameter.name}`, new Set());
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) visit(body, `${method} ${path} body`, new Set());
    }
  }
  return { checked, unsafe };
}

interface Operation {
  parameters?: { in: string; name: string; schema: unknown }[];
  requestBody?: { content?: Record<string, { schema: unknown }> };
}
