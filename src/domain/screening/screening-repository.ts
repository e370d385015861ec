import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { ScreeningsTable, ScreeningTemplatesTable } from '../../db/schema.ts';

export type TemplateRow = Selectable<ScreeningTemplatesTable>;
export type ScreeningRow = Selectable<ScreeningsTable>;

// A screening is open while `invited` and before `complete_by`; expiry is computed, never written.
export const screeningRepository = {
  /** What screening needs to know of a candidate id: an application of the account, or an import. */
  async candidateFacts(db: Db, accountId: string, candidateId: string) {
    const application = await db
      .selectFrom('applications')
      .select(['job_id', 'status', 'cv_status', 'email'])
      .where('account_id', '=', accountId)
      .where('id', '=', candidateId)
      .executeTakeFirst();
    const imported = application
      ? undefined
      : await db
          .selectFrom('candidates')
          .select(['cv_status', 'email'])
          .where('account_id', '=', accountId)
          .where('id', '=', candidateId)
          .executeTakeFirst();
    return { application, imported };
  },

  async byId(db: Db, id: string): Promise<ScreeningRow | undefined> {
    return db.selectFrom('screenings').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async insertTemplate(db: Db, row: Insertable<ScreeningTemplatesTable>): Promise<TemplateRow> {
    return db.insertInto('screening_templates').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async templates(db: Db, accountId: string): Promise<TemplateRow[]> {
    return db
      .selectFrom('screening_templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  },

  /** One of the account's templates; a test twin (extensions.md §8) uses its live account's. */
  async template(db: Db, accountId: string, id: string): Promise<TemplateRow | undefined> {
    return db
      .selectFrom('screening_templates')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('account_id', '=', accountId),
          eb(
            'account_id',
            '=',
            eb.selectFrom('accounts').select('live_account_id').where('id', '=', accountId),
          ),
        ]),
      )
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async updateTemplate(
    db: Db,
    accountId: string,
    id: string,
    changes: Partial<Insertable<ScreeningTemplatesTable>>,
  ): Promise<TemplateRow | undefined> {
    return db
      .updateTable('screening_templates')
      .set(changes)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  async insert(db: Db, row: Insertable<ScreeningsTable>): Promise<ScreeningRow> {
    return db.insertInto('screenings').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Db, accountId: string, id: string): Promise<ScreeningRow | undefined> {
    return db
      .selectFrom('screenings')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async openFor(db: Db, jobId: string, candidateId: string, now: Date): Promise<ScreeningRow | undefined> {
    return db
      .selectFrom('screenings')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('candidate_id', '=', candidateId)
      .where((eb) => eb.and([eb('status', '=', 'invited'), eb('complete_by', '>', now)]))
      .executeTakeFirst();
  },

  /** Included screenings used in the ad's current managing period: open or completed ones. */
  async includedUsed(db: Db, jobId: string, managedSince: Date, now: Date): Promise<number> {
    const row = await db
      .selectFrom('screenings')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('job_id', '=', jobId)
      .where('billing', '=', 'included')
      .where('managed_since', '=', managedSince)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'completed'),
          eb.and([eb('status', '=', 'invited'), eb('complete_by', '>', now)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /**
   * The overage committed against this month's cap, in one currency: completed this month, plus
   * open overage screenings that may still complete.
   */
  async committedOverage(
    db: Db,
    accountId: string,
    currency: ScreeningRow['currency'],
    monthStart: Date,
    monthEnd: Date,
    now: Date,
  ): Promise<number> {
    const row = await db
      .selectFrom('screenings')
      .select(sql<number>`coalesce(sum(price_cents), 0)::int`.as('n'))
      .where('account_id', '=', accountId)
      .where('billing', '=', 'overage')
      .where('currency', '=', currency)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', 'completed'),
            eb('completed_at', '>=', monthStart),
            eb('completed_at', '<', monthEnd),
          ]),
          eb.and([eb('status', '=', 'invited'), eb('complete_by', '>', now)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** Unsolicited invitations of one person by the account since `since`, oldest first. */
  async contactsSince(db: Db, accountId: string, candidateId: string, since: Date): Promise<Date[]> {
    const rows = await db
      .selectFrom('screenings')
      .select('requested_at')
      .where('account_id', '=', accountId)
      .where('candidate_id', '=', candidateId)
      .where('unsolicited', '=', true)
      .where('requested_at', '>', since)
      .orderBy('requested_at')
      .execute();
    return rows.map((row) => row.requested_at);
  },

  async complete(db: Db, accountId: string, id: string, now: Date): Promise<ScreeningRow | undefined> {
    return db
      .updateTable('screenings')
      .set({ status: 'completed', completed_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where((eb) => eb.and([eb('status', '=', 'invited'), eb('complete_by', '>', now)]))
      .returningAll()
      .executeTakeFirst();
  },

  /** The role closed: its open screenings are cancelled (never billed). */
  async cancelOpenForJob(db: Db, jobId: string, now: Date): Promise<number> {
    const result = await db
      .updateTable('screenings')
      .set({ status: 'cancelled', cancelled_at: now })
      .where('job_id', '=', jobId)
      .where((eb) => eb.and([eb('status', '=', 'invited'), eb('complete_by', '>', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  async forMonth(db: Db, accountId: string, monthStart: Date, monthEnd: Date): Promise<ScreeningRow[]> {
    return db
      .selectFrom('screenings')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          eb.and([eb('requested_at', '>=', monthStart), eb('requested_at', '<', monthEnd)]),
          eb.and([eb('completed_at', '>=', monthStart), eb('completed_at', '<', monthEnd)]),
        ]),
      )
      .orderBy('requested_at')
      .execute();
  },
};
