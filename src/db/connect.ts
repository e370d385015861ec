import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type pg from 'pg';
import { isConnectionFault } from './faults.ts';
import { pgliteTemplateFile, unpackTemplate } from './pglite-template.ts';
import { retryLostRaces, retryTransactions, TRANSACTION_RETRIES } from './retry.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/**
 * What the service holds of its database: the typed query builder, plus a raw session for the
 * few things that are not single parameterised statements (migration scripts under a lock).
 */
export interface DbHandle {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` on one dedicated session; `exec` takes multi-statement SQL without parameters. */
  withSession<T>(fn: (exec: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** One-at-a-time gate: PGlite serves one query or transaction at a time for the whole process. */
class Gate {
  #tail: Promise<void> = Promise.resolve();
  async enter(): Promise<() => void> {
    let leave!: () => void;
    const next = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => next);
    await previous;
    return leave;
  }
}

class PGliteConnection implements DatabaseConnection {
  readonly #pg: PGlite;
  constructor(pglite: PGlite) {
    this.#pg = pglite;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#pg.query<R>(query.sql, query.parameters as unknown[]);
    const affected = result.affectedRows === undefined ? undefined : BigInt(result.affectedRows);
    return { rows: result.rows, numAffectedRows: affected };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered on the embedded database
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  readonly #pg: PGlite;
  readonly #gate: Gate;
  readonly #leaves = new WeakMap<DatabaseConnection, () => void>();
  constructor(pglite: PGlite, gate: Gate) {
    this.#pg = pglite;
    this.#gate = gate;
  }
  async init(): Promise<void> {
    await this.#pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const leave = await this.#gate.enter();
    const connection = new PGliteConnection(this.#pg);
    this.#leaves.set(connection, leave);
    return connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#leaves.get(connection)?.();
    this.#leaves.delete(connection);
  }
  async destroy(): Promise<void> {
    // The handle closes PGlite itself, after the gate drains.
  }
}

function lastRows(result: unknown): Record<string, unknown>[] {
  const list = Array.isArray(result) ? result : [result];
  const last = list.at(-1) as { rows?: Record<string, unknown>[] } | undefined;
  return last?.rows ?? [];
}

/**
 * PostgreSQL's default 128 MB of shared buffers live inside PGlite's WebAssembly memory and are
 * touched at start: they were a third of the embedded service's 425 MB at idle (issue 14). The
 * embedded database is one session on one box; pages it does not hold come from the OS's cache.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * A new in-memory database starts from the shipped initdb output (a Blob PGlite unpacks) instead of
 * running initdb, which costs seconds in WebAssembly. Without a template for this PGlite version it
 * falls back to initdb.
 */
function bareTemplate(): Blob | undefined {
  try {
    return new Blob([fs.readFileSync(pgliteTemplateFile('bare'))]);
  } catch {
    return undefined;
  }
}

async function openPGlite(dataDir: string | null): Promise<DbHandle> {
  let target = 'memory://';
  let template: Blob | undefined;
  if (dataDir === null) template = bareTemplate();
  else {
    target = path.join(dataDir, 'pgdata');
    // A new DATA_DIR gets the shipped data directory with the migrations already applied: PGlite
    // then opens it like any existing one (issue 14: initdb and the migrations took ~3 s of CPU).
    if (!fs.existsSync(path.join(target, 'PG_VERSION')) && !unpackTemplate('migrated', target)) {
      fs.mkdirSync(target, { recursive: true });
    }
  }
  // Loaded here, not at the top: a process on PostgreSQL never loads PGlite, and the reverse.
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(target, {
    ...(template ? { loadDataDir: template } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const gate = new Gate();
  // One transaction at a time cannot deadlock; the retry is there for the same code on both.
  const db = retryTransactions(
    new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new PGliteDriver(pglite, gate),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    }),
  );
  return {
    db,
    kind: 'pglite',
    async withSession(fn) {
      const leave = await gate.enter();
      try {
        return await fn(async (sql) => lastRows(await pglite.exec(sql)));
      } finally {
        leave();
      }
    },
    async close() {
      await db.destroy();
      const leave = await gate.enter();
      try {
        await pglite.close();
      } finally {
        leave();
      }
    },
  };
}

/** A statement that only reads: safe to run again when its connection died under it. */
function isRead(sql: string): boolean {
  return /^\s*select\b/i.test(sql) && !/\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i.test(sql);
}

/**
 * One statement on a pooled client, through pg's callback form. pg's promise form assigns the
 * query's callback after constructing it; measured under load (issue 14), every result then outlived
 * two young-generation collections and was promoted (6–14 MB a scavenge, 8–9 ms pauses), where the
 * callback form leaves ~0.2 MB and ~0.5 ms. bench/pg-survival.ts reproduces it with pg alone.
 */
function run(client: pg.PoolClient, sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(sql, parameters as unknown[], (error: Error | null, result: pg.QueryResult) => {
      if (error === null) return resolve(result);
      // As pg's promise form does: a stack that leads back to the caller, not to the socket read.
      Error.captureStackTrace(error);
      reject(error);
    });
  });
}

/**
 * A pooled session as Kysely sees it. A read outside a transaction whose connection dropped
 * (terminated backend, restarted server) runs once more on a fresh connection; anything else fails
 * with the connection error, which the HTTP edge answers 503. The dead client leaves the pool.
 */
class RetryingClient {
  #client: pg.PoolClient | null;
  readonly #pool: pg.Pool;
  readonly #attempts: number;
  #inTransaction = false;
  constructor(client: pg.PoolClient, pool: pg.Pool, attempts: number) {
    this.#client = client;
    this.#pool = pool;
    this.#attempts = attempts;
  }
  async query(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
    // A statement outside a transaction is a transaction of its own: a lost race runs it again.
    if (this.#inTransaction || /^\s*(begin|start|commit|rollback)\b/i.test(sql))
      return this.#attempt(sql, parameters);
    return retryLostRaces(() => this.#attempt(sql, parameters), TRANSACTION_RETRIES);
  }
  async #attempt(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
    const word = sql.trimStart().slice(0, 10).toLowerCase();
    const opening = word.startsWith('begin') || word.startsWith('start');
    const closing = word.startsWith('commit') || word.startsWith('rollback');
    // A transaction's first statement may run again too: nothing of it has happened yet.
    const retryable = opening || (!this.#inTransaction && isRead(sql));
    if (opening) this.#inTransaction = true;
    try {
      return await run(this.#session(), sql, parameters);
    } catch (error) {
      if (!retryable || !isConnectionFault(error)) throw error;
      // Every other idle connection may have died with this one (a restart, a mass termination)
      // and not be known dead yet: each attempt takes the next one, as many times as the pool
      // holds connections. A dead one fails at once; a connect that fails ends the retries.
      let last = error;
      for (let attempt = 0; attempt < this.#attempts && isConnectionFault(last); attempt++) {
        this.#client?.release(last as Error);
        this.#client = null;
        this.#client = await this.#pool.connect();
        try {
          return await run(this.#client, sql, parameters);
        } catch (again) {
          last = again;
        }
      }
      throw last;
    } finally {
      if (closing) this.#inTransaction = false;
    }
  }
  #session(): pg.PoolClient {
    if (this.#client === null) throw new Error('Connection terminated: no session to run on');
    return this.#client;
  }
  release(): void {
    // A client whose connection broke is dropped by the pool (pg checks it is still queryable).
    this.#client?.release();
    this.#client = null;
  }
}

export interface PostgresOptions {
  /** Told of a connection the pool lost while it was idle or checked out (never crashes the process). */
  onConnectionError?: (error: Error) => void;
  /** Pool size; 10 by default. */
  max?: number;
}

async function openPostgres(databaseUrl: string, options: PostgresOptions = {}): Promise<DbHandle> {
  const { default: pg } = await import('pg');
  const onError = options.onConnectionError ?? (() => undefined);
  // timestamptz → Date is pg's default; bigint counts are cast to int in SQL where they are read.
  // A connect that cannot complete fails within 5 s instead of queueing the request for ever.
  const max = options.max ?? 10;
  const pool: pg.Pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client whose session ended (pg_terminate_backend, a server restart) is reported here;
  // without a listener Node treats the 'error' event as fatal and the process dies.
  pool.on('error', (error) => onError(error));
  // A checked-out client is not covered by the pool's listener: its error arrives on the client.
  pool.on('connect', (client) => {
    client.on('error', (error) => onError(error));
  });
  // A transaction that loses a race (deadlock, serialization failure) runs again whole (retry.ts).
  const db = retryTransactions(
    new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: {
          connect: async () => new RetryingClient(await pool.connect(), pool, max + 1) as never,
          end: () => pool.end(),
        },
      }),
    }),
  );
  return {
    db,
    kind: 'postgres',
    async withSession(fn) {
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        return await fn(async (sql) => lastRows(await client.query(sql)));
      } catch (error) {
        if (isConnectionFault(error)) failure = error as Error;
        throw error;
      } finally {
        client.release(failure);
      }
    },
    async close() {
      await db.destroy();
      // Kysely ends the pool only if it ever ran a query; withSession alone (migrate, readiness) does not.
      if (!pool.ending) await pool.end();
    },
  };
}

const CONNECT_TIMEOUT_MS = 5_000;

/** `databaseUrl` set: that PostgreSQL server. Otherwise PGlite under `dataDir` (or in memory when null). */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string | null;
  postgres?: PostgresOptions;
}): Promise<DbHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.postgres)
    : openPGlite(options.dataDir);
}
