import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { errorSchemaId, errorSchemas } from '../src/contract/error-docs.ts';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from '../src/contract/errors.ts';
import type { AppError } from '../src/domain/errors.ts';
import * as errors from '../src/domain/errors.ts';
import { ParserPoolUnavailable } from '../src/pdf/cv-check.ts';
import { renderError } from '../src/plugins/error-handler.ts';
import {
  client,
  intakeAccount,
  jobsAccount,
  newAccount,
  newKey,
  screeningAccount,
  unique,
} from './support/accounts.ts';
import { startApp, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applicationBody, applyTo, pdfFixture, uploadPdf } from './support/intake.ts';
import { createDraft, createPublished, managedJob } from './support/jobs.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/**
 * The error catalogue is the one source of the codes, their extras and their documentation: every
 * named constructor renders a body its code's schema accepts, every /v1 operation documents the
 * codes it lists (one response per status, a schema and an example per code), and real refusals of
 * the running app match what the document says of that route and status.
 */

let doc: OpenApiDocument;

interface Operation {
  'x-error-codes'?: ErrorCode[];
  responses: Record<
    string,
    { content?: { 'application/json': { schema: object; examples?: Record<string, unknown> } } }
  >;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

const ctx = useTestApp({}, async () => {
  doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
});

function ajv(): Ajv {
  // The document's schemas carry OpenAPI keywords (discriminator, example) that Ajv need not know.
  const instance = new Ajv({ strict: false, allErrors: true });
  addFormats.default(instance);
  return instance;
}

const bySchemaOfCode = (() => {
  const instance = ajv();
  const compiled = new Map<ErrorCode, ValidateFunction>();
  for (const schema of errorSchemas()) {
    const id = (schema as { $id: string }).$id;
    const code = ERROR_CODES.find((c) => errorSchemaId(c) === id)!;
    const { $id: _id, ...rest } = schema as { $id: string };
    compiled.set(code, instance.compile(rest));
  }
  return (code: ErrorCode) => compiled.get(code)!;
})();

function assertBodyOfCode(code: ErrorCode, body: { error: Record<string, unknown> }) {
  const validate = bySchemaOfCode(code);
  assert.ok(validate(body.error), `${code}: ${JSON.stringify(body)} ${JSON.stringify(validate.errors)}`);
}

describe('the catalogue', () => {
  test('each code has one status, a description, and an example its own schema accepts', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      assert.ok(entry.status >= 400 && entry.status < 600, code);
      assert.ok(entry.when.length > 10, code);
      const { message, ...extra } = entry.example as { message: string };
      assertBodyOfCode(code, { error: { code, message, requestId: 'req_x', ...extra } });
    }
  });

  test('a body with an extra the catalogue does not name, or without a required one, is refused', () => {
    const validate = bySchemaOfCode('job_not_open');
    assert.equal(validate({ code: 'job_not_open', message: 'm', requestId: 'r' }), false);
    assert.equal(validate({ code: 'job_not_open', message: 'm', requestId: 'r', status: 'open' }), false);
    assert.equal(
      validate({ code: 'job_not_open', message: 'm', requestId: 'r', status: 'closed', extra: 1 }),
      false,
    );
    assert.equal(validate({ code: 'job_not_open', message: 'm', requestId: 'r', status: 'closed' }), true);
  });

  test('every named constructor renders a body its code documents, Retry-After where the code sends it', () => {
    const day = { end: new Date('2026-03-11T00:00:00Z'), secondsLeft: 3600 };
    const built: AppError[] = [
      errors.badRequest('x is wrong.', { field: 'x' }),
      errors.badRequest('The body is wrong.'),
      errors.uploadInvalid('it has already been used'),
      errors.unauthorized('No key.'),
      errors.overageCapReached({ priceCents: 1, currency: 'USD', capCents: 2, spendCents: 2 }),
      errors.forbidden('The form expired.'),
      errors.missingScope('screening'),
      errors.notFound('Job'),
      errors.noRoute('GET', '/v1/nothing'),
      errors.conflict('Only a published job can be closed; this one is closed.', { status: 'closed' }),
      errors.jobNotOpen('expired'),
      errors.managedAdLocked(['title', 'category']),
      errors.companyAddressRequired(),
      errors.adNotManaged(),
      errors.priceUnavailable(),
      errors.dpaRequired(),
      errors.noSlotAvailable(5),
      errors.payloadTooLarge(),
      errors.unsupportedMediaType('JSON only.'),
      errors.notPublishable(['category']),
      errors.consentInvalid('ip', 'must not be empty'),
      errors.attestationRequired(),
      errors.answersInvalid([{ questionId: 'years', problem: 'out_of_range' }]),
      errors.cvRejected('too_many_pages', { detail: 'd', fix: 'f' }),
      errors.rateLimited('Slow down.', 12),
      errors.dailyCapReached('applications', 500, day),
      errors.unsolicitedContactLimit(2, 2, 60),
      errors.headerTooLarge(16_384),
      errors.requestTimeout('body', 15_000),
      errors.matchingDisabled(),
      errors.internal(),
      errors.unavailable('Down.'),
      errors.unavailable('Down for a while.', 30),
      errors.errorForStatus(404, 'Not here.'),
      errors.errorForStatus(418, 'A teapot.'),
    ];
    const covered = new Set<ErrorCode>();
    for (const error of built) {
      const rendered = renderError(error, 'req_test');
      assert.equal(rendered.statusCode, ERROR_CATALOGUE[error.code].status);
      assertBodyOfCode(error.code, JSON.parse(rendered.body));
      const documented = ERROR_CATALOGUE[error.code].retryAfter;
      if (documented === 'always')
        assert.ok(error.retryAfterSeconds !== undefined, `${error.code}: Retry-After`);
      if (documented === undefined)
        assert.equal(error.retryAfterSeconds, undefined, `${error.code}: Retry-After`);
      covered.add(error.code);
    }
    assert.deepEqual(
      ERROR_CODES.filter((code) => !covered.has(code)),
      [],
      'a code of the catalogue has no named constructor',
    );
    assert.equal(errors.errorForStatus(418, 'A teapot.').code, 'bad_request');
  });
});

describe('the OpenAPI document', () => {
  test('every /v1 operation lists its codes and documents each: one response per status, a schema and an example per code', () => {
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        const codes = operation['x-error-codes'];
        assert.ok(Array.isArray(codes) && codes.length > 0, `${where} lists no error codes`);
        operations += 1;
        const statuses = new Set(codes.map((code) => String(ERROR_CATALOGUE[code].status)));
        const documented = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
        assert.deepEqual(documented.sort(), [...statuses].sort(), `${where}: error statuses`);
        for (const code of codes) {
          const status = String(ERROR_CATALOGUE[code].status);
          const media = operation.responses[status]?.content?.['application/json'];
          assert.ok(media, `${where} ${status}`);
          // The body is a named component (`NotFoundErrorBody`, `CreateApplication409ErrorBody`).
          const body = named(media.schema);
          assert.ok(JSON.stringify(body).includes(`/${errorSchemaId(code)}"`), `${where} ${code}`);
          assert.ok(media.examples?.[code], `${where}: no example of ${code}`);
          assert.ok(doc.components.schemas[errorSchemaId(code)], `${where}: ${code} has no component`);
        }
      }
    }
    assert.ok(operations >= 12, `only ${operations} operations`);
  });

  test('the shared codes and rate_limited are on every operation (the per-address limit covers screening)', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const codes = operation['x-error-codes'] ?? [];
        for (const shared of ['bad_request', 'unauthorized', 'forbidden', 'internal'] as const) {
          assert.ok(codes.includes(shared), `${method} ${path} lacks ${shared}`);
        }
        assert.ok(codes.includes('rate_limited'), `${method} ${path}`);
      }
    }
  });
});

/** A response body's schema: the named component it refers to. */
function named(schema: object): object {
  const ref = (schema as { $ref?: string }).$ref;
  assert.ok(ref, `an inline body: ${JSON.stringify(schema).slice(0, 80)}`);
  const target = doc.components.schemas[ref.replace('#/components/schemas/', '')];
  assert.ok(target, ref);
  return target;
}

/** The operation of a real request: its path template and method in the document. */
function operationFor(method: string, url: string): { where: string; operation: Operation } {
  const path = url.split('?')[0]!;
  for (const [template, methods] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    const operation = methods[method.toLowerCase()];
    if (pattern.test(path) && operation) return { where: `${method} ${template}`, operation };
  }
  throw new Error(`${method} ${path} is not in the document`);
}

const validators = new Map<string, ValidateFunction>();

/** The refusal's status and body are what the document says this route answers. */
function assertDocumented(method: string, url: string, res: LightMyRequestResponse, code: ErrorCode) {
  const { where, operation } = operationFor(method, url);
  assert.equal(errorOf(res).code, code, res.body);
  assert.ok(operation['x-error-codes']?.includes(code), `${where} does not list ${code}`);
  const media = operation.responses[String(res.statusCode)]?.content?.['application/json'];
  assert.ok(media, `${where} documents no ${res.statusCode}`);
  const key = `${where} ${res.statusCode}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv().compile({ ...media.schema, components: doc.components });
    validators.set(key, validate);
  }
  assert.ok(validate(res.json()), `${key}: ${res.body} ${JSON.stringify(validate.errors)}`);
  if (ERROR_CATALOGUE[code].retryAfter === 'always')
    assert.match(String(res.headers['retry-after']), /^\d+$/);
  if (res.headers['retry-after'] !== undefined) {
    assert.ok(
      ERROR_CATALOGUE[code].retryAfter,
      `${where}: Retry-After on ${code}, which does not document it`,
    );
  }
}

describe('real refusals match the document', () => {
  test('jobs: 400 with field, 401, 403 naming the scope, 404, 409 conflict and managed_ad_locked, 415, 422', async () => {
    const { account, key, api } = await jobsAccount(ctx.app);
    const calls: [string, string, LightMyRequestResponse, ErrorCode][] = [];
    const call = async (
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      code: ErrorCode,
      body?: Record<string, unknown>,
      secret?: string,
    ) => {
      const who = secret ? client(ctx.app, secret) : api;
      const res =
        method === 'GET'
          ? await who.get(url)
          : method === 'POST'
            ? await who.post(url, body)
            : await who.patch(url, body);
      calls.push([method, url, res, code]);
      return res;
    };
    await call('GET', '/v1/jobs?limit=1000', 'bad_request');
    await call('POST', '/v1/jobs', 'bad_request', { title: 'x', salary: { min: 9, max: 1 } });
    await call('GET', '/v1/jobs/job_unknown', 'not_found');
    const draft = await createDraft(api, { description: '' });
    await call('POST', `/v1/jobs/${draft.id}/close`, 'conflict');
    await call('POST', `/v1/jobs/${draft.id}/publish`, 'not_publishable');
    const managed = await managedJob(ctx.app, api, account.id);
    await call('PATCH', `/v1/jobs/${managed.id}`, 'managed_ad_locked', { title: 'Renamed' });
    const readOnly = await newKey(ctx.app, account.id, ['jobs:read']);
    await call('POST', '/v1/jobs', 'forbidden', { title: 'x' }, readOnly.secret);
    const noAddress = await jobsAccount(ctx.app, { companyAddress: null });
    const unplaced = await createDraft(noAddress.api);
    calls.push([
      'POST',
      `/v1/jobs/${unplaced.id}/publish`,
      await noAddress.api.post(`/v1/jobs/${unplaced.id}/publish`),
      'company_address_required',
    ]);
    calls.push(['GET', '/v1/jobs', await ctx.app.inject({ method: 'GET', url: '/v1/jobs' }), 'unauthorized']);
    calls.push([
      'POST',
      '/v1/jobs',
      await ctx.app.inject({
        method: 'POST',
        url: '/v1/jobs',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'text/plain' },
        payload: 'title=x',
      }),
      'unsupported_media_type',
    ]);
    for (const [method, url, res, code] of calls) assertDocumented(method, url, res, code);
    assert.equal(errorOf(calls.find(([, , , c]) => c === 'forbidden')![2]).missingScope, 'jobs:write');
  });

  test('applications: 409 job_not_open with the status, 422 consent_invalid naming the field, cv_rejected, 429 with Retry-After', async () => {
    const { api } = await intakeAccount(ctx.app, { limits: { dailyApplications: 1 } });
    const closed = await createPublished(api);
    await api.post(`/v1/jobs/${closed.id}/close`);
    const open = await createPublished(api);
    const headers = () => ({ 'idempotency-key': unique('idem') });
    const upload = await uploadPdf(ctx, api, pdfFixture('cv-2-pages.pdf'));
    const apply = (jobId: string, body: Record<string, unknown>) =>
      api.post(`/v1/jobs/${jobId}/applications`, body, headers());

    const notOpen = await apply(closed.id, applicationBody(ctx.clock, upload.uploadId));
    assertDocumented('POST', `/v1/jobs/${closed.id}/applications`, notOpen, 'job_not_open');
    assert.equal(errorOf(notOpen).status, 'closed');

    const body = applicationBody(ctx.clock, upload.uploadId);
    const badConsent = await apply(open.id, { ...body, consent: { ...(body.consent as object), ip: ' ' } });
    assertDocumented('POST', `/v1/jobs/${open.id}/applications`, badConsent, 'consent_invalid');
    assert.equal(errorOf(badConsent).field, 'consent.ip');

    const encrypted = await uploadPdf(ctx, api, pdfFixture('cv-user-password.pdf'));
    const refused = await apply(open.id, applicationBody(ctx.clock, encrypted.uploadId));
    assertDocumented('POST', `/v1/jobs/${open.id}/applications`, refused, 'cv_rejected');

    assert.equal((await apply(open.id, applicationBody(ctx.clock, upload.uploadId))).statusCode, 201);
    const another = await uploadPdf(ctx, api, pdfFixture('cv-2-pages.pdf'));
    const capped = await apply(open.id, applicationBody(ctx.clock, another.uploadId));
    assertDocumented('POST', `/v1/jobs/${open.id}/applications`, capped, 'daily_cap_reached');
  });

  test('screening: 402 overage_cap_reached with its four extras, 409 ad_not_managed', async () => {
    const s = await screeningAccount(ctx.app, {
      limits: { includedScreeningsPerManagedAd: 0, monthlyOverageCapCents: 1000 },
    });
    const template = await newTemplate(ctx.app, s.account.id, { priceCents: 1500, currency: 'AUD' });
    const job = await managedJob(ctx.app, s.api, s.account.id);
    const applicant = await applyTo(ctx, s.api, job.id);
    const url = `/v1/jobs/${job.id}/candidates/${applicant.candidateId}/screening`;
    const over = await triggerScreening(s.api, job.id, applicant.candidateId, { templateId: template.id });
    assertDocumented('POST', url, over, 'overage_cap_reached');
    assert.deepEqual(
      { ...errorOf(over), message: undefined, requestId: undefined },
      {
        code: 'overage_cap_reached',
        message: undefined,
        requestId: undefined,
        priceCents: 1500,
        currency: 'AUD',
        capCents: 1000,
        spendCents: 0,
      },
    );
    const plain = await createPublished(s.api, { title: 'Not managed' });
    const unmanaged = await triggerScreening(s.api, plain.id, applicant.candidateId, {
      templateId: template.id,
    });
    assertDocumented('POST', `/v1/jobs/${plain.id}/candidates/x/screening`, unmanaged, 'ad_not_managed');
  });

  test('the CV checker down: 503 unavailable, documented on the routes that check a CV, nothing spent', async () => {
    const down = await startApp({
      inspector: {
        check: async () => {
          throw new ParserPoolUnavailable('PDF parser workers fail to start: test');
        },
      },
    });
    try {
      const account = await newAccount(down.app, { dpa: true, limits: { requestsPerMinute: 100_000 } });
      const key = await newKey(down.app, account.id, ['applications:write', 'jobs:read', 'jobs:write']);
      const api = client(down.app, key.secret);
      const job = await createPublished(api);
      const upload = await uploadPdf(down, api, pdfFixture('cv-2-pages.pdf'));
      const url = `/v1/jobs/${job.id}/applications`;
      const res = await api.post(url, applicationBody(down.clock, upload.uploadId), {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 503, res.body);
      assertDocumented('POST', url, res, 'unavailable');
      const row = await down.handle.db
        .selectFrom('uploads')
        .select('used_at')
        .where('id', '=', upload.uploadId)
        .executeTakeFirstOrThrow();
      assert.equal(row.used_at, null, 'the upload was spent by a refusal that was not the file’s fault');
    } finally {
      await down.close();
    }
  });
});
