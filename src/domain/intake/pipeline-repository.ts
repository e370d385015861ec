import { type Expression, type Selectable, type SqlBool, sql } from 'kysely';
import type { ApplicationSort, Stage } from '../../contract/pipeline.ts';
import type { Db } from '../../db/connect.ts';
import type { ApplicationNotesTable } from '../../db/schema-pipeline.ts';
import type { ApplicationRow } from './application-repository.ts';

export type NoteRow = Selectable<ApplicationNotesTable>;

/** A page's filters, as the service read them (the job is the account's). */
export interface ListFilter {
  jobId: string;
  /** Part of the name or the email, any case: already lower-cased. */
  q: string | null;
  stage: Stage | null;
  source: string | null;
  cvStatus: ApplicationRow['cv_status'] | null;
  /** The stored answers contain this JSON (answer-filter.ts): one answer's value. */
  answer: string | null;
}

/** Where the previous page stopped: the sort key (an instant in ms, or a lower-cased name) and the id. */
export interface ListPosition {
  key: string | number;
  id: string;
}

/** A row of the list: the application and its sort key by name. */
export type ListRow = ApplicationRow & { name_key: string };

/** `%` and `_` and `\` stand for themselves in a LIKE pattern. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The only SQL of the pipeline: the list's pages and counts, stage moves, notes. */
export const pipelineRepository = {
  /**
   * One page in the sort's order, keyset on (sort key, id) so that every application is on exactly
   * one page however the rows move between requests (a moved stage only leaves a filtered list).
   */
  async page(
    db: Db,
    accountId: string,
    filter: ListFilter,
    sort: ApplicationSort,
    after: ListPosition | null,
    limit: number,
  ): Promise<ListRow[]> {
    const nameKey = sql<string>`coalesce(lower(name), '')`;
    let query = db
      .selectFrom('applications')
      .selectAll()
      .select(nameKey.as('name_key'))
      .where('account_id', '=', accountId)
      .where('job_id', '=', filter.jobId);
    if (filter.stage) query = query.where('stage', '=', filter.stage);
    if (filter.source) query = query.where('source_channel', '=', filter.source);
    if (filter.cvStatus) query = query.where('cv_status', '=', filter.cvStatus);
    if (filter.answer) query = query.where(sql<SqlBool>`answers @> ${filter.answer}::jsonb`);
    if (filter.q) {
      const pattern = likeText(filter.q);
      query = query.where((eb) =>
        eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(email)`, 'like', pattern)]),
      );
    }
    if (after) {
      const cond: Expression<SqlBool> =
        sort === 'name'
          ? sql<SqlBool>`(coalesce(lower(name), ''), id) > (${String(after.key)}, ${after.id})`
          : sort === 'oldest'
            ? sql<SqlBool>`(created_at, id) > (${new Date(Number(after.key))}, ${after.id})`
            : sql<SqlBool>`(created_at, id) < (${new Date(Number(after.key))}, ${after.id})`;
      query = query.where(cond);
    }
    if (sort === 'name') query = query.orderBy(nameKey).orderBy('id');
    else if (sort === 'oldest') query = query.orderBy('created_at').orderBy('id');
    else query = query.orderBy('created_at', 'desc').orderBy('id', 'desc');
    return query.limit(limit).execute();
  },

  /** The job's applications by stage, whatever the filters. */
  async countByStage(db: Db, accountId: string, jobId: string): Promise<{ stage: Stage; n: number }[]> {
    return db
      .selectFrom('applications')
      .select(['stage', sql<number>`count(*)::int`.as('n')])
      .where('account_id', '=', accountId)
      .where('job_id', '=', jobId)
      .groupBy('stage')
      .execute();
  },

  /** The channels the job's applications came by (the filter's choices). */
  async channels(db: Db, accountId: string, jobId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('applications')
      .select('source_channel')
      .distinct()
      .where('account_id', '=', accountId)
      .where('job_id', '=', jobId)
      .orderBy('source_channel')
      .execute();
    return rows.map((row) => row.source_channel);
  },

  /** The account's application, locked for the move. */
  async lockOne(db: Db, accountId: string, id: string): Promise<ApplicationRow | undefined> {
    return db
      .selectFrom('applications')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },

  /** Moves those of `ids` that are the job's and not yet at `stage`; answers the ids moved. */
  async moveStage(
    db: Db,
    accountId: string,
    jobId: string | null,
    ids: readonly string[],
    stage: Stage,
    at: Date,
  ): Promise<{ id: string; job_id: string }[]> {
    if (ids.length === 0) return [];
    let query = db
      .updateTable('applications')
      .set({ stage, stage_changed_at: at, updated_at: at })
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .where('stage', '<>', stage);
    if (jobId !== null) query = query.where('job_id', '=', jobId);
    return query.returning(['id', 'job_id']).execute();
  },

  async insertNote(db: Db, row: NoteRow): Promise<NoteRow> {
    return db.insertInto('application_notes').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async notes(db: Db, applicationId: string): Promise<NoteRow[]> {
    return db
      .selectFrom('application_notes')
      .selectAll()
      .where('application_id', '=', applicationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  /** Erased with the application (the one erasure routine calls this). */
  async eraseNotes(db: Db, applicationId: string): Promise<void> {
    await db.deleteFrom('application_notes').where('application_id', '=', applicationId).execute();
  },

  /** The notes of these applications, for an access export. */
  async notesOf(db: Db, applicationIds: string[]): Promise<NoteRow[]> {
    if (applicationIds.length === 0) return [];
    return db
      .selectFrom('application_notes')
      .selectAll()
      .where('application_id', 'in', applicationIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },
};
