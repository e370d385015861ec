import { createHash } from 'node:crypto';
import type { ApiKey, KeyCreate } from '../../contract/console.ts';
import { isScope, SCOPES, type Scope } from '../../contract/vocabulary.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { ensureTwin } from '../accounts/test-twin.ts';
import { badRequest, dpaRequired, notFound } from '../errors.ts';
import type { Seal } from '../seal.ts';
import { type ApiKeyRow, keyRepository } from './key-repository.ts';

export interface Principal {
  keyId: string;
  /** The account the key acts on: for a test key, the account's test twin (accounts/test-twin.ts). */
  accountId: string;
  /** False for a test key (extensions.md §8). */
  livemode: boolean;
  scopes: ReadonlySet<Scope>;
  requestsPerMinute: number;
}

const SECRET_PREFIX = { live: 'cak_', test: 'cak_test_' } as const;

/** Lengths outside these are no key this service minted (or ever will): refused without a lookup. */
export function plausibleSecret(secret: string): boolean {
  return secret.length >= 8 && secret.length <= 200;
}
// lastUsedAt is for people; writing it on every request would turn each read into a write.
const TOUCH_INTERVAL_MS = 60_000;

/** What is stored of a key, and what it is looked up and counted by. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function toKeyView(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.filter(isScope),
    mode: row.mode,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

export function createKeyService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  const revocationListeners: (() => Promise<void>)[] = [];

  /**
   * The principal behind a secret's SHA-256 (the guard has it already: it counts by it), and when
   * the key's use was last written (this lookup writes it when a minute has passed). The lookup is
   * an index probe on the hash, whose timing says nothing about the secret.
   */
  async function lookUpHash(secretHash: string): Promise<{ principal: Principal; usedAtMs: number } | null> {
    const row = await keyRepository.findLiveByHash(db, secretHash);
    // A test key whose twin is gone (never: twins are not deleted) acts on nothing.
    if (!row || (row.mode === 'test' && row.acting_account_id === null)) return null;
    const principal: Principal = {
      keyId: row.key_id,
      accountId: row.acting_account_id ?? row.account_id,
      livemode: row.mode === 'live',
      scopes: new Set(row.scopes.filter(isScope)),
      requestsPerMinute: row.requests_per_minute,
    };
    return { principal, usedAtMs: await touchIfDue(row.key_id, row.last_used_at?.getTime() ?? null) };
  }

  /** Writes a key's lastUsedAt if the last write is a minute old; when it was last written. */
  async function touchIfDue(keyId: string, usedAtMs: number | null): Promise<number> {
    const now = clock.now();
    if (usedAtMs !== null && now.getTime() - usedAtMs <= TOUCH_INTERVAL_MS) return usedAtMs;
    await keyRepository.touch(db, keyId, now);
    return now.getTime();
  }

  return {
    /** `seal` runs in the minting transaction (the console's audit entry commits with the key). */
    async mint(
      accountId: string,
      input: KeyCreate,
      seal?: Seal<{ key: ApiKey; secret: string }>,
    ): Promise<{ key: ApiKey; secret: string }> {
      const unknown = input.scopes.filter((scope) => !isScope(scope));
      if (unknown.length > 0) {
        throw badRequest(`Unknown scope "${unknown[0]}"; scopes are ${SCOPES.join(', ')}.`, {
          field: 'scopes',
        });
      }
      const scopes = [...new Set(input.scopes)] as Scope[];
      const account = await accountRepository.find(db, accountId);
      if (!account?.livemode) throw notFound('Account');
      if (scopes.includes('applications:write') && account.dpa_accepted_at === null) {
        throw dpaRequired();
      }
      const now = clock.now();
      const mode = input.mode ?? 'live';
      const secret = SECRET_PREFIX[mode] + randomToken(32);
      return db.transaction().execute(async (trx) => {
        if (mode === 'test') await ensureTwin(trx, account, now);
        const row = await keyRepository.insert(trx, {
          id: newId('key', now),
          account_id: accountId,
          name: input.name ?? null,
          scopes,
          secret_hash: hashSecret(secret),
          mode,
          created_at: now,
          last_used_at: null,
          revoked_at: null,
        });
        const minted = { key: toKeyView(row), secret };
        await seal?.(trx, minted);
        return minted;
      });
    },

    async list(accountId: string): Promise<ApiKey[]> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      return (await keyRepository.listForAccount(db, accountId)).map(toKeyView);
    },

    /**
     * Revokes; answers once the revocation has committed and every listener (the guard, which
     * tells every instance through the rate-limit store) has been told.
     */
    async revoke(accountId: string, keyId: string, seal?: Seal<{ keyId: string }>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (!(await keyRepository.revoke(trx, accountId, keyId, clock.now()))) throw notFound('Key');
        await seal?.(trx, { keyId });
      });
      for (const listener of revocationListeners) await listener();
    },

    /** Told after a revocation commits, before the revocation answers. */
    onRevoked(listener: () => Promise<void>): void {
      revocationListeners.push(listener);
    },

    lookUpHash,
    touchIfDue,
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
