import type { ColumnType } from 'kysely';

/** Row types of the Home page's counts (migration 134). */

export interface JobPageViewsTable {
  job_id: string;
  /** The UTC day, 'YYYY-MM-DD'. */
  day: ColumnType<string, string, string>;
  kind: 'job_page' | 'apply_page';
  /** bigint: read as a string by node-postgres, a number by PGlite; use Number(). */
  count: ColumnType<string | number, number, never>;
}

export interface InsightTables {
  job_page_views: JobPageViewsTable;
}
