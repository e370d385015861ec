/**
 * How long pg's query results live, by the way a statement is sent (issue 14, the job list's p99).
 *
 * Sixteen loops run a 51-row, ~2 KB-a-row page query on a pool of ten for a few seconds, each way
 * in its own process under `--trace-gc-nvp`, and the young-generation collections are read back:
 *   - `service`: the service's own database handle (Kysely over the pooled session, src/db/connect.ts);
 *   - `promise`: pg's promise form, `await client.query(text, values)`, which assigns the query's
 *     callback after constructing it;
 *   - `callback`: pg's callback form, the callback given to the query's constructor.
 * It prints, for each, the median scavenge pause, the median bytes that survived a scavenge, and
 * queries per second, with ratios against the `callback` baseline of the same run.
 *
 *   npm run bench:pg-survival [-- --seconds=4]    (BENCH_DATABASE_URL: a server database to CREATE DATABASE from)
 *
 * `node bench/pg-survival.ts --child=<way> --url=<database> --seconds=<s>` is one measured process;
 * test/db-survival.test.ts runs it too.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';

export type Way = 'service' | 'promise' | 'callback';
const WAYS: Way[] = ['callback', 'promise', 'service'];
const QUERY =
  'select id, status, content, slug, expires_at, posted_at, updated_at, closed_at from survival where account = $1 order by id desc limit $2';

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** The statement run the given way, resolving to its rows. */
async function runner(way: Way, url: string): Promise<() => Promise<unknown[]>> {
  if (way === 'service') {
    const { openDatabase } = await import('../src/db/connect.ts');
    const handle = await openDatabase({ databaseUrl: url, dataDir: null });
    const text = sql.raw(QUERY.replace('$1', "'acc'").replace('$2', '51'));
    return async () => (await text.execute(handle.db)).rows;
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async () => {
    const client = await pool.connect();
    try {
      if (way === 'promise') return (await client.query(QUERY, ['acc', 51])).rows;
      return await new Promise<unknown[]>((resolve, reject) => {
        client.query(QUERY, ['acc', 51], (error: Error | null, result: pg.QueryResult) =>
          error ? reject(error) : resolve(result.rows),
        );
      });
    } finally {
      client.release();
    }
  };
}

/** One measured process: 16 loops for `seconds`, each page turned into JSON as a handler would. */
async function child(way: Way, url: string, seconds: number): Promise<void> {
  const run = await runner(way, url);
  const end = performance.now() + seconds * 1000;
  let queries = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < end) {
        const rows = (await run()) as { id: string; updated_at: Date; content: unknown }[];
        JSON.stringify(
          rows.map((r) => ({ id: r.id, updatedAt: r.updated_at.toISOString(), ...(r.content as object) })),
        );
        queries++;
      }
    }),
  );
  console.log(`QUERIES ${queries / seconds}`);
  process.exit(0);
}

export interface Survival {
  way: Way;
  scavenges: number;
  /** Median pause of a young-generation collection, ms. */
  pauseMs: number;
  /** Median bytes that survived one, MB. */
  survivedMb: number;
  queriesPerSecond: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Runs one way in its own process and reads its scavenges back from V8's trace. */
export function measure(way: Way, url: string, seconds: number): Survival {
  const out = spawnSync(
    process.execPath,
    [
      '--trace-gc-nvp',
      fileURLToPath(import.meta.url),
      `--child=${way}`,
      `--url=${url}`,
      `--seconds=${seconds}`,
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (out.status !== 0) throw new Error(`${way} exited ${out.status}: ${out.stderr.slice(-2000)}`);
  const scavenges = out.stdout
    .split('\n')
    .filter((line) => line.includes(' gc=s '))
    .map((line) =>
      Object.fromEntries([...line.matchAll(/(\w[\w.]*)=([\d.]+)/g)].map((m) => [m[1], Number(m[2])])),
    )
    // Collections during start-up (module loading, a pool of ten connecting) are not the loop's.
    .filter((s) => (s.allocated ?? 0) > 4_000_000);
  return {
    way,
    scavenges: scavenges.length,
    pauseMs: median(scavenges.map((s) => s.pause ?? Number.NaN)),
    survivedMb: median(scavenges.map((s) => s.new_space_survived ?? Number.NaN)) / 1e6,
    queriesPerSecond: Number(/QUERIES ([\d.]+)/.exec(out.stdout)?.[1] ?? Number.NaN),
  };
}

/** A scratch database with 60 rows shaped like the job list's page; dropped by the returned function. */
export async function scratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `survival_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client(serverUrl);
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client(url.toString());
  await client.connect();
  await client.query(
    'create table survival (id text primary key, account text, status text, content jsonb, slug text, expires_at timestamptz, posted_at timestamptz, updated_at timestamptz, closed_at timestamptz)',
  );
  await client.query(
    `insert into survival
     select 'job_' || lpad(g::text, 4, '0'), 'acc', 'published',
            jsonb_build_object('title', 'Role ' || g, 'description', repeat('Work on things. ', 100),
                               'skills', jsonb_build_array(jsonb_build_object('name', 'TypeScript', 'level', 'required')),
                               'responsibilities', jsonb_build_array('Build', 'Ship', 'Run'),
                               'location', jsonb_build_object('city', 'Berlin', 'country', 'DE')),
            'role-' || g, now() + interval '30 days', now(), now(), null
     from generate_series(1, 60) g`,
  );
  await client.end();
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function main(): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const seconds = Number(arg('seconds') ?? 4);
  const db = await scratchDatabase(serverUrl);
  try {
    const results = WAYS.map((way) => measure(way, db.url, seconds));
    const base = results.find((r) => r.way === 'callback')!;
    console.log(`pg-survival, ${seconds} s each, 16 loops on a pool of 10, Node ${process.versions.node}`);
    for (const r of results) {
      console.log(
        `${r.way.padEnd(9)} ${String(r.scavenges).padStart(4)} scavenges, median pause ${r.pauseMs.toFixed(2)} ms, ` +
          `survived ${r.survivedMb.toFixed(2)} MB (× ${(r.survivedMb / base.survivedMb).toFixed(1)}), ` +
          `${r.queriesPerSecond.toFixed(0)} queries/s (${(r.queriesPerSecond / base.queriesPerSecond).toFixed(2)})`,
      );
    }
    const service = results.find((r) => r.way === 'service')!;
    const met = service.survivedMb <= 3 * base.survivedMb + 0.5;
    console.log(
      `service survives like the callback form (≤ 3× + 0.5 MB): ${met ? 'target met' : 'target MISSED'}`,
    );
  } finally {
    await db.drop();
  }
}

const way = arg('child') as Way | undefined;
if (way) await child(way, arg('url')!, Number(arg('seconds') ?? 4));
else if (import.meta.url === `file://${process.argv[1]}`) await main();
