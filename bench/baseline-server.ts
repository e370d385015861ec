/**
 * The benchmark's baseline: bare Fastify with the same database driver, running exactly the SQL the
 * service must run for each benchmarked request (key lookup and rate counter included) and
 * answering the same bytes, built with JSON.stringify. It shares no code with the service (nothing
 * under src/ is imported), so the ratio service ÷ baseline isolates the service's own overhead:
 * hooks, validation, serialisation, logging, metrics, idempotency bookkeeping.
 *
 * Started by bench/run.ts; configured by the environment:
 *   BASELINE_PORT, BASELINE_DATABASE (a postgres:// URL, or a PGlite data directory),
 *   BASELINE_REDIS (a redis:// URL, or empty: counters in this process), BASELINE_BASE_URL,
 *   BASELINE_CONSENT_FILE (the consent-text body to answer), BASELINE_BLOB_DIR (received PDFs).
 */

import { type ChildProcess, fork } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflate as inflateCallback } from 'node:zlib';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

const inflate = promisify(inflateCallback);

const env = process.env;
const baseUrl = env.BASELINE_BASE_URL ?? 'http://bench.local';
const blobDir = env.BASELINE_BLOB_DIR ?? fs.mkdtempSync('/tmp/baseline-blobs-');
const consentBody = fs.readFileSync(env.BASELINE_CONSENT_FILE ?? '/dev/null', 'utf8');
const signingKey = randomBytes(32);

type Row = Record<string, unknown>;
interface Sql {
  query(text: string, params?: unknown[]): Promise<Row[]>;
  tx<T>(fn: (q: (text: string, params?: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T>;
}

async function openSql(target: string): Promise<Sql> {
  if (/^postgres(ql)?:/.test(target)) {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: target, max: 10 });
    return {
      query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
      async tx(fn) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const out = await fn(async (text, params) => (await client.query(text, params as unknown[])).rows);
          await client.query('commit');
          return out;
        } catch (error) {
          await client.query('rollback');
          throw error;
        } finally {
          client.release();
        }
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(target);
  return {
    query: async (text, params) => (await db.query<Row>(text, params)).rows,
    tx: (fn) => db.transaction((t) => fn(async (text, params) => (await t.query<Row>(text, params)).rows)),
  };
}

const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

async function openCounter(url: string | undefined): Promise<(key: string) => Promise<number>> {
  if (url) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(url);
    return async (key) =>
      Number(await redis.eval(HIT_SCRIPT, 1, `bl:${key}:${Math.floor(Date.now() / 60_000)}`, '61000'));
  }
  const counts = new Map<string, number>();
  return async (key) => {
    const id = `${key}:${Math.floor(Date.now() / 60_000)}`;
    const n = (counts.get(id) ?? 0) + 1;
    counts.set(id, n);
    return n;
  };
}

const sql = await openSql(env.BASELINE_DATABASE ?? '');
const hit = await openCounter(env.BASELINE_REDIS || undefined);

function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(32).padStart(10, '0')}${randomBytes(10).toString('hex').slice(0, 16)}`;
}

function fail(reply: FastifyReply, status: number, code: string, message: string) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: { code, message, requestId: newId('req') } }));
}

interface Principal {
  key_id: string;
  account_id: string;
  scopes: string[];
  requests_per_minute: number;
}

/** The service's guard, as SQL: the per-secret counter, then the key (with its account's limit). */
async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
): Promise<Principal | null> {
  const header = request.headers.authorization ?? '';
  const secret = header.startsWith('Bearer ') ? header.slice(7) : '';
  const hash = createHash('sha256').update(secret).digest('hex');
  const count = await hit(hash);
  const rows = await sql.query(
    'select k.id as key_id, k.account_id, k.scopes, k.last_used_at, a.requests_per_minute from api_keys k join accounts a on a.id = k.account_id where k.secret_hash = $1 and k.revoked_at is null',
    [hash],
  );
  const principal = rows[0] as (Principal & { last_used_at: Date | null }) | undefined;
  if (!principal) {
    fail(reply, 401, 'unauthorized', 'The API key is not valid, or has been revoked.');
    return null;
  }
  const now = Date.now();
  if (principal.last_used_at === null || now - principal.last_used_at.getTime() > 60_000) {
    await sql.query('update api_keys set last_used_at = $1 where id = $2', [new Date(now), principal.key_id]);
  }
  reply.header('x-ratelimit-limit', String(principal.requests_per_minute));
  reply.header('x-ratelimit-remaining', String(Math.max(0, principal.requests_per_minute - count)));
  reply.header('x-ratelimit-reset', String(Math.ceil(now / 60_000) * 60));
  if (count > principal.requests_per_minute) {
    reply.header('retry-after', '30');
    fail(reply, 429, 'rate_limited', 'This key is over its limit.');
    return null;
  }
  if (!principal.scopes.includes(scope)) {
    fail(reply, 403, 'forbidden', `This key lacks the scope "${scope}".`);
    return null;
  }
  return principal;
}

const JOB_COLUMNS =
  'j.id, j.status, j.content, j.slug, j.expires_at, j.posted_at, j.updated_at, j.closed_at, a.name as a_name, a.company_name as a_company_name, a.logo_url as a_logo_url, a.company_address as a_company_address';
const OPTIONAL = [
  'category',
  'seniority',
  'yearsExperience',
  'employmentType',
  'contractType',
  'salary',
  'location',
  'workStyle',
];

/** The service's Job, in the order its response schema writes it: required fields, then optional ones. */
function jobView(row: Row, now: number): Row {
  const words = row.content as Row;
  const expires = row.expires_at as Date | null;
  const status =
    row.status === 'published' && expires !== null && expires.getTime() <= now ? 'expired' : row.status;
  const job: Row = {
    id: row.id,
    title: words.title ?? '',
    description: words.description ?? '',
    responsibilities: words.responsibilities ?? [],
    skills: words.skills ?? [],
    benefits: words.benefits ?? [],
    company: {
      name: row.a_company_name ?? row.a_name,
      ...(row.a_logo_url ? { logoUrl: row.a_logo_url } : {}),
    },
    applyLink: `${baseUrl}/apply/${row.id}`,
    status,
  };
  for (const field of OPTIONAL)
    if (words[field] !== undefined && words[field] !== null) job[field] = words[field];
  if (row.posted_at) job.postedAt = (row.posted_at as Date).toISOString();
  job.updatedAt = (row.updated_at as Date).toISOString();
  if (expires) job.expiresAt = expires.toISOString();
  if (row.closed_at) job.closedAt = (row.closed_at as Date).toISOString();
  if (row.status !== 'draft' && row.slug && row.a_company_address) {
    job.url = `${baseUrl}/en/jobs/${row.a_company_address}/${row.slug}`;
  }
  return job;
}

function json(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

// The PDF check of the application scenario: two warm child processes running pdf.js, as the
// service's pool does (without the service's code: bench/baseline-pdf-child.ts is its own).
// The bytes go to the child over IPC, as the service's must (its sandboxed children may not read
// DATA_DIR), not a path.
const pdfChildren: { child: ChildProcess; busy: boolean }[] = [];
const pdfQueue: ((c: (typeof pdfChildren)[number]) => void)[] = [];
for (let i = 0; i < 2; i++) {
  const child = fork(new URL('./baseline-pdf-child.ts', import.meta.url), {
    stdio: 'ignore',
    serialization: 'advanced',
  } as never);
  pdfChildren.push({ child, busy: false });
}

/**
 * The minimal equivalent of the pre-scan every CV must pass before a parser sees it (issue 11: a
 * required protection, so the baseline does it too): page objects in plain sight counted, every
 * Flate stream that is not an image inflated off the loop against a budget of 64x the file, and
 * the content streams' tokens counted.
 */
async function prescan(data: Buffer): Promise<boolean> {
  const text = data.toString('latin1');
  if ((text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0) > 10 * 4 + 20) return false;
  let budget = Math.min(Math.max(data.length * 64, 8 << 20), 128 << 20);
  let tokens = 0;
  const streamAt = /stream\r?\n/g;
  for (let m = streamAt.exec(text); m; m = streamAt.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    const dict = text.slice(Math.max(0, text.lastIndexOf('<<', m.index)), m.index);
    streamAt.lastIndex = end;
    if (!dict.includes('/FlateDecode') || dict.includes('/Image')) continue;
    try {
      const out = await inflate(data.subarray(start, end), {
        maxOutputLength: Math.min(1 << 20, budget + 1),
      });
      budget -= out.length;
      if (budget < 0) return false;
      if (!dict.includes('/Subtype') && !dict.includes('/Length1'))
        for (let i = 1; i < out.length; i++) if (out[i - 1]! <= 32 && out[i]! > 32) tokens++;
    } catch {
      // Damaged or past the one-shot cap: left to the parser's own limits.
    }
  }
  return tokens <= 10 * 50_000;
}

function checkPdf(data: Buffer): Promise<{ ok: boolean; pages: number }> {
  return new Promise((resolve) => {
    const run = (slot: (typeof pdfChildren)[number]) => {
      slot.busy = true;
      slot.child.once('message', (m) => {
        slot.busy = false;
        const next = pdfQueue.shift();
        if (next) next(slot);
        resolve(m as { ok: boolean; pages: number });
      });
      slot.child.send({ data });
    };
    const free = pdfChildren.find((c) => !c.busy);
    if (free) run(free);
    else pdfQueue.push(run);
  });
}

const app = Fastify({ bodyLimit: 1_048_576 });
app.addContentTypeParser('application/pdf', (_req, payload, done) => done(null, payload));

app.get('/healthz', async (_request, reply) => json(reply, 200, { status: 'ok' }));

app.get('/v1/consent-text', async (request, reply) => {
  if (!(await authenticate(request, reply, 'applications:write'))) return reply;
  return reply.type('application/json; charset=utf-8').send(consentBody);
});

app.get('/v1/jobs', async (request, reply) => {
  const principal = await authenticate(request, reply, 'jobs:read');
  if (!principal) return reply;
  const limit = Number((request.query as Row).limit ?? 50);
  const rows = await sql.query(
    `select ${JOB_COLUMNS} from jobs j join accounts a on a.id = j.account_id where j.account_id = $1 and j.status <> 'draft' order by j.id desc limit $2`,
    [principal.account_id, limit + 1],
  );
  const now = Date.now();
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? Buffer.from(`v1:${page.at(-1)!.id}`).toString('base64url') : null;
  return json(reply, 200, { jobs: page.map((r) => jobView(r, now)), nextCursor });
});

app.get('/v1/jobs/:jobId', async (request, reply) => {
  const principal = await authenticate(request, reply, 'jobs:read');
  if (!principal) return reply;
  const rows = await sql.query(
    `select ${JOB_COLUMNS} from jobs j join accounts a on a.id = j.account_id where j.account_id = $1 and j.id = $2`,
    [principal.account_id, (request.params as Row).jobId],
  );
  if (!rows[0] || rows[0].status === 'draft') return fail(reply, 404, 'not_found', 'Job not found.');
  return json(reply, 200, { job: jobView(rows[0], Date.now()) });
});

/** Create with an Idempotency-Key: the claim, then the account, the insert and the stored answer in one transaction. */
app.post('/v1/jobs', async (request, reply) => {
  const principal = await authenticate(request, reply, 'jobs:write');
  if (!principal) return reply;
  const body = request.body as Row;
  const key = String(request.headers['idempotency-key'] ?? '');
  const now = new Date();
  const requestHash = createHash('sha256')
    .update(`POST /v1/jobs\n${JSON.stringify(body)}`)
    .digest('hex');
  const claimed = await sql.query(
    'insert into idempotency_records (account_id, route, key, request_hash, locked_until, status_code, response_body, created_at, expires_at) values ($1, $2, $3, $4, $5, null, null, $6, $7) on conflict (account_id, route, key) do nothing returning key',
    [
      principal.account_id,
      'POST /v1/jobs',
      key,
      requestHash,
      new Date(now.getTime() + 60_000),
      now,
      new Date(now.getTime() + 86_400_000),
    ],
  );
  if (claimed.length === 0) return fail(reply, 409, 'conflict', 'Idempotency-Key in use.');
  const answer = await sql.tx(async (q) => {
    const account = (await q('select * from accounts where id = $1', [principal.account_id]))[0]!;
    const id = newId('job');
    const content = { title: body.title, description: body.description, category: body.category };
    const row = (
      await q(
        'insert into jobs (id, account_id, status, content, staged, slug, expires_at, max_matches, managed_since, first_published_at, posted_at, closed_at, created_at, updated_at) values ($1, $2, $3, $4, null, null, null, null, null, null, null, null, $5, $5) returning *',
        [id, principal.account_id, 'draft', JSON.stringify(content), now],
      )
    )[0]!;
    const text = JSON.stringify({
      job: jobView(
        {
          ...row,
          a_name: account.name,
          a_company_name: account.company_name,
          a_logo_url: account.logo_url,
          a_company_address: account.company_address,
        },
        now.getTime(),
      ),
    });
    await q(
      'update idempotency_records set status_code = $1, response_body = $2, locked_until = null where account_id = $3 and route = $4 and key = $5',
      [201, text, principal.account_id, 'POST /v1/jobs', key],
    );
    return text;
  });
  return reply.code(201).type('application/json; charset=utf-8').send(answer);
});

app.post('/v1/uploads', async (request, reply) => {
  const principal = await authenticate(request, reply, 'applications:write');
  if (!principal) return reply;
  const body = request.body as { bytes: number; fileName?: string };
  const now = new Date();
  const id = newId('upl');
  const putExpires = new Date(now.getTime() + 300_000);
  // The account's outstanding uploads against its byte quota (issue 11.4), as the service must.
  const [room] = await sql.query(
    'select coalesce(sum(bytes), 0)::float8 as bytes, min(expires_at) as first_expiry from uploads where used_at is null and expires_at > $1 and account_id = $2 and hosted = $3',
    [now, principal.account_id, false],
  );
  if (Number(room!.bytes) + body.bytes > 100 * 10_485_760)
    return fail(reply, 429, 'rate_limited', 'Too many outstanding uploads.');
  const sig = createHmac('sha256', signingKey)
    .update(`${id}.${body.bytes}.${putExpires.getTime()}`)
    .digest('base64url');
  await sql.tx(async (q) => {
    await q(
      'insert into uploads (id, account_id, bytes, file_name, created_at, put_expires_at, expires_at, received_at, used_at) values ($1, $2, $3, $4, $5, $6, $7, null, null) returning *',
      [
        id,
        principal.account_id,
        body.bytes,
        body.fileName ?? null,
        now,
        putExpires,
        new Date(now.getTime() + 3_600_000),
      ],
    );
  });
  return json(reply, 201, {
    uploadId: id,
    uploadUrl: `${baseUrl}/uploads/${id}?expires=${putExpires.getTime()}&bytes=${body.bytes}&sig=${sig}`,
    expiresAt: putExpires.toISOString(),
  });
});

app.put('/uploads/:id', async (request, reply) => {
  const { id } = request.params as { id: string };
  const query = request.query as Row;
  const sig = createHmac('sha256', signingKey)
    .update(`${id}.${query.bytes}.${query.expires}`)
    .digest('base64url');
  if (sig !== query.sig) return fail(reply, 403, 'forbidden', 'Bad signature.');
  // On disk before the 200, as the service's store must (the file, then its directory entry).
  const file = path.join(blobDir, id);
  const out = fs.createWriteStream(file, { flags: 'wx', flush: true });
  await new Promise<void>((resolve, reject) => {
    (request.body as NodeJS.ReadableStream).pipe(out).on('finish', resolve).on('error', reject);
  });
  const dir = await fs.promises.open(blobDir, 'r');
  await dir.sync();
  await dir.close();
  await sql.query('update uploads set received_at = $1 where id = $2 and received_at is null', [
    new Date(),
    id,
  ]);
  await sql.query('select used_at from uploads where id = $1', [id]);
  return reply.code(200).send();
});

/** The application: the spec's checks in order (job, duplicate, budgets, upload, PDF), then one accepting transaction. */
app.post('/v1/jobs/:jobId/applications', async (request, reply) => {
  const principal = await authenticate(request, reply, 'applications:write');
  if (!principal) return reply;
  const { jobId } = request.params as { jobId: string };
  const body = request.body as Row & { email: string; cv: { uploadId: string } };
  const account = principal.account_id;
  const key = String(request.headers['idempotency-key']);
  const route = 'POST /v1/jobs/:jobId/applications';
  const now = new Date();
  const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const claimed = await sql.query(
    'insert into idempotency_records (account_id, route, key, request_hash, locked_until, status_code, response_body, created_at, expires_at) values ($1, $2, $3, $4, $5, null, null, $6, $7) on conflict (account_id, route, key) do nothing returning key',
    [account, route, key, hash, new Date(now.getTime() + 60_000), now, new Date(now.getTime() + 86_400_000)],
  );
  if (claimed.length === 0) return fail(reply, 409, 'conflict', 'Idempotency-Key in use.');
  const job = (await sql.query('select * from jobs where account_id = $1 and id = $2', [account, jobId]))[0];
  if (job?.status !== 'published') return fail(reply, 404, 'not_found', 'Job not found.');
  const emailKey = body.email.trim().toLowerCase();
  const day = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000);
  const budgets = async (q: Sql['query']) => {
    await q('select * from accounts where id = $1', [account]);
    await q('select count(*)::int as n from applications where created_at >= $1 and account_id = $2', [
      day,
      account,
    ]);
    await q('select count(*)::int as n from applications where created_at >= $1 and job_id = $2', [
      day,
      jobId,
    ]);
  };
  await sql.query('select * from applications where job_id = $1 and email_key = $2', [jobId, emailKey]);
  await budgets(sql.query);
  const upload = (
    await sql.query('select * from uploads where account_id = $1 and id = $2', [account, body.cv.uploadId])
  )[0];
  const file = path.join(blobDir, body.cv.uploadId);
  if (!upload || upload.used_at !== null || fs.statSync(file).size !== upload.bytes) {
    return fail(reply, 400, 'upload_invalid', 'Upload not usable.');
  }
  const data = await fs.promises.readFile(file);
  if (!(await prescan(data))) return fail(reply, 422, 'cv_rejected', 'The CV was refused.');
  const verdict = await checkPdf(data);
  if (!verdict.ok) return fail(reply, 422, 'cv_rejected', 'The CV was refused.');
  const answer = await sql.tx(async (q) => {
    await q('select * from accounts where id = $1 for update', [account]);
    await q('select * from jobs where account_id = $1 and id = $2', [account, jobId]);
    await q('select * from applications where job_id = $1 and email_key = $2', [jobId, emailKey]);
    await budgets(q);
    await q(
      'update uploads set used_at = $1 where account_id = $2 and id = $3 and used_at is null returning id',
      [now, account, upload.id],
    );
    const id = newId('app');
    await q('select id from people where email_key = $1', [emailKey]);
    const receipt = body.consent as Row;
    await q(
      `insert into applications (id, account_id, job_id, email_key, name, email, phone, location, cover_note, answers, consent_receipt, consent_text_id, consent_version, consent_locale, consent_text, lawful_basis, source, blob_key, status, cv_status, reason, claimed_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, null, null, null, null, $7, $8, $9, 'en', $10, $11, 'api', $12, 'received', 'processing', null, null, $13, $13) returning *`,
      [
        id,
        account,
        jobId,
        emailKey,
        body.name,
        body.email,
        JSON.stringify(receipt),
        receipt.consentTextId,
        receipt.version,
        consentBody,
        JSON.stringify(body.lawfulBasis),
        upload.id,
        now,
      ],
    );
    await q(
      `insert into tasks (id, name, key, payload, state, attempts, max_attempts, run_after, created_at, updated_at) values ($1, 'build-cv', $2, $3, 'done', 0, 8, $4, $4, $4) on conflict (key) do nothing returning id`,
      [newId('tsk'), `bl-build-cv:${id}`, JSON.stringify({ kind: 'application', id }), now],
    );
    // The application.received event, with a delivery per subscribed webhook, as the service must.
    await q(
      `with e as (insert into events (id, account_id, type, data, dedupe_key, created_at) values ($1, $2, $3, $4::jsonb, null, $5) on conflict (dedupe_key) do nothing returning id),
       d as (insert into webhook_deliveries (id, webhook_id, event_id, account_id, state, next_attempt_at, created_at, updated_at)
             select 'dlv_' || substr(md5(w.id || ':' || e.id), 1, 26), w.id, e.id, $2, 'queued', $5, $5, $5 from e, webhooks w
             where w.account_id = $2 and (w.types is null or $3 = any (w.types)) on conflict (webhook_id, event_id) do nothing)
       select id from e`,
      [
        newId('evt'),
        account,
        'application.received',
        JSON.stringify({ applicationId: id, jobId, status: 'received', cvStatus: 'processing' }),
        now,
      ],
    );
    const text = JSON.stringify({
      applicationId: id,
      candidateId: id,
      status: 'received',
      cvStatus: 'processing',
      job: { id: jobId, status: 'published' },
    });
    await q(
      'update idempotency_records set status_code = $1, response_body = $2, locked_until = null where account_id = $3 and route = $4 and key = $5',
      [201, text, account, route, key],
    );
    return text;
  });
  return reply.code(201).type('application/json; charset=utf-8').send(answer);
});

await app.listen({ port: Number(env.BASELINE_PORT ?? 0), host: '127.0.0.1' });
process.send?.({ ready: true });
process.on('SIGTERM', () => {
  for (const c of pdfChildren) c.child.kill();
  void app.close().then(() => process.exit(0));
});
