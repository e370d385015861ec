import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict } from '../errors.ts';
import { type RecordKey, idempotencyRepository } from './idempotency-repository.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claim protects a request in progress; a holder that died is replaced after this. */
export const IDEMPOTENCY_LOCK_MS = 60_000;

export type Claim =
  | { kind: 'claimed'; record: RecordKey }
  | { kind: 'replay'; statusCode: number; body: string };

/** JSON with object keys sorted, so that the same body hashes the same whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonicalJson(body)}`)
    .digest('hex');
}

export function createIdempotencyService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * Claims the key in its own short transaction, before the work starts: a concurrent request
     * with the same key then finds the claim and answers 409 at once instead of waiting on a lock.
     */
    async claim(record: RecordKey, hash: string): Promise<Claim> {
      const now = clock.now();
      const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_MS);
      const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
      if (await idempotencyRepository.insertClaim(db, record, hash, now, lockedUntil, expiresAt)) {
        return { kind: 'claimed', record };
      }
      return db.transaction().execute(async (trx): Promise<Claim> => {
        const row = await idempotencyRepository.findForUpdate(trx, record);
        const fresh = row === undefined || row.expires_at.getTime() <= now.getTime();
        if (!fresh && row.request_hash !== hash) {
          throw conflict(
            'This Idempotency-Key was used with a different request; use a new key for a new request.',
          );
        }
        if (!fresh && row.status_code !== null && row.response_body !== null) {
          return { kind: 'replay', statusCode: row.status_code, body: row.response_body };
        }
        if (!fresh && row.locked_until !== null && row.locked_until.getTime() > now.getTime()) {
          throw conflict('A request with this Idempotency-Key is still running; retry once it has finished.');
        }
        if (row === undefined) {
          // The first holder released its claim between our two looks; another request may be
          // claiming it right now too, and only one insert can win.
          if (!(await idempotencyRepository.insertClaim(trx, record, hash, now, lockedUntil, expiresAt))) {
            throw conflict(
              'A request with this Idempotency-Key is still running; retry once it has finished.',
            );
          }
        } else {
          await idempotencyRepository.reclaim(trx, record, hash, now, lockedUntil, expiresAt);
        }
        return { kind: 'claimed', record };
      });
    },

    /** Stores the answer; called inside the transaction of the write it answers. */
    async complete(trx: Db, record: RecordKey, statusCode: number, body: string): Promise<void> {
      await idempotencyRepository.complete(trx, record, statusCode, body);
    },

    /** Stores an answer that wrote nothing (a refusal), in a transaction of its own. */
    async completeAlone(record: RecordKey, statusCode: number, body: string): Promise<void> {
      await idempotencyRepository.complete(db, record, statusCode, body);
    },

    /** Frees a claim whose request ended without an answer worth keeping, so a retry can run. */
    async release(record: RecordKey): Promise<void> {
      await idempotencyRepository.releaseUnfinished(db, record);
    },

    async sweep(): Promise<number> {
      return idempotencyRepository.deleteExpired(db, clock.now());
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
