import type { Selectable } from 'kysely';
import { compiledStatement } from '../../db/compiled.ts';
import type { Db } from '../../db/connect.ts';
import type { ApiKeysTable } from '../../db/schema.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export interface KeyPrincipalRow {
  key_id: string;
  account_id: string;
  scopes: string[];
  mode: 'live' | 'test';
  /** A test key's account: the live account's test twin; null for a live key. */
  acting_account_id: string | null;
  last_used_at: Date | null;
  requests_per_minute: number;
}

// Every request runs it: compiled once.
const findLiveByHash = compiledStatement<KeyPrincipalRow, 'secretHash'>((db, param) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .leftJoin('accounts as t', (join) =>
      join.onRef('t.live_account_id', '=', 'k.account_id').on('k.mode', '=', 'test'),
    )
    .select([
      'k.id as key_id',
      'k.account_id',
      'k.scopes',
      'k.mode',
      't.id as acting_account_id',
      'k.last_used_at',
      'a.requests_per_minute',
    ])
    .where('k.secret_hash', '=', param('secretHash'))
    .where('k.revoked_at', 'is', null),
);

export const keyRepository = {
  async insert(db: Db, row: ApiKeyRow): Promise<ApiKeyRow> {
    return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async listForAccount(db: Db, accountId: string): Promise<ApiKeyRow[]> {
    return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  },

  async revoke(db: Db, accountId: string, keyId: string, at: Date): Promise<boolean> {
    const row = await db
      .updateTable('api_keys')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
      .where('account_id', '=', accountId)
      .where('id', '=', keyId)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** A live key by the hash of its secret, with what each request needs of its account. */
  async findLiveByHash(db: Db, secretHash: string): Promise<KeyPrincipalRow | undefined> {
    return (await findLiveByHash(db, { secretHash }))[0];
  },

  async touch(db: Db, keyId: string, at: Date): Promise<void> {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
  },
};
