import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { conflict } from '../errors.ts';
import {
  type ClaimedRecord,
  type FreshClaim,
  idempotencyRepository,
  type RecordKey,
} from './idempotency-repository.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claim protects a request in progress at most, even while its process lives. */
export const IDEMPOTENCY_LOCK_MS = 60_000;
/** How often a process holding claims proves it is alive. */
export const HEARTBEAT_MS = 2_000;
/** A claim whose process sent no heartbeat for this long is taken over: the process died. */
export const OWNER_SILENT_MS = 10_000;
/** Releases that failed (the database was out) are tried again on the next beats, this many times. */
const RELEASE_ATTEMPTS = 30;

export type Claim =
  | { kind: 'claimed'; record: ClaimedRecord }
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

export function createIdempotencyService(deps: { db: Db; clock: Clock; instanceId?: string }) {
  const { db, clock } = deps;
  const instance = deps.instanceId ?? `${hostname()}:${process.pid}:${randomToken(6)}`;
  // The heartbeat runs while this process holds claims (and a little after): a process that holds
  // none needs to prove nothing. Failed releases wait here for the next beat.
  let held = 0;
  let lastBeatMs = 0;
  let timer: NodeJS.Timeout | null = null;
  const pendingReleases = new Map<string, { record: ClaimedRecord; attempts: number }>();

  async function beat(): Promise<void> {
    lastBeatMs = Date.now();
    await idempotencyRepository.heartbeat(db, instance);
  }

  async function tick(): Promise<void> {
    try {
      if (held > 0) await beat();
      for (const [owner, pending] of pendingReleases) {
        try {
          await idempotencyRepository.releaseUnfinished(db, pending.record);
          pendingReleases.delete(owner);
        } catch {
          if (++pending.attempts >= RELEASE_ATTEMPTS) pendingReleases.delete(owner);
        }
      }
    } catch {
      // The database is out: the next beat tries again. A claim of ours may then be taken over
      // after OWNER_SILENT_MS, which is right: this process cannot finish its request either.
    }
    if (held === 0 && pendingReleases.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  async function hold(): Promise<void> {
    held += 1;
    if (timer === null) {
      timer = setInterval(() => void tick(), HEARTBEAT_MS);
      timer.unref();
    }
    if (Date.now() - lastBeatMs > HEARTBEAT_MS / 2) await beat();
  }

  function unhold(): void {
    held = Math.max(0, held - 1);
  }

  /** Whether a running claim's process still lives (its heartbeat is recent). */
  async function ownerAlive(trx: Db, owner: string | null): Promise<boolean> {
    if (owner === null) return true;
    if (owner.split(' ')[0] === instance) return true;
    return idempotencyRepository.ownerAlive(trx, owner, OWNER_SILENT_MS);
  }

  return {
    instanceId: instance,
    /**
     * Claims the key in its own short transaction, before the work starts: a concurrent request
     * with the same key then finds the claim and answers 409 at once instead of waiting on a lock.
     */
    async claim(key: RecordKey, hash: string): Promise<Claim> {
      const record: ClaimedRecord = { ...key, owner: `${instance} ${randomToken(8)}` };
      await hold();
      try {
        const claim = await claimAs(record, hash);
        if (claim.kind !== 'claimed') unhold();
        return claim;
      } catch (error) {
        unhold();
        // The insert may have committed with its answer lost: free it on the next beats.
        pendingReleases.set(record.owner, { record, attempts: 0 });
        throw error;
      }
    },

    /** Stores the answer; called inside the transaction of the write it answers. */
    async complete(trx: Db, record: ClaimedRecord, statusCode: number, body: string): Promise<void> {
      await idempotencyRepository.complete(trx, record, statusCode, body);
    },

    /** Stores an answer that wrote nothing (a refusal), in a transaction of its own. */
    async completeAlone(record: ClaimedRecord, statusCode: number, body: string): Promise<void> {
      await idempotencyRepository.complete(db, record, statusCode, body);
    },

    /**
     * Frees a claim whose request ended without an answer worth keeping, so a retry can run. When
     * the database is out the release is kept and tried again with the heartbeat.
     */
    async release(record: ClaimedRecord): Promise<void> {
      try {
        await idempotencyRepository.releaseUnfinished(db, record);
      } catch (error) {
        pendingReleases.set(record.owner, { record, attempts: 0 });
        if (timer === null) {
          timer = setInterval(() => void tick(), HEARTBEAT_MS);
          timer.unref();
        }
        throw error;
      }
    },

    /** The request holding `record` has ended (answered, replayed or failed). */
    settled(): void {
      unhold();
    },

    async sweep(): Promise<number> {
      await idempotencyRepository.deleteSilentInstances(db, 86_400_000);
      return idempotencyRepository.deleteExpired(db, clock.now());
    },

    /** On shutdown: no claim of this process survives it as "running". */
    async stop(): Promise<void> {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await idempotencyRepository.forgetInstance(db, instance).catch(() => undefined);
    },
  };

  async function claimAs(record: ClaimedRecord, hash: string): Promise<Claim> {
    {
      const now = clock.now();
      const claim: FreshClaim = {
        requestHash: hash,
        now,
        lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        owner: record.owner,
      };
      if (await idempotencyRepository.insertClaim(db, record, claim)) {
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
        if (
          !fresh &&
          row.locked_until !== null &&
          row.locked_until.getTime() > now.getTime() &&
          (await ownerAlive(trx, row.owner))
        ) {
          throw conflict('A request with this Idempotency-Key is still running; retry once it has finished.');
        }
        if (row === undefined) {
          // The first holder released its claim between our two looks; another request may be
          // claiming it right now too, and only one insert can win.
          if (!(await idempotencyRepository.insertClaim(trx, record, claim))) {
            throw conflict(
              'A request with this Idempotency-Key is still running; retry once it has finished.',
            );
          }
        } else {
          await idempotencyRepository.reclaim(trx, record, claim);
        }
        return { kind: 'claimed', record };
      });
    }
  }
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
