import { createHash } from 'node:crypto';
import type { ApiKey, KeyCreate } from '../../contract/console.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { badRequest, dpaRequired, notFound } from '../errors.ts';
import type { Seal } from '../seal.ts';
import { type ApiKeyRow, keyRepository } from './key-repository.ts';
import { isScope, SCOPES, type Scope } from './scopes.ts';

export interface Principal {
  keyId: string;
  accountId: string;
  scopes: ReadonlySet<Scope>;
  requestsPerMinute: number;
}

const SECRET_PREFIX = 'cak_';

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
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

export function createKeyService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /**
   * As authenticate, given the secret's SHA-256 (the guard has it already: it counts by it). The
   * lookup is an index probe on the hash, whose timing says nothing about the secret.
   */
  async function authenticateHash(secretHash: string): Promise<Principal | null> {
    const row = await keyRepository.findLiveByHash(db, secretHash);
    if (!row) return null;
    const now = clock.now();
    if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
      await keyRepository.touch(db, row.key_id, now);
    }
    return {
      keyId: row.key_id,
      accountId: row.account_id,
      scopes: new Set(row.scopes.filter(isScope)),
      requestsPerMinute: row.requests_per_minute,
    };
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
      if (!account) throw notFound('Account');
      if (scopes.includes('applications:write') && account.dpa_accepted_at === null) {
        throw dpaRequired();
      }
      const now = clock.now();
      const secret = SECRET_PREFIX + randomToken(32);
      return db.transaction().execute(async (trx) => {
        const row = await keyRepository.insert(trx, {
          id: newId('key', now),
          account_id: accountId,
          name: input.name ?? null,
          scopes,
          secret_hash: hashSecret(secret),
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

    async revoke(accountId: string, keyId: string, seal?: Seal<{ keyId: string }>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (!(await keyRepository.revoke(trx, accountId, keyId, clock.now()))) throw notFound('Key');
        await seal?.(trx, { keyId });
      });
    },

    /**
     * The principal behind a presented secret, read from the database on every request so that a
     * revocation holds from the next request on every instance.
     */
    async authenticate(secret: string): Promise<Principal | null> {
      if (!plausibleSecret(secret)) return null;
      return authenticateHash(hashSecret(secret));
    },

    authenticateHash,
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
