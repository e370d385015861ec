import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  CareersApiError,
  type CareersClient,
  type CreateApplicationRequest,
  createCareersClient,
} from '../packages/sdk/src/index.ts';
import { generateSdkTypes } from '../scripts/sdk-generate.ts';
import { intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { pdfFixture } from './support/intake.ts';

/**
 * The SDK against the real service listening on a port: a whole application sent through it, the
 * Idempotency-Key it adds kept across a retry (the service replays, nothing is applied twice),
 * Retry-After honoured, refusals typed; and a client generated from the served document compiles
 * under strict with exactOptionalPropertyTypes.
 */

const ctx = useTestApp({ listen: true }, async () => {
  apiKey = (await intakeAccount(ctx.app)).key.secret;
});
let apiKey: string;

function application(uploadId: string): CreateApplicationRequest {
  return {
    name: 'Ana Souza',
    email: `ana.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`,
    cv: { uploadId },
    consent: {
      consentTextId: 'console_api_apply',
      version: 'api_apply_v1',
      locale: 'en',
      acceptedAt: ctx.clock.now().toISOString(),
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    },
    lawfulBasis: { attested: true },
  };
}

async function publishedJob(sdk: CareersClient): Promise<string> {
  const draft = await sdk.jobs.create({
    title: 'Backend Engineer',
    category: 'engineering',
    description: '<p>Build the APIs.</p>',
  });
  const { job } = await sdk.jobs.publish(draft.id);
  assert.equal(job.status, 'published');
  return job.id;
}

/** A fetch that records every request's method, path and Idempotency-Key. */
function recording(base: typeof fetch = fetch) {
  const seen: { method: string; path: string; key: string | null; status: number }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await base(request);
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get('idempotency-key'),
      status: response.status,
    });
    return response;
  };
  return { seen, fetch: wrapped };
}

describe('the SDK against the running service', () => {
  test('sends a whole application: job, publish, consent text, upload, apply, status', async () => {
    const log = recording();
    const sdk = createCareersClient({ baseUrl: ctx.baseUrl, apiKey, fetch: log.fetch });
    const jobId = await publishedJob(sdk);
    const consent = await sdk.consentText('en');
    assert.ok(consent.text.length > 0);
    const uploadId = await sdk.uploads.upload(pdfFixture('cv-2-pages.pdf'), 'cv.pdf');
    const created = await sdk.applications.create(jobId, {
      ...application(uploadId),
      consent: {
        ...application(uploadId).consent,
        consentTextId: consent.consentTextId,
        version: consent.version,
      },
    });
    assert.equal(created.status, 'received');
    const status = await sdk.applications.get(created.applicationId);
    assert.equal(status.jobId, jobId);
    // Every POST carried a key of its own; the GETs none.
    const posts = log.seen.filter((r) => r.method === 'POST');
    assert.ok(posts.length >= 4);
    for (const post of posts) assert.ok(post.key, `${post.path} without an Idempotency-Key`);
    assert.equal(new Set(posts.map((p) => p.key)).size, posts.length);
    for (const get of log.seen.filter((r) => r.method === 'GET')) assert.equal(get.key, null);
  });

  test('a retry after a lost answer reuses the key: the service replays, one application exists', async () => {
    const setup = createCareersClient({ baseUrl: ctx.baseUrl, apiKey });
    const jobId = await publishedJob(setup);
    const uploadId = await setup.uploads.upload(pdfFixture('cv-2-pages.pdf'));
    // The first application POST reaches the service, but its answer is lost on the way back.
    let lost = false;
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      if (!lost && request.method === 'POST' && request.url.endsWith('/applications')) {
        lost = true;
        await response.body?.cancel();
        return new Response(
          JSON.stringify({ error: { code: 'unavailable', message: 'x', requestId: 'r' } }),
          {
            status: 503,
            headers: { 'retry-after': '1', 'content-type': 'application/json' },
          },
        );
      }
      return response;
    };
    const log = recording(flaky);
    const waits: number[] = [];
    const sdk = createCareersClient({
      baseUrl: ctx.baseUrl,
      apiKey,
      fetch: log.fetch,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const created = await sdk.applications.create(jobId, application(uploadId));
    assert.equal(created.status, 'received');
    const tries = log.seen.filter((r) => r.path.endsWith('/applications'));
    assert.deepEqual(
      tries.map((t) => t.status),
      [503, 201],
    );
    assert.equal(tries[0]!.key, tries[1]!.key, 'the retry sent the same Idempotency-Key');
    assert.deepEqual(waits, [1000], 'waited what Retry-After said');
    // The 201 was the service's replay of the first attempt's answer: one application only.
    const rows = await ctx.handle.db
      .selectFrom('applications')
      .select('id')
      .where('job_id', '=', jobId)
      .execute();
    assert.equal(rows.length, 1);
  });

  test('429 is retried after Retry-After; a wait longer than allowed is thrown as the typed error', async () => {
    let refusals = 2;
    const limited: typeof fetch = async (input, init) => {
      if (refusals-- > 0) {
        return new Response(
          JSON.stringify({ error: { code: 'rate_limited', message: 'slow down', requestId: 'req_1' } }),
          { status: 429, headers: { 'retry-after': '3', 'content-type': 'application/json' } },
        );
      }
      return fetch(input, init);
    };
    const waits: number[] = [];
    const sdk = createCareersClient({
      baseUrl: ctx.baseUrl,
      apiKey,
      fetch: limited,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const page = await sdk.jobs.list({ limit: 1 });
    assert.ok(Array.isArray(page.jobs));
    assert.deepEqual(waits, [3000, 3000]);

    refusals = 1;
    const impatient = createCareersClient({
      baseUrl: ctx.baseUrl,
      apiKey,
      fetch: limited,
      maxRetryDelayMs: 1000,
    });
    const error = await impatient.jobs.list().catch((e: unknown) => e);
    assert.ok(error instanceof CareersApiError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterSeconds, 3);
  });

  test('refusals are typed: switch on the code, read its fields', async () => {
    const sdk = createCareersClient({ baseUrl: ctx.baseUrl, apiKey });
    const jobId = await publishedJob(sdk);
    await sdk.jobs.close(jobId);
    const uploadId = await sdk.uploads.upload(pdfFixture('cv-2-pages.pdf'));
    const error = await sdk.applications.create(jobId, application(uploadId)).catch((e: unknown) => e);
    assert.ok(error instanceof CareersApiError);
    let status: string | undefined;
    switch (error.error.code) {
      case 'job_not_open':
        status = error.error.status;
        break;
      case 'cv_rejected':
        assert.fail(error.error.reason);
    }
    assert.equal(status, 'closed');
    assert.ok(error.is('job_not_open'));
    assert.match(error.requestId, /^req_/);

    const nobody = createCareersClient({ baseUrl: ctx.baseUrl, apiKey: 'not-a-key' });
    const unauthorized = await nobody.jobs.list().catch((e: unknown) => e);
    assert.ok(unauthorized instanceof CareersApiError && unauthorized.is('unauthorized'));
  });
});

describe('a client generated from the served document', () => {
  test('compiles under strict with exactOptionalPropertyTypes, and the SDK does too', async () => {
    const served = await (await fetch(`${ctx.baseUrl}/v1/openapi.json`)).json();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-generated-'));
    try {
      fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
      fs.writeFileSync(path.join(dir, 'schema.ts'), await generateSdkTypes(served));
      fs.writeFileSync(
        path.join(dir, 'client.ts'),
        `import createClient from 'openapi-fetch';
import type { paths, components } from './schema.ts';
const client = createClient<paths>({ baseUrl: 'https://careers.example.com' });
export async function apply(jobId: string, body: components['schemas']['CreateApplicationRequest']) {
  const { data, error } = await client.POST('/v1/jobs/{jobId}/applications', {
    params: { path: { jobId }, header: { 'idempotency-key': crypto.randomUUID() } },
    body,
  });
  if (error) {
    if (error.error.code === 'job_not_open') return error.error.status;
    return error.error.code;
  }
  return data.applicationId;
}
`,
      );
      const strict = {
        compilerOptions: {
          target: 'es2024',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2024', 'dom'],
          types: [],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: false,
        },
        files: ['schema.ts', 'client.ts'],
      };
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(strict));
      const tsc = path.resolve('node_modules/typescript/bin/tsc');
      const generated = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
      assert.equal(generated.status, 0, generated.stdout + generated.stderr);
      const sdk = spawnSync(process.execPath, [tsc, '-p', 'packages/sdk'], { encoding: 'utf8' });
      assert.equal(sdk.status, 0, sdk.stdout + sdk.stderr);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the checked-in SDK types are what the served document generates', async () => {
    const served = await (await fetch(`${ctx.baseUrl}/v1/openapi.json`)).json();
    // The document's servers carry the test's address; the checked-in file was made from the
    // export's. Everything else must match byte for byte.
    const regenerated = await generateSdkTypes({
      ...(served as object),
      servers: [{ url: 'https://careers.acme.test' }],
      info: {
        ...(served as { info: object }).info,
        contact: { name: 'API reference and support', url: 'https://careers.acme.test/v1/reference' },
      },
    });
    const checkedIn = fs.readFileSync('packages/sdk/src/schema.ts', 'utf8');
    assert.equal(regenerated, checkedIn, 'run npm run sdk:generate');
  });
});
