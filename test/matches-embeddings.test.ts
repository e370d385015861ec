import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../src/config.ts';
import { EmbeddingError, httpEmbeddings, vectorsOf } from '../src/domain/matches/embeddings.ts';
import { createMatchService } from '../src/domain/matches/match-service.ts';
import { createTaskQueue } from '../src/tasks/queue.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { screeningAccount, unique } from './support/accounts.ts';
import { METRICS_TOKEN, startApp, useTestApp } from './support/app.ts';
import { candidateBody, uploadPdf } from './support/intake.ts';
import { createPublished, manageJob } from './support/jobs.ts';
import { captureLog } from './support/log.ts';
import { drainAll } from './support/mail.ts';

/**
 * The pluggable embedding provider (issue 19): off by default (no call, ranking unchanged); on, a
 * real HTTP server in this process answers as an OpenAI-compatible /embeddings endpoint; failing or
 * silent, the generation still runs, lexically, and the fallback is counted.
 */

interface Seen {
  path: string;
  authorization: string | undefined;
  model: string;
  inputs: number;
}

/** A bag-of-words vector: similar words, similar vectors (a stand-in for a real model). */
function fakeVector(text: string): number[] {
  const vector = new Array(64).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3) continue;
    const bucket = createHash('sha256').update(word).digest()[0] as number;
    vector[bucket % 64] += 1;
  }
  return vector;
}

let server: http.Server;
/** How `/switch/v1/embeddings` answers: as `/ok/…`, `/fail/…` (500) or `/hang/…` (never). */
let mode: 'ok' | 'fail' | 'hang' = 'ok';
let base: string;
const seen: Seen[] = [];

const ctx = useTestApp({}, async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { model: string; input: string[] };
      seen.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        model: parsed.model,
        inputs: parsed.input?.length ?? 0,
      });
      const route = req.url === '/switch/v1/embeddings' ? `/${mode}/v1/embeddings` : req.url;
      if (route === '/hang/v1/embeddings') return; // never answers
      if (route === '/fail/v1/embeddings') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      const data = parsed.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: fakeVector(text),
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const people = pool as (PoolCvDescription & { truth: { occupation: string } })[];
const backend = people.filter((p) => p.truth.occupation === 'backend');
const ROLE = BACKEND_ROLE;

function service(embeddings: ReturnType<typeof httpEmbeddings> | null, warnings: string[] = []) {
  return createMatchService({
    db: ctx.handle.db,
    clock: ctx.clock,
    queue: createTaskQueue({ clock: ctx.clock }),
    embeddings,
    warn: (message) => warnings.push(message),
  });
}

async function matchesOf(
  api: ReturnType<typeof screeningAccount> extends Promise<infer S> ? S : never,
  jobId: string,
) {
  const res = await api.api.get(`/v1/jobs/${jobId}/matches`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().matches as { candidateId: string; score: number; reasons: string[] }[];
}

describe('the embedding provider', () => {
  test('off: no call; on: one more component with its reason; failing or silent: lexical, counted', async () => {
    const s = await screeningAccount(ctx.app);
    for (const cv of backend.slice(0, 7)) {
      const upload = await uploadPdf(ctx, s.api, await renderPoolCv(cv));
      const email = `${unique('e').toLowerCase()}@example.com`;
      const res = await s.api.post(
        '/v1/candidates',
        candidateBody(upload.uploadId, { name: cv.name, email }),
        {
          'idempotency-key': unique('idem'),
        },
      );
      assert.equal(res.statusCode, 201, res.body);
    }
    await drainAll(ctx.worker); // builds the CVs; the batched refresh is not due yet
    const jobs: { id: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const job = await createPublished(s.api, ROLE);
      await manageJob(ctx.app, s.account.id, job.id);
      jobs.push(job);
    }
    const [offJob, onJob, failJob, hangJob] = jobs as [
      { id: string },
      { id: string },
      { id: string },
      { id: string },
    ];

    // Off (the default): exactly the lexical ranking, and nothing sent anywhere.
    assert.ok((await service(null).generate(s.account.id, offJob.id)) > 0);
    assert.equal(seen.length, 0);
    const lexical = await matchesOf(s, offJob.id);
    assert.ok(lexical.every((m) => !m.reasons.some((r) => r.startsWith('semantic'))));

    // On: the role's words once, then the profiles in batches of at most batchSize, with the key.
    const on = httpEmbeddings({
      url: `${base}/ok/v1/embeddings`,
      model: 'fake-64',
      apiKey: 'sk-test',
      batchSize: 3,
    });
    assert.ok((await service(on).generate(s.account.id, onJob.id)) > 0);
    assert.ok(seen.length >= 3, 'role + at least two batches');
    assert.ok(seen.every((r) => r.model === 'fake-64' && r.authorization === 'Bearer sk-test'));
    assert.equal(seen[0]?.inputs, 1, 'the role');
    assert.ok(
      seen.slice(1).every((r) => r.inputs >= 1 && r.inputs <= 3),
      'batches of at most 3',
    );
    const semantic = await matchesOf(s, onJob.id);
    assert.equal(semantic.length, lexical.length);
    assert.ok(semantic.every((m) => m.reasons.some((r) => /^semantic similarity: \d+%$/.test(r))));
    assert.notDeepEqual(
      semantic.map((m) => m.score),
      lexical.map((m) => m.score),
      'the component moves the scores',
    );
    const stored = await ctx.handle.db
      .selectFrom('match_profiles')
      .select('embedding_model')
      .where('account_id', '=', s.account.id)
      .execute();
    assert.ok(
      stored.some((row) => row.embedding_model === 'fake-64'),
      'vectors kept with their model',
    );
    // A second role with the same model re-embeds nobody already embedded.
    const calls = seen.length;
    const again = await createPublished(s.api, ROLE);
    await manageJob(ctx.app, s.account.id, again.id);
    await service(on).generate(s.account.id, again.id);
    assert.equal(seen.length, calls + 1, 'only the new role’s words');

    // Failing (500) and silent (past the timeout): the same lexical ranking, and a counted warning.
    const warnings: string[] = [];
    const failing = service(httpEmbeddings({ url: `${base}/fail/v1/embeddings`, model: 'other' }), warnings);
    assert.ok((await failing.generate(s.account.id, failJob.id)) > 0);
    const silent = service(
      httpEmbeddings({ url: `${base}/hang/v1/embeddings`, model: 'other', timeoutMs: 300 }),
      warnings,
    );
    const started = performance.now();
    assert.ok((await silent.generate(s.account.id, hangJob.id)) > 0);
    assert.ok(performance.now() - started < 5_000, 'bounded by the timeout');
    const strip = (list: typeof lexical) => list.map((m) => [m.candidateId, m.score, m.reasons]);
    assert.deepEqual(strip(await matchesOf(s, failJob.id)), strip(lexical));
    assert.deepEqual(strip(await matchesOf(s, hangJob.id)), strip(lexical));
    assert.equal(failing.takeEmbeddingFallbacks(), 1);
    assert.equal(failing.takeEmbeddingFallbacks(), 0, 'reset once reported');
    assert.equal(silent.takeEmbeddingFallbacks(), 1);
    assert.match(warnings[0] ?? '', /answered 500/);
    assert.match(warnings[1] ?? '', /no answer within 300 ms/);
  });

  test('configuration: off unless EMBEDDINGS_URL; a model is then required; malformed answers refused', () => {
    assert.equal(parseConfig({}).embeddings, null);
    assert.throws(() => parseConfig({ EMBEDDINGS_URL: 'https://e.example/v1/embeddings' }), ConfigError);
    assert.throws(
      () => parseConfig({ EMBEDDINGS_URL: 'ftp://e.example', EMBEDDINGS_MODEL: 'm' }),
      ConfigError,
    );
    const on = parseConfig({
      EMBEDDINGS_URL: 'https://e.example/v1/embeddings',
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
      EMBEDDINGS_API_KEY: 'sk-x',
      EMBEDDINGS_BATCH_SIZE: '16',
    }).embeddings;
    assert.deepEqual(on, {
      url: 'https://e.example/v1/embeddings',
      model: 'text-embedding-3-small',
      apiKey: 'sk-x',
      timeoutMs: 5_000,
      batchSize: 16,
    });
    assert.throws(() => vectorsOf({ data: [] }, 1), EmbeddingError);
    assert.throws(() => vectorsOf({ data: [{ index: 0, embedding: [1, 'x'] }] }, 1), EmbeddingError);
    assert.throws(
      () =>
        vectorsOf(
          {
            data: [
              { index: 0, embedding: [1, 2] },
              { index: 1, embedding: [1] },
            ],
          },
          2,
        ),
      EmbeddingError,
    );
    assert.deepEqual(
      vectorsOf(
        {
          data: [
            { index: 1, embedding: [2] },
            { index: 0, embedding: [1] },
          ],
        },
        2,
      ),
      [[1], [2]],
    );
  });
});

describe('the embedding provider, seen by an operator', () => {
  test('a failure that is not the provider’s own is told by its name and code, never its message', async () => {
    const s = await screeningAccount(ctx.app);
    const job = await createPublished(s.api, ROLE);
    await manageJob(ctx.app, s.account.id, job.id);
    const personal = 'Ana Souza <ana.souza@example.com>';
    const throwing = {
      model: 'throws',
      batchSize: 8,
      embed: async (): Promise<number[][]> => {
        throw Object.assign(new TypeError(`cannot read ${personal}`), { code: 'E_ODD' });
      },
    };
    const warnings: string[] = [];
    const told: string[] = [];
    const matches = service(throwing, warnings);
    matches.observeEmbeddings({
      call: (outcome) => told.push(`call ${outcome}`),
      fallback: (reason) => told.push(`fallback ${reason}`),
    });
    await matches.generate(s.account.id, job.id);
    assert.deepEqual(told, ['call error', 'fallback TypeError E_ODD while embedding']);
    assert.deepEqual(warnings, [
      'embeddings unavailable, ranking lexically: TypeError E_ODD while embedding',
    ]);
  });

  test('GET /metrics counts its calls by outcome and the lexical fallbacks; a fallback is one warn line, nothing personal', async () => {
    const { stream, lines } = captureLog();
    // Configured as an operator does (EMBEDDINGS_URL, EMBEDDINGS_MODEL, EMBEDDINGS_TIMEOUT_MS).
    const watched = await startApp({
      embeddings: { url: `${base}/switch/v1/embeddings`, model: 'fake-64', timeoutMs: 300 },
      logger: { level: 'info', stream },
    });
    try {
      const scrape = async () => {
        const res = await watched.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        assert.equal(res.statusCode, 200, res.body);
        const value = (series: string) => {
          const escaped = series.replace(/[{}"]/g, (c) => `\\${c}`);
          const m = new RegExp(`^${escaped} (\\d+)$`, 'm').exec(res.body);
          assert.ok(m, `${series} is on /metrics`);
          return Number(m[1]);
        };
        return {
          body: res.body,
          ok: value('embeddings_requests_total{outcome="ok"}'),
          error: value('embeddings_requests_total{outcome="error"}'),
          timeout: value('embeddings_requests_total{outcome="timeout"}'),
          fallbacks: value('embeddings_fallbacks_total'),
        };
      };
      const warnings = () =>
        lines
          .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string; model?: string })
          .filter((line) => line.level === 40);
      const start = await scrape();
      assert.deepEqual(
        [start.ok, start.error, start.timeout, start.fallbacks],
        [0, 0, 0, 0],
        'zeros from the start',
      );

      const s = await screeningAccount(watched.app);
      const names: string[] = [];
      for (const cv of backend.slice(0, 4)) {
        const upload = await uploadPdf(watched, s.api, await renderPoolCv(cv));
        const email = `${unique('w').toLowerCase()}@example.com`;
        names.push(cv.name, email);
        const res = await s.api.post(
          '/v1/candidates',
          candidateBody(upload.uploadId, { name: cv.name, email }),
          {
            'idempotency-key': unique('idem'),
          },
        );
        assert.equal(res.statusCode, 201, res.body);
      }
      await drainAll(watched.worker);
      const jobs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const job = await createPublished(s.api, ROLE);
        await manageJob(watched.app, s.account.id, job.id);
        jobs.push(job.id);
      }
      const generate = (jobId: string) => watched.services.matches.generate(s.account.id, jobId);

      mode = 'ok';
      assert.ok((await generate(jobs[0]!)) > 0);
      const ok = await scrape();
      assert.ok(ok.ok >= 2, `the role and the profiles embedded (${ok.ok})`);
      assert.deepEqual([ok.error, ok.timeout, ok.fallbacks], [0, 0, 0]);
      assert.deepEqual(warnings(), [], 'no warning while the provider answers');

      mode = 'fail';
      assert.ok((await generate(jobs[1]!)) > 0, 'ranked lexically');
      const failed = await scrape();
      assert.deepEqual([failed.ok, failed.error, failed.timeout, failed.fallbacks], [ok.ok, 1, 0, 1]);

      mode = 'hang';
      const started = performance.now();
      assert.ok((await generate(jobs[2]!)) > 0, 'ranked lexically');
      assert.ok(performance.now() - started < 5_000, 'bounded by EMBEDDINGS_TIMEOUT_MS');
      const silent = await scrape();
      assert.deepEqual([silent.ok, silent.error, silent.timeout, silent.fallbacks], [ok.ok, 1, 1, 2]);

      const warned = warnings();
      assert.deepEqual(
        warned.map((w) => [w.msg, w.model, w.reason]),
        [
          ['embeddings unavailable: this generation ranks lexically', 'fake-64', 'the provider answered 500'],
          ['embeddings unavailable: this generation ranks lexically', 'fake-64', 'no answer within 300 ms'],
        ],
      );
      const everything = `${lines.join('\n')}\n${silent.body}`;
      for (const personal of names)
        assert.ok(!everything.includes(personal), `${personal} in the log or metrics`);
      assert.equal(watched.services.matches.takeEmbeddingFallbacks(), 2, 'the sweep still reports them');
    } finally {
      mode = 'ok';
      await watched.close();
    }
  });
});
