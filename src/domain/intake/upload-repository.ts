import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { UploadsTable } from '../../db/schema.ts';

export type UploadRow = Selectable<UploadsTable>;

export const uploadRepository = {
  async insert(db: Db, row: UploadRow): Promise<UploadRow> {
    return db.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Db, accountId: string, id: string): Promise<UploadRow | undefined> {
    return db
      .selectFrom('uploads')
      .selectAll()
      .where('account_id', '=', accountId)
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

  /** Spends the upload; false when another request spent it first. */
  async markUsed(db: Db, accountId: string, id: string, at: Date): Promise<boolean> {
    const row = await db
      .updateTable('uploads')
      .set({ used_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
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

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('uploads').where('id', '=', id).execute();
  },
};
