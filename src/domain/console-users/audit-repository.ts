import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { ConsoleAuditTable } from '../../db/schema.ts';

export type AuditRow = Selectable<ConsoleAuditTable>;

/** The only SQL of the console's audit trail. */
export const auditRepository = {
  async insert(db: Db, row: AuditRow): Promise<void> {
    await db
      .insertInto('console_audit')
      .values({ ...row, detail: JSON.stringify(row.detail) })
      .execute();
  },

  /** Newest first; `beforeId` continues a page. */
  async list(db: Db, accountId: string, limit: number, beforeId: string | null): Promise<AuditRow[]> {
    let query = db
      .selectFrom('console_audit')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit);
    if (beforeId !== null) query = query.where('id', '<', beforeId);
    return query.execute();
  },
};
