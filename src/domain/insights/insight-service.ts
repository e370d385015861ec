import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { notFound } from '../errors.ts';
import { insightRepository } from './insight-repository.ts';

/** Home's window: the last 30 UTC days, today included. */
export const SUMMARY_DAYS = 30;
const DAY_MS = 86_400_000;

/** The account at a glance (extensions.md §4, Home), as the page and the console API show it. */
export interface AccountSummary {
  /** First and last UTC day of the window (YYYY-MM-DD). */
  from: string;
  to: string;
  openJobs: number;
  /** One entry per day of the window, oldest first, zero days included. */
  applicationsByDay: { day: string; count: number }[];
  /** The window's applications by their channel (`applications.source_channel`), most first. */
  applicationsBySource: { source: string; count: number }[];
  funnel: {
    jobPageViews: number;
    applyPageViews: number;
    applications: number;
    cvsClaimed: number;
    screenings: number;
  };
}

export interface JobCounts {
  total: number;
  new: number;
}

export function createInsightService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async summary(accountId: string): Promise<AccountSummary> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      const now = clock.now();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const since = new Date(today - (SUMMARY_DAYS - 1) * DAY_MS);
      const [openJobs, byDay, bySource, funnel] = await Promise.all([
        insightRepository.openJobs(db, accountId, now),
        insightRepository.applicationsByDay(db, accountId, since),
        insightRepository.applicationsBySource(db, accountId, since),
        insightRepository.funnel(db, accountId, since),
      ]);
      const counted = new Map(byDay.map((row) => [row.day, row.n]));
      const applicationsByDay = Array.from({ length: SUMMARY_DAYS }, (_, i) => {
        const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return { day, count: counted.get(day) ?? 0 };
      });
      return {
        from: applicationsByDay[0]!.day,
        to: applicationsByDay.at(-1)!.day,
        openJobs,
        applicationsByDay,
        applicationsBySource: bySource.map((row) => ({ source: row.source, count: row.n })),
        funnel: {
          jobPageViews: funnel.job_views,
          applyPageViews: funnel.apply_views,
          applications: funnel.applications,
          cvsClaimed: funnel.claimed,
          screenings: funnel.screenings,
        },
      };
    },

    /** Applications per job of the account (in all, and still new), in one grouped statement. */
    async jobCounts(accountId: string): Promise<Map<string, JobCounts>> {
      const rows = await insightRepository.jobCounts(db, accountId);
      return new Map(rows.map((row) => [row.job_id, { total: row.total, new: row.fresh }]));
    },
  };
}

export type InsightService = ReturnType<typeof createInsightService>;
