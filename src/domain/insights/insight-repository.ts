import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

/** Per job of an account: applications in all, and those still at stage 'new'. */
export interface JobCountsRow {
  job_id: string;
  total: number;
  fresh: number;
}

/** The SQL of Home and of the Jobs list's counts: each figure one grouped statement. */
export const insightRepository = {
  async jobCounts(db: Db, accountId: string): Promise<JobCountsRow[]> {
    const result = await sql<JobCountsRow>`SELECT job_id, count(*)::int AS total,
        (count(*) FILTER (WHERE stage = 'new'))::int AS fresh
      FROM applications WHERE account_id = ${accountId} GROUP BY job_id`.execute(db);
    return result.rows;
  },

  async openJobs(db: Db, accountId: string, now: Date): Promise<number> {
    const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs
      WHERE account_id = ${accountId} AND status = 'published'
        AND (expires_at IS NULL OR expires_at > ${now})`.execute(db);
    return result.rows[0]?.n ?? 0;
  },

  /** Applications per UTC day from `since` on (days without any are absent). */
  async applicationsByDay(db: Db, accountId: string, since: Date): Promise<{ day: string; n: number }[]> {
    const result = await sql<{ day: string; n: number }>`SELECT
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM applications WHERE account_id = ${accountId} AND created_at >= ${since}
      GROUP BY 1 ORDER BY 1`.execute(db);
    return result.rows;
  },

  async applicationsBySource(
    db: Db,
    accountId: string,
    since: Date,
  ): Promise<{ source: string; n: number }[]> {
    const result = await sql<{ source: string; n: number }>`SELECT source_channel AS source,
        count(*)::int AS n
      FROM applications WHERE account_id = ${accountId} AND created_at >= ${since}
      GROUP BY 1 ORDER BY 2 DESC, 1`.execute(db);
    return result.rows;
  },

  /** The funnel's figures from `since` on (views from its UTC day on). */
  async funnel(
    db: Db,
    accountId: string,
    since: Date,
  ): Promise<{
    job_views: number;
    apply_views: number;
    applications: number;
    claimed: number;
    screenings: number;
  }> {
    const day = since.toISOString().slice(0, 10);
    const result = await sql<{
      job_views: number;
      apply_views: number;
      applications: number;
      claimed: number;
      screenings: number;
    }>`SELECT
        (SELECT coalesce(sum(v.count) FILTER (WHERE v.kind = 'job_page'), 0)::int
          FROM job_page_views v JOIN jobs j ON j.id = v.job_id
          WHERE j.account_id = ${accountId} AND v.day >= ${day}::date) AS job_views,
        (SELECT coalesce(sum(v.count) FILTER (WHERE v.kind = 'apply_page'), 0)::int
          FROM job_page_views v JOIN jobs j ON j.id = v.job_id
          WHERE j.account_id = ${accountId} AND v.day >= ${day}::date) AS apply_views,
        (SELECT count(*)::int FROM applications
          WHERE account_id = ${accountId} AND created_at >= ${since}) AS applications,
        (SELECT count(*)::int FROM applications
          WHERE account_id = ${accountId} AND created_at >= ${since} AND claimed_at IS NOT NULL) AS claimed,
        (SELECT count(*)::int FROM screenings
          WHERE account_id = ${accountId} AND candidate_kind = 'application'
            AND requested_at >= ${since}) AS screenings`.execute(db);
    return result.rows[0]!;
  },
};
