import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { ApplicationsTable } from '../../db/schema.ts';

export type ApplicationRow = Selectable<ApplicationsTable>;

export const applicationRepository = {
  async insert(db: Db, row: Insertable<ApplicationsTable>): Promise<ApplicationRow> {
    return db.insertInto('applications').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Db, accountId: string, id: string): Promise<ApplicationRow | undefined> {
    return db
      .selectFrom('applications')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async findByAddress(db: Db, jobId: string, emailKey: string): Promise<ApplicationRow | undefined> {
    return db
      .selectFrom('applications')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
  },

  /**
   * An application of the account's whose CV the account still holds for this address (being
   * built, staged or claimed): a candidate import of the same address is then `already_imported`.
   */
  async findHeldCv(
    db: Db,
    accountId: string,
    emailKey: string,
  ): Promise<Pick<ApplicationRow, 'id'> | undefined> {
    return db
      .selectFrom('applications')
      .select('id')
      .where('account_id', '=', accountId)
      .where('email_key', '=', emailKey)
      .where('cv_status', 'in', ['processing', 'staged', 'claimed'])
      .orderBy('created_at')
      .executeTakeFirst();
  },

  /** processing → claimed for an application that stands on the person's own account CV. */
  async markStandingOnAccount(
    db: Db,
    id: string,
    at: Date,
  ): Promise<Pick<ApplicationRow, 'id' | 'account_id' | 'job_id'> | undefined> {
    return db
      .updateTable('applications')
      .set({ cv_status: 'claimed', claimed_at: at, updated_at: at })
      .where('id', '=', id)
      .where('cv_status', '=', 'processing')
      .returning(['id', 'account_id', 'job_id'])
      .executeTakeFirst();
  },

  async countSince(
    db: Db,
    by: { accountId: string } | { jobId: string },
    since: Date,
    sources?: readonly string[],
  ): Promise<number> {
    let query = db
      .selectFrom('applications')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('created_at', '>=', since);
    if (sources) query = query.where('source', 'in', sources);
    query =
      'accountId' in by ? query.where('account_id', '=', by.accountId) : query.where('job_id', '=', by.jobId);
    return (await query.executeTakeFirstOrThrow()).n;
  },
};
