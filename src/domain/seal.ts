import type { Db } from '../db/connect.ts';

/**
 * Hands a service's result to whoever answers the request, inside the write's own transaction: the
 * HTTP layer serialises the answer there and, under an Idempotency-Key, stores it with the write,
 * so the write and its stored answer commit or vanish together. Optional: console and task callers
 * pass none.
 */
export type Seal<T> = (trx: Db, result: T) => Promise<void>;
