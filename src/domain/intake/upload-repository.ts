import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { UploadsTable } from '../../db/schema.ts';

export type UploadRow = Selectable<UploadsTable>;

/** An account's uploads, or (null) the platform's own (a platform person's CV, issue 19). */
export type UploadHolder = string | null;

export const uploadRepository = {
  async insert(db: Db, row: UploadRow): Promise<UploadRow> {
    return db.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Db, accountId: UploadHolder, id: string): Promise<UploadRow | undefined> {
    return db
      .selectFrom('uploads')
      .selectAll()
      .where('account_id', accountId === null ? 'is' : '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** Records the file's arrival; answers whether the upload was already spent by then. */
  async markReceived(db: Db, id: string, at: Date): Promise<{ spent: boolean }> {
    await db
      .updateTable('uploads')
      .set({ received_at: at })
      .where('id', '=', id)
      .where('received_at', 'is', null)
      .execute();
    const row = await db.selectFrom('uploads').select('used_at').where('id', '=', id).executeTakeFirst();
    return { spent: row?.used_at != null };
  },

  /**
   * Spends the upload; false when another request spent it first. Its label and client-address
   * bucket go at once: nothing reads them once used (issue 25.1).
   */
  async markUsed(db: Db, accountId: UploadHolder, id: string, at: Date): Promise<boolean> {
    const row = await db
      .updateTable('uploads')
      .set({ used_at: at, file_name: null, client_bucket: null })
      .where('account_id', accountId === null ? 'is' : '=', accountId)
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Bytes reserved by uploads not yet spent nor expired, of an account's API or hosted uploads or
   * of one client-address bucket, and when the first of them expires.
   */
  async outstanding(
    db: Db,
    by: { accountId: UploadHolder; hosted: boolean } | { bucket: string },
    now: Date,
  ): Promise<{ bytes: number; firstExpiry: Date | null }> {
    let query = db
      .selectFrom('uploads')
      .select([
        sql<number>`coalesce(sum(bytes), 0)::float8`.as('bytes'),
        sql<Date | null>`min(expires_at)`.as('first_expiry'),
      ])
      .where('used_at', 'is', null)
      .where('expires_at', '>', now);
    query =
      'bucket' in by
        ? query.where('client_bucket', '=', by.bucket)
        : query
            .where('account_id', by.accountId === null ? 'is' : '=', by.accountId)
            .where('hosted', '=', by.hosted);
    const row = await query.executeTakeFirstOrThrow();
    return {
      bytes: Number(row.bytes),
      firstExpiry: row.first_expiry === null ? null : new Date(row.first_expiry),
    };
  },

  async expiredUnused(db: Db, now: Date, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('uploads')
      .select('id')
      .where('used_at', 'is', null)
      .where('expires_at', '<=', now)
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  },

  /**
   * Deletes rows of uploads used and past their lifetime (the id is then refused as never issued);
   * their files belong to what used them. Answers how many went.
   */
  async deleteUsedExpired(db: Db, now: Date, limit: number): Promise<number> {
    const rows = await db
      .deleteFrom('uploads')
      .where(
        'id',
        'in',
        db
          .selectFrom('uploads')
          .select('id')
          .where('used_at', 'is not', null)
          .where('expires_at', '<=', now)
          .limit(limit),
      )
      .returning('id')
      .execute();
    return rows.length;
  },

  async delete(db: Db, ids: string | string[]): Promise<void> {
    const list = Array.isArray(ids) ? ids : [ids];
    if (list.length === 0) return;
    await db.deleteFrom('uploads').where('id', 'in', list).execute();
  },
};
