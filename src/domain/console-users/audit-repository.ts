import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { ConsoleAuditTable } from '../../db/schema.ts';

export type AuditRow = Selectable<ConsoleAuditTable>;

/** The only SQL of the console's audit trail. */
export const auditRepository = {
  async insert(db: Db, row: Omit<AuditRow, 'seq'>): Promise<void> {
    await db
      .insertInto('console_audit')
      .values({ ...row, detail: JSON.stringify(row.detail) })
      .execute();
  },

  /** Newest first (in write order); `beforeSeq` continues a page. */
  async list(db: Db, accountId: string, limit: number, beforeSeq: string | null): Promise<AuditRow[]> {
    let query = db
      .selectFrom('console_audit')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('seq', 'desc')
      .limit(limit);
    if (beforeSeq !== null) query = query.where('seq', '<', beforeSeq);
    return query.execute();
  },
};
