import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

export type PageKind = 'job_page' | 'apply_page';

/** One pending count: `count` views of `kind` of `jobId` on `day` (UTC, YYYY-MM-DD). */
export interface ViewCount {
  jobId: string;
  day: string;
  kind: PageKind;
  count: number;
}

export const pageViewRepository = {
  /**
   * Adds the counts in one statement: an upsert that adds to the row of (job, day, page), so any
   * number of instances flushing at once only ever add. Views of a job that no longer exists
   * (erased between the view and the flush) are dropped by the join, not refused.
   */
  async add(db: Db, counts: readonly ViewCount[]): Promise<void> {
    if (counts.length === 0) return;
    const rows = sql.join(
      counts.map((c) => sql`(${c.jobId}, ${c.day}::date, ${c.kind}, ${c.count}::bigint)`),
    );
    await sql`INSERT INTO job_page_views (job_id, day, kind, count)
      SELECT v.job_id, v.day, v.kind, v.count FROM (VALUES ${rows}) AS v (job_id, day, kind, count)
      JOIN jobs j ON j.id = v.job_id
      ORDER BY v.job_id, v.day, v.kind
      ON CONFLICT (job_id, day, kind) DO UPDATE SET count = job_page_views.count + EXCLUDED.count`.execute(
      db,
    );
  },
};
