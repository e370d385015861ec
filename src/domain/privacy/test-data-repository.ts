import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

/** What an account's test twin holds, row by row, in the order foreign keys allow deleting it. */
const TWIN_TABLES = [
  'application_notes',
  'demographic_answers',
  'matches',
  'match_profiles',
  'screenings',
  'virtual_cvs',
  'webhook_deliveries',
  'events',
  'applications',
  'candidates',
  'uploads',
  'idempotency_records',
  'erasure_receipts',
  // Matching's oversight records of test roles and test people: test data like the rest.
  'match_decisions',
  'match_opt_outs',
] as const;

export interface TestDataCounts {
  jobs: number;
  applications: number;
  candidates: number;
  uploads: number;
  events: number;
}

export const testDataRepository = {
  async subjects(db: Db, twinId: string): Promise<{ applications: string[]; candidates: string[] }> {
    const apps = await db.selectFrom('applications').select('id').where('account_id', '=', twinId).execute();
    const cands = await db.selectFrom('candidates').select('id').where('account_id', '=', twinId).execute();
    return { applications: apps.map((r) => r.id), candidates: cands.map((r) => r.id) };
  },

  /** Every upload of the twin: each one's file is stored under its id. */
  async uploadIds(db: Db, twinId: string): Promise<string[]> {
    return (await db.selectFrom('uploads').select('id').where('account_id', '=', twinId).execute()).map(
      (r) => r.id,
    );
  },

  async counts(db: Db, twinId: string): Promise<TestDataCounts> {
    const counted = async (table: string) =>
      Number(
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE account_id = ${twinId}`.execute(db)
        ).rows[0]!.n,
      );
    return {
      jobs: await counted('jobs'),
      applications: await counted('applications'),
      candidates: await counted('candidates'),
      uploads: await counted('uploads'),
      events: await counted('events'),
    };
  },

  /** Deletes every row of the twin's data (the twin itself, and the live account's keys and webhooks, stay). */
  async deleteAll(db: Db, twinId: string): Promise<TestDataCounts> {
    const counts = await testDataRepository.counts(db, twinId);
    await sql`DELETE FROM claim_links WHERE subject_id IN (
        SELECT id FROM applications WHERE account_id = ${twinId}
        UNION ALL SELECT id FROM candidates WHERE account_id = ${twinId})`.execute(db);
    for (const table of ['match_runs', 'match_role_vectors', 'job_page_views'])
      await sql`DELETE FROM ${sql.table(table)} WHERE job_id IN (SELECT id FROM jobs WHERE account_id = ${twinId})`.execute(
        db,
      );
    for (const table of TWIN_TABLES)
      await sql`DELETE FROM ${sql.table(table)} WHERE account_id = ${twinId}`.execute(db);
    await sql`DELETE FROM jobs WHERE account_id = ${twinId}`.execute(db);
    return counts;
  },
};
