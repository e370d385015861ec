import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { BASE_URL, useTestApp } from './support/app.ts';

/**
 * The served document as a client generator reads it: every body a named component, headers the
 * spec requires marked required, the headers answers carry declared, examples that validate,
 * parameters described, and no status a route cannot answer.
 */

interface Operation {
  operationId: string;
  parameters?: { in: string; name: string; required?: boolean; description?: string }[];
  requestBody?: {
    required?: boolean;
    content: Record<string, { schema: { $ref?: string }; example?: unknown }>;
  };
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> }
  >;
}
interface Document {
  info: { contact?: { url?: string } };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; headers: Record<string, object> };
}

let doc: Document;
let consoleDoc: Document;

const ctx = useTestApp({}, async () => {
  doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  consoleDoc = (await ctx.app.inject({ method: 'GET', url: '/console/v1/openapi.json' })).json();
});

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      where: `${method.toUpperCase()} ${path}`,
      method,
      operation,
    })),
  );

describe('the public document, for generators', () => {
  test('Idempotency-Key is required on applications and candidates, optional elsewhere', () => {
    const key = (where: string) => {
      const found = operations(doc).find((o) => o.where === where);
      assert.ok(found, where);
      return found.operation.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    };
    assert.equal(key('POST /v1/jobs/{jobId}/applications')?.required, true);
    assert.equal(key('POST /v1/candidates')?.required, true);
    assert.equal(key('POST /v1/jobs')?.required, false);
    assert.equal(key('POST /v1/uploads')?.required, false);
  });

  test('every request and response body is a named component schema', () => {
    for (const { where, operation } of operations(doc)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        assert.match(media.schema.$ref ?? '', /^#\/components\/schemas\/\w+Request$/, `${where} request`);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          const ref = media.schema.$ref ?? '';
          assert.match(ref, /^#\/components\/schemas\/\w+$/, `${where} ${status}`);
          assert.ok(doc.components.schemas[ref.split('/').at(-1)!], `${where} ${status}: ${ref}`);
        }
      }
    }
  });

  test("an error body's code is one of that route's codes, as literals", () => {
    const create = doc.paths['/v1/jobs/{jobId}/applications']!.post!;
    const ref = create.responses['409']!.content!['application/json']!.schema.$ref!;
    const body = doc.components.schemas[ref.split('/').at(-1)!] as {
      properties: { error: { oneOf: { $ref: string }[] } };
    };
    const codes = body.properties.error.oneOf.map((member) => {
      const schema = doc.components.schemas[member.$ref.split('/').at(-1)!] as {
        properties: { code: { const?: string; enum?: string[] } };
      };
      return schema.properties.code.const ?? schema.properties.code.enum?.[0];
    });
    assert.deepEqual(codes.sort(), ['conflict', 'job_not_open']);
  });

  test('answers declare X-Request-Id, X-RateLimit-*, Retry-After on 429 and Idempotent-Replayed on replays', () => {
    for (const name of [
      'XRequestId',
      'XRateLimitLimit',
      'XRateLimitRemaining',
      'XRateLimitReset',
      'IdempotentReplayed',
    ]) {
      assert.ok(doc.components.headers[name], name);
    }
    for (const { where, operation } of operations(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        assert.ok(response.headers?.['x-request-id'], `${where} ${status}: x-request-id`);
        if (!where.endsWith('/screening'))
          assert.ok(response.headers?.['x-ratelimit-remaining'], `${where} ${status}`);
        if (status === '429') assert.ok(response.headers?.['retry-after'], `${where} 429: retry-after`);
      }
    }
    const created = doc.paths['/v1/jobs/{jobId}/applications']!.post!.responses['201']!;
    assert.ok(created.headers?.['idempotent-replayed']);
    assert.equal(doc.paths['/v1/jobs']!.get!.responses['200']!.headers?.['idempotent-replayed'], undefined);
  });

  test('every request body has an example its schema accepts; every parameter is described', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    for (const { where, operation } of operations(doc)) {
      for (const parameter of operation.parameters ?? []) {
        assert.ok(parameter.description, `${where}: ${parameter.in} ${parameter.name} has no description`);
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        assert.notEqual(media.example, undefined, `${where}: no example`);
        const validate = ajv.compile({ $ref: `doc${media.schema.$ref}` });
        assert.ok(validate(media.example), `${where}: ${ajv.errorsText(validate.errors)}`);
      }
    }
  });

  test('no 413 or 415 on a bodiless GET; the publish body is optional', () => {
    for (const { where, method, operation } of operations(doc)) {
      if (method !== 'get') continue;
      assert.equal(operation.responses['413'], undefined, where);
      assert.equal(operation.responses['415'], undefined, where);
    }
    assert.equal(doc.paths['/v1/jobs/{jobId}/publish']!.post!.requestBody?.required, false);
    assert.equal(doc.paths['/v1/jobs']!.post!.requestBody?.required, true);
  });

  test('info.contact and the server come from PUBLIC_BASE_URL', () => {
    assert.deepEqual(doc.servers, [{ url: BASE_URL }]);
    assert.equal(doc.info.contact?.url, `${BASE_URL}/v1/reference`);
  });
});

describe('the console document', () => {
  test('lists every /console/v1 route and none of the public ones, behind the console token', () => {
    const paths = Object.keys(consoleDoc.paths);
    assert.ok(paths.length >= 15, `${paths.length} console paths`);
    for (const path of paths) assert.ok(path.startsWith('/console/v1/'), path);
    assert.ok(consoleDoc.paths['/console/v1/accounts/{accountId}/keys']?.post);
    const ids = operations(consoleDoc).map((o) => o.operation.operationId);
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    const schemes = (consoleDoc as unknown as { components: { securitySchemes: object } }).components
      .securitySchemes;
    assert.deepEqual(Object.keys(schemes), ['consoleToken']);
    for (const path of Object.keys(doc.paths)) assert.ok(!path.startsWith('/console/'), path);
  });
});
