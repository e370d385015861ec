import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { ConsoleSessionsTable, ConsoleUsersTable } from '../../db/schema.ts';

export type ConsoleUserRow = Selectable<ConsoleUsersTable>;
export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;

/** The only SQL of console users, their invitations and their sessions. */
export const userRepository = {
  async insert(db: Db, row: Insertable<ConsoleUsersTable>): Promise<ConsoleUserRow> {
    return db.insertInto('console_users').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The account's user of this (lower-cased) address: one at most. */
  async byAccountEmail(db: Db, accountId: string, email: string): Promise<ConsoleUserRow | undefined> {
    return db
      .selectFrom('console_users')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('email', '=', email)
      .executeTakeFirst();
  },

  /** Every account's user of this (lower-cased) address that has set a password, oldest first. */
  async signableByEmail(db: Db, email: string): Promise<ConsoleUserRow[]> {
    return db
      .selectFrom('console_users')
      .selectAll()
      .where('email', '=', email)
      .where('password_hash', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  async find(
    db: Db,
    accountId: string,
    userId: string,
    forUpdate = false,
  ): Promise<ConsoleUserRow | undefined> {
    let query = db
      .selectFrom('console_users')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', userId);
    if (forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  async list(db: Db, accountId: string): Promise<ConsoleUserRow[]> {
    return db
      .selectFrom('console_users')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  },

  async countAdmins(db: Db, accountId: string): Promise<number> {
    const row = await db
      .selectFrom('console_users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .where('role', '=', 'admin')
      .where('password_hash', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async update(
    db: Db,
    userId: string,
    changes: Partial<Pick<ConsoleUserRow, 'role' | 'password_hash' | 'updated_at'>>,
  ): Promise<ConsoleUserRow> {
    return db
      .updateTable('console_users')
      .set(changes)
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Removes the user; its invitations and sessions go with it (ON DELETE CASCADE). */
  async delete(db: Db, userId: string): Promise<void> {
    await db.deleteFrom('console_users').where('id', '=', userId).execute();
  },

  async insertInvitation(
    db: Db,
    row: { token_hash: string; user_id: string; expires_at: Date; created_at: Date },
  ) {
    await db
      .insertInto('console_invitations')
      .values({ ...row, used_at: null })
      .execute();
  },

  async invitation(db: Db, tokenHash: string) {
    return db
      .selectFrom('console_invitations as i')
      .innerJoin('console_users as u', 'u.id', 'i.user_id')
      .select(['i.token_hash', 'i.expires_at', 'i.used_at', 'u.id as user_id', 'u.email', 'u.account_id'])
      .where('i.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  /** Uses the link up; false when it was used (or expired) meanwhile. */
  async useInvitation(db: Db, tokenHash: string, at: Date): Promise<boolean> {
    const used = await db
      .updateTable('console_invitations')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  },

  async insertSession(db: Db, row: ConsoleSessionRow): Promise<void> {
    await db.insertInto('console_sessions').values(row).execute();
  },

  async session(db: Db, idHash: string) {
    return db
      .selectFrom('console_sessions as s')
      .innerJoin('console_users as u', 'u.id', 's.user_id')
      .select([
        's.id_hash',
        's.csrf_token',
        's.last_seen_at',
        'u.id as user_id',
        'u.account_id',
        'u.email',
        'u.role',
      ])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst();
  },

  async touchSession(db: Db, idHash: string, at: Date): Promise<void> {
    await db
      .updateTable('console_sessions')
      .set({ last_seen_at: at })
      .where('id_hash', '=', idHash)
      .execute();
  },

  async deleteSession(db: Db, idHash: string): Promise<void> {
    await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
  },

  async deleteSessionsOf(db: Db, userId: string): Promise<void> {
    await db.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
  },

  async deleteIdleSessions(db: Db, idleSince: Date): Promise<number> {
    const result = await db
      .deleteFrom('console_sessions')
      .where('last_seen_at', '<=', idleSince)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
