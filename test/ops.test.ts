import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { ConfigError, parseConfig } from '../src/config.ts';
import { type DbHandle, openDatabase } from '../src/db/connect.ts';
import { migrate, migrationFiles, migrationsCurrent } from '../src/db/migrate.ts';
import { jobsAccount, unique } from './support/accounts.ts';
import { startApp, testConfig, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const ctx = useTestApp({ metricsToken: METRICS_TOKEN });

describe('probes', () => {
  test('/healthz → 200', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('/readyz → 200 when the database is reachable and migrated', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'ready', database: 'up', redis: 'not configured' });
  });

  test('/readyz → 503 unavailable once the database handle is closed; /healthz still 200', async () => {
    const handle = await openDatabase({ databaseUrl: testConfig.databaseUrl, dataDir: null });
    await migrate(handle);
    const dedicated = await startApp({ handle });
    assert.equal((await dedicated.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    await handle.close();
    const res = await dedicated.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(errorOf(res).code, 'unavailable');
    assert.equal(res.headers['x-request-id'], errorOf(res).requestId);
    assert.equal((await dedicated.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  });

  test('/readyz → 503 on a database whose migrations are not applied', async () => {
    const handle = await openDatabase({ databaseUrl: null, dataDir: null });
    try {
      const unmigrated = await startApp({ handle });
      const res = await unmigrated.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(errorOf(res).code, 'unavailable');
      await migrate(handle);
      assert.equal((await unmigrated.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    } finally {
      await handle.close();
    }
  });
});

describe('/metrics', () => {
  test('off without METRICS_TOKEN (the 404 of any unknown path); with it, only for its bearer token (401 otherwise)', async () => {
    const unset = await startApp({ metricsToken: null });
    const off = await unset.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(off.statusCode, 404, off.body);
    assert.equal(errorOf(off).code, 'not_found');
    const guarded = ctx;
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789',
      `Basic ${METRICS_TOKEN}`,
      'Bearer ',
    ]) {
      const res = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      assert.equal(res.statusCode, 401, `${authorization}: ${res.body}`);
      assert.equal(errorOf(res).code, 'unauthorized');
      assert.doesNotMatch(res.body, /http_requests_total/);
    }
    const ok = await guarded.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /http_requests_total/);
    assert.throws(() => parseConfig({ METRICS_TOKEN: 'short' }), ConfigError);
    assert.equal(parseConfig({ METRICS_TOKEN }).metricsToken, METRICS_TOKEN);
  });

  test('counts requests by route template and status; never a key, an id or an email', async () => {
    const { key, api } = await jobsAccount(ctx.app);
    const created = await api.post('/v1/jobs', { title: 'Metric job', description: 'd', category: 'data' });
    const jobId = created.json().job.id as string;
    assert.equal((await api.post(`/v1/jobs/${jobId}/publish`)).statusCode, 200);
    assert.equal((await api.get(`/v1/jobs/${jobId}`)).statusCode, 200);
    assert.equal((await api.get(`/v1/jobs/${jobId}`)).statusCode, 200);
    assert.equal((await api.get('/v1/jobs/jane.doe@example.com')).statusCode, 404);
    assert.equal(
      (await ctx.app.inject({ method: 'GET', url: '/v1/jobs', headers: { 'x-api-key': key.secret } }))
        .statusCode,
      200,
    );
    assert.equal(
      (await ctx.app.inject({ method: 'GET', url: '/nope/jane.doe@example.com' })).statusCode,
      404,
    );
    assert.equal(
      (await ctx.app.inject({ method: 'GET', url: `/v1/jobs?cursor=${key.secret}` })).statusCode,
      401,
    );

    const res = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    const text = res.body;
    const samples = text.split('\n').filter((line) => line.startsWith('http_requests_total{'));
    const count = (route: string, status: string, method = 'GET') => {
      const line = samples.find(
        (l) =>
          l.includes(`route="${route}"`) &&
          l.includes(`status="${status}"`) &&
          l.includes(`method="${method}"`),
      );
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    assert.ok(count('/v1/jobs/:jobId', '200') >= 2, samples.join('\n'));
    assert.ok(count('/v1/jobs/:jobId', '404') >= 1, samples.join('\n'));
    assert.ok(count('/v1/jobs/:jobId/publish', '200', 'POST') >= 1);
    assert.ok(count('/v1/jobs', '201', 'POST') >= 1);
    assert.ok(count('/v1/jobs', '401') >= 1);
    assert.match(text, /http_request_duration_seconds_bucket\{/);
    assert.match(text, /http_request_duration_seconds_count\{[^}]*route="\/v1\/jobs\/:jobId"/);
    // Unmatched requests share one label: the raw path is never a label.
    assert.ok(samples.some((l) => l.includes('route="unmatched"')));

    assert.ok(!text.includes(key.secret), 'a key secret in the metrics');
    assert.ok(!text.includes(jobId), 'an id in the metrics');
    assert.ok(!text.includes('example.com'), 'an email in the metrics');
    assert.ok(!text.includes('jane.doe'), 'an email in the metrics');
  });
});

describe('/v1/openapi.json', () => {
  /** Every public endpoint of api.md; each one the app serves must be in the document. */
  const PUBLIC: [string, string][] = [
    ['GET', '/v1/jobs'],
    ['GET', '/v1/jobs/{jobId}'],
    ['POST', '/v1/jobs'],
    ['PATCH', '/v1/jobs/{jobId}'],
    ['POST', '/v1/jobs/{jobId}/publish'],
    ['POST', '/v1/jobs/{jobId}/close'],
    ['GET', '/v1/consent-text'],
    ['POST', '/v1/uploads'],
    ['POST', '/v1/jobs/{jobId}/applications'],
    ['POST', '/v1/jobs/{jobId}/applications/validate'],
    ['GET', '/v1/applications/{applicationId}'],
    ['POST', '/v1/candidates'],
    ['POST', '/v1/jobs/{jobId}/candidates/{candidateId}/screening'],
    ['GET', '/v1/events'],
    ['GET', '/v1/jobs/{jobId}/matches'],
    // The sandbox's helpers (extensions.md §8): test keys only.
    ['POST', '/v1/test/jobs/{jobId}/expire'],
    ['POST', '/v1/test/jobs/{jobId}/manage'],
    ['POST', '/v1/test/jobs/{jobId}/unmanage'],
    ['POST', '/v1/test/applications/{applicationId}/cv'],
    ['POST', '/v1/test/screenings/{screeningId}/complete'],
  ];
  const fastifyPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

  test('OpenAPI 3.1.0, version 1.0.0, both key schemes, every served public path', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(typeof doc.info.title, 'string');

    const schemes = doc.components.securitySchemes;
    const bearer = Object.values(schemes).find(
      (s) => (s as { type: string }).type === 'http' && (s as { scheme: string }).scheme === 'bearer',
    );
    const apiKey = Object.values(schemes).find(
      (s) =>
        (s as { type: string }).type === 'apiKey' &&
        (s as { in: string }).in === 'header' &&
        (s as { name: string }).name === 'x-api-key',
    );
    assert.ok(bearer, 'Authorization: Bearer scheme');
    assert.ok(apiKey, 'x-api-key scheme');
    const schemeNames = (doc.security as Record<string, unknown>[]).flatMap((entry) => Object.keys(entry));
    assert.deepEqual(schemeNames.sort(), Object.keys(schemes).sort());

    const served = PUBLIC.filter(([method, p]) =>
      ctx.app.hasRoute({ method: method as 'GET', url: fastifyPath(p) }),
    );
    // The job routes are served today; more join as their features land.
    for (const jobRoute of PUBLIC.slice(0, 6)) assert.ok(served.includes(jobRoute), jobRoute.join(' '));
    for (const [method, p] of served) {
      const operation = doc.paths[p]?.[method.toLowerCase()];
      assert.ok(operation, `${method} ${p} is missing from the document`);
      for (const status of ['401', '403']) {
        assert.ok(operation.responses[status], `${method} ${p} does not document ${status}`);
      }
      if (!p.endsWith('/screening')) assert.ok(operation.responses['429'], `${method} ${p} lacks 429`);
    }
    // No console or probe path is published, and no /v1 operation that api.md does not name.
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const known = new Set(PUBLIC.map(([m, p]) => `${m} ${p}`));
    for (const entry of documented) {
      const p = entry.split(' ')[1]!;
      assert.ok(!/^\/(console|healthz|readyz|metrics)\b/.test(p), `${entry} must not be in the document`);
      if (p.startsWith('/v1/')) assert.ok(known.has(entry), `unexpected ${entry} in the document`);
    }
  });

  test('the document is served without a key and is the same on every call', async () => {
    const a = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    const b = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(a.statusCode, 200);
    assert.equal(a.body, b.body);
  });
});

describe('configuration (parseConfig)', () => {
  test('defaults as console.md says', () => {
    const config = parseConfig({});
    assert.equal(config.http.port, 3000);
    assert.equal(config.http.host, '127.0.0.1');
    assert.equal(config.http.publicBaseUrl, 'http://localhost:3000');
    assert.equal(config.http.bodyLimitBytes, 1_048_576);
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.databaseUrl, null);
    assert.equal(config.redisUrl, null);
    assert.equal(config.s3, null);
    assert.equal(config.mail.smtpUrl, null);
    assert.match(config.mail.from, /no-reply@/);
    assert.equal(config.consoleToken, null);
    assert.equal(config.role, 'all');
    assert.equal(config.cv.maxBytes, 10_485_760);
    assert.equal(config.cv.maxPages, 10);
    assert.equal(config.cv.stagedTtlSeconds, 2_592_000);
    assert.equal(config.workerConcurrency, 2);
    assert.equal(parseConfig({ WORKER_CONCURRENCY: '8' }).workerConcurrency, 8);
  });

  test('PUBLIC_BASE_URL defaults to http://localhost:$PORT; a trailing slash is dropped', () => {
    assert.equal(parseConfig({ PORT: '8080' }).http.publicBaseUrl, 'http://localhost:8080');
    assert.equal(
      parseConfig({ PUBLIC_BASE_URL: 'https://careers.example.com/' }).http.publicBaseUrl,
      'https://careers.example.com',
    );
  });

  test('values are read from the environment', () => {
    const config = parseConfig({
      PORT: '4000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/careers-data',
      DATABASE_URL: 'postgres://u:p@db.internal:5432/careers',
      REDIS_URL: 'redis://cache.internal:6379',
      CONSOLE_TOKEN: 'a-console-token-long-enough',
      ROLE: 'worker',
      CV_MAX_BYTES: '2048',
      CV_MAX_PAGES: '3',
      STAGED_CV_TTL_SECONDS: '60',
      S3_BUCKET: 'cvs',
      SMTP_URL: 'smtp://mail.internal:25',
      MAIL_FROM: 'Jobs <jobs@example.test>',
    });
    assert.equal(config.http.port, 4000);
    assert.equal(config.http.host, '0.0.0.0');
    assert.equal(config.dataDir, '/tmp/careers-data');
    assert.equal(config.databaseUrl, 'postgres://u:p@db.internal:5432/careers');
    assert.equal(config.redisUrl, 'redis://cache.internal:6379');
    assert.equal(config.consoleToken, 'a-console-token-long-enough');
    assert.equal(config.role, 'worker');
    assert.deepEqual(config.cv, { maxBytes: 2048, maxPages: 3, stagedTtlSeconds: 60 });
    assert.equal(config.s3?.bucket, 'cvs');
    assert.equal(config.mail.smtpUrl, 'smtp://mail.internal:25');
    assert.equal(config.mail.from, 'Jobs <jobs@example.test>');
    assert.ok(Object.isFrozen(config));
  });

  test('an empty variable counts as unset', () => {
    const config = parseConfig({ PORT: '', DATABASE_URL: '  ', ROLE: '' });
    assert.equal(config.http.port, 3000);
    assert.equal(config.databaseUrl, null);
    assert.equal(config.role, 'all');
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['ROLE', { ROLE: 'everything' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://root@localhost/careers' }],
    ['REDIS_URL', { REDIS_URL: 'http://localhost:6379' }],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'ftp://example.com' }],
    ['CONSOLE_TOKEN', { CONSOLE_TOKEN: 'short' }],
    ['CV_MAX_BYTES', { CV_MAX_BYTES: '10MB' }],
    ['CV_MAX_PAGES', { CV_MAX_PAGES: '0' }],
    ['STAGED_CV_TTL_SECONDS', { STAGED_CV_TTL_SECONDS: 'forever' }],
    ['SMTP_URL', { SMTP_URL: 'mailto:x@example.com' }],
    ['WORKER_CONCURRENCY', { WORKER_CONCURRENCY: '0' }],
    ['WORKER_CONCURRENCY', { WORKER_CONCURRENCY: '64' }],
  ];
  for (const [variable, env] of bad) {
    test(`a bad ${variable} (${JSON.stringify(env[variable])}) fails, naming the variable`, () => {
      assert.throws(
        () => parseConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, String(error));
          assert.equal(error.variable, variable);
          assert.ok(error.message.includes(variable), error.message);
          return true;
        },
      );
    });
  }
});

describe('migrations', () => {
  async function concurrentTwiceOn(handle: DbHandle) {
    const all = migrationFiles().map((m) => m.version);
    assert.ok(all.length >= 2);
    assert.equal(await migrationsCurrent(handle).catch(() => false), false);
    const [a, b] = await Promise.all([migrate(handle), migrate(handle)]);
    const results = [a, b].sort((x, y) => y.length - x.length);
    assert.deepEqual(results[0], all, 'the first run applies every migration');
    assert.deepEqual(results[1], [], 'the second applies nothing');
    assert.equal(await migrationsCurrent(handle), true);
    const rows = await handle.withSession((exec) =>
      exec('SELECT version FROM schema_migrations ORDER BY version'),
    );
    assert.deepEqual(
      rows.map((r) => r.version),
      all,
    );
    // And a third run, later, applies nothing either.
    assert.deepEqual(await migrate(handle), []);
  }

  test('migrate twice concurrently on one fresh embedded database: safe, the second applies nothing', async () => {
    const handle = await openDatabase({ databaseUrl: null, dataDir: null });
    try {
      await concurrentTwiceOn(handle);
    } finally {
      await handle.close();
    }
  });

  test('migrate concurrently on a fresh PostgreSQL database, one handle and two processes', {
    skip: testConfig.databaseUrl === null ? 'DATABASE_URL is not set' : false,
  }, async () => {
    const admin = new pg.Client({ connectionString: testConfig.databaseUrl! });
    await admin.connect();
    const name = unique('migrate')
      .replace(/[^a-z0-9]/gi, '_')
      .toLowerCase();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(testConfig.databaseUrl!);
    url.pathname = `/${name}`;
    try {
      const one = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
      try {
        await concurrentTwiceOn(one);
      } finally {
        await one.close();
      }
      // Two processes (two handles) on another fresh database.
      const name2 = `${name}_b`;
      await admin.query(`CREATE DATABASE ${name2}`);
      const url2 = new URL(url);
      url2.pathname = `/${name2}`;
      const p1 = await openDatabase({ databaseUrl: url2.toString(), dataDir: null });
      const p2 = await openDatabase({ databaseUrl: url2.toString(), dataDir: null });
      try {
        const applied = await Promise.all([migrate(p1), migrate(p2), migrate(p1), migrate(p2)]);
        const total = applied.flat();
        assert.deepEqual(
          total.sort(),
          migrationFiles().map((m) => m.version),
        );
        assert.equal(await migrationsCurrent(p2), true);
      } finally {
        await p1.close();
        await p2.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name2}`);
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  });
});
