import type { AccessMode, IsolationLevel, Kysely, Transaction, TransactionBuilder } from 'kysely';
import { isSerializationFailure } from './faults.ts';

/**
 * A transaction that loses a race with another one — PostgreSQL's deadlock detector picked it
 * (40P01), or a serialization failure (40001) — was rolled back whole, so it runs again, whole: the
 * callback from its first statement, on a fresh transaction. Everything a transaction writes (the
 * rows, its events, its enqueued tasks, the Idempotency-Key's answer through `seal`) is in it, so a
 * run that failed left nothing behind. What must not happen twice stays outside every transaction
 * callback: mail is sent by tasks, files are written before and deleted after the transaction.
 * When the runs are spent the error reaches the HTTP edge, which answers 503 `unavailable` with
 * Retry-After (src/plugins/fault-errors.ts). docs/decisions.md, "Lock order and lost races".
 */
export interface RetryPolicy {
  /** Runs at most, the first included. */
  attempts: number;
  /** The n-th retry (from 0) waits between half and all of min(capMs, baseMs × 2ⁿ), at random. */
  baseMs: number;
  capMs: number;
}

export const TRANSACTION_RETRIES: RetryPolicy = { attempts: 5, baseMs: 10, capMs: 200 };

/** The wait before the `retry`-th retry (from 0): exponential, capped, half of it jittered. */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** retry);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Runs `run`, and again after a short random wait while it fails with a lost race, `attempts` times. */
export async function retryLostRaces<T>(run: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!isSerializationFailure(error) || attempt >= policy.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoffMs(policy, attempt - 1)));
    }
  }
}

function retrying<DB>(builder: TransactionBuilder<DB>, policy: RetryPolicy): TransactionBuilder<DB> {
  const execute = builder.execute.bind(builder);
  const setIsolationLevel = builder.setIsolationLevel.bind(builder);
  const setAccessMode = builder.setAccessMode.bind(builder);
  return Object.assign(builder, {
    execute: <T>(callback: (trx: Transaction<DB>) => Promise<T>): Promise<T> =>
      retryLostRaces(() => execute(callback), policy),
    setIsolationLevel: (level: IsolationLevel) => retrying(setIsolationLevel(level), policy),
    setAccessMode: (mode: AccessMode) => retrying(setAccessMode(mode), policy),
  });
}

/**
 * Makes every `db.transaction().execute(callback)` of this handle retry lost races. (Kysely's
 * `startTransaction()`, whose statements the caller issues one by one, cannot be re-run here: the
 * service does not use it.)
 */
export function retryTransactions<DB>(db: Kysely<DB>, policy: RetryPolicy = TRANSACTION_RETRIES): Kysely<DB> {
  const open = db.transaction.bind(db);
  db.transaction = () => retrying(open(), policy);
  return db;
}
