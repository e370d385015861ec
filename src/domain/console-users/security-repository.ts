import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { ConsolePendingSignInsTable, ConsoleShownOnceTable } from '../../db/schema-console.ts';

/** The only SQL of the console's account safety: resets, TOTP, half-signed sign-ins, secrets shown once. */
export const securityRepository = {
  async requiresTotp(db: Db, accountId: string): Promise<boolean> {
    const row = await db
      .selectFrom('console_account_security')
      .select('require_totp')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.require_totp ?? false;
  },

  async setRequireTotp(db: Db, accountId: string, require: boolean, at: Date): Promise<void> {
    await db
      .insertInto('console_account_security')
      .values({ account_id: accountId, require_totp: require, updated_at: at })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ require_totp: require, updated_at: at }))
      .execute();
  },

  /** The account's users with TOTP on. */
  async totpUserIds(db: Db, accountId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('console_users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('totp_secret', 'is not', null)
      .execute();
    return rows.map((row) => row.id);
  },

  async userById(db: Db, userId: string) {
    return db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirst();
  },

  async setTotp(
    db: Db,
    userId: string,
    changes: {
      totp_secret?: string | null;
      totp_pending_secret?: string | null;
      totp_enabled_at?: Date | null;
      totp_last_step?: number;
      updated_at: Date;
    },
  ): Promise<void> {
    await db.updateTable('console_users').set(changes).where('id', '=', userId).execute();
  },

  /** Records `step` as used; false when a code of this step (or a later one) was used already. */
  async useStep(db: Db, userId: string, step: number): Promise<boolean> {
    const result = await db
      .updateTable('console_users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where('totp_last_step', '<', step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async insertReset(
    db: Db,
    row: { token_hash: string; user_id: string; expires_at: Date; created_at: Date },
  ) {
    await db
      .insertInto('console_password_resets')
      .values({ ...row, used_at: null })
      .execute();
  },

  async reset(db: Db, tokenHash: string) {
    return db
      .selectFrom('console_password_resets as r')
      .innerJoin('console_users as u', 'u.id', 'r.user_id')
      .select(['r.expires_at', 'r.used_at', 'u.id as user_id', 'u.email', 'u.account_id'])
      .where('r.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  /** Uses the link up; false when it was used (or expired) meanwhile. */
  async useReset(db: Db, tokenHash: string, at: Date): Promise<boolean> {
    const used = await db
      .updateTable('console_password_resets')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  },

  /** Every other open reset link of the user ends with the one used. */
  async closeResetsOf(db: Db, userId: string, at: Date): Promise<void> {
    await db
      .updateTable('console_password_resets')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  },

  async insertPending(db: Db, row: Insertable<ConsolePendingSignInsTable>): Promise<void> {
    await db.insertInto('console_pending_sign_ins').values(row).execute();
  },

  async pending(db: Db, idHash: string) {
    return db
      .selectFrom('console_pending_sign_ins as p')
      .innerJoin('console_users as u', 'u.id', 'p.user_id')
      .select([
        'p.id_hash',
        'p.step',
        'p.failures',
        'p.expires_at',
        'u.id as user_id',
        'u.email',
        'u.account_id',
        'u.totp_secret',
        'u.totp_pending_secret',
      ])
      .where('p.id_hash', '=', idHash)
      .executeTakeFirst();
  },

  async countPendingFailure(db: Db, idHash: string): Promise<number> {
    const row = await db
      .updateTable('console_pending_sign_ins')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('id_hash', '=', idHash)
      .returning('failures')
      .executeTakeFirst();
    return row?.failures ?? Number.POSITIVE_INFINITY;
  },

  async deletePending(db: Db, idHash: string): Promise<void> {
    await db.deleteFrom('console_pending_sign_ins').where('id_hash', '=', idHash).execute();
  },

  async insertShownOnce(db: Db, row: Insertable<ConsoleShownOnceTable>): Promise<void> {
    await db.insertInto('console_shown_once').values(row).execute();
  },

  /** Takes the secret out (the row is deleted as it is read): a second read finds nothing. */
  async takeShownOnce(db: Db, idHash: string, userId: string, kind: 'key' | 'webhook', at: Date) {
    return db
      .deleteFrom('console_shown_once')
      .where('id_hash', '=', idHash)
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('expires_at', '>', at)
      .returning(['label', 'sealed'])
      .executeTakeFirst();
  },

  /** Retention: expired resets, half-signed sign-ins and secrets never shown. */
  async sweep(db: Db, at: Date): Promise<number> {
    const results = await Promise.all([
      db.deleteFrom('console_password_resets').where('expires_at', '<=', at).executeTakeFirst(),
      db.deleteFrom('console_pending_sign_ins').where('expires_at', '<=', at).executeTakeFirst(),
      db.deleteFrom('console_shown_once').where('expires_at', '<=', at).executeTakeFirst(),
    ]);
    return results.reduce((sum, r) => sum + Number(r.numDeletedRows), 0);
  },
};
