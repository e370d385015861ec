import type { AuthoredJob } from '../../contract/job.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { type AccountRow, accountRepository } from '../accounts/account-repository.ts';
import { type FeedFilter, type JobRow, jobRepository } from './job-repository.ts';
import { companyOf, statusAt, toJobView } from './job-view.ts';

export type JobPage =
  | { kind: 'live' | 'closed'; job: AuthoredJob; account: AccountRow }
  | { kind: 'moved'; companyAddress: string }
  | { kind: 'missing' };

export type CareersPage =
  | { kind: 'page'; account: AccountRow; jobs: AuthoredJob[]; nextCursor: string | null; cursorRead: boolean }
  | { kind: 'moved'; companyAddress: string }
  | { kind: 'missing' };

export type ApplyTarget =
  | { kind: 'open'; job: AuthoredJob; account: AccountRow }
  | { kind: 'closed'; job: AuthoredJob; account: AccountRow }
  | { kind: 'missing' };

/** What anyone on the web may see: published, closed and expired roles at their hosted address. */
export function createPublicJobService(deps: { db: Db; clock: Clock; publicBaseUrl: string }) {
  const { db, clock, publicBaseUrl } = deps;
  const view = (row: JobRow, account: AccountRow) => toJobView(row, account, clock.now(), publicBaseUrl);

  return {
    async page(companyAddress: string, slug: string): Promise<JobPage> {
      const account = await accountRepository.findByAddress(db, companyAddress);
      if (!account) {
        const moved = await accountRepository.redirectFor(db, companyAddress);
        return moved?.current ? { kind: 'moved', companyAddress: moved.current } : { kind: 'missing' };
      }
      const row = await jobRepository.findBySlug(db, account.id, slug);
      if (!row) return { kind: 'missing' };
      return {
        kind: statusAt(row, clock.now()) === 'published' ? 'live' : 'closed',
        job: view(row, account),
        account,
      };
    },

    async applyTarget(jobId: string): Promise<ApplyTarget> {
      const row = await jobRepository.findPublicById(db, jobId);
      if (!row) return { kind: 'missing' };
      const account = await accountRepository.find(db, row.account_id);
      if (!account) return { kind: 'missing' };
      return {
        kind: statusAt(row, clock.now()) === 'published' ? 'open' : 'closed',
        job: view(row, account),
        account,
      };
    },

    /** The account at a company address (its embed script), if any. */
    async company(companyAddress: string): Promise<AccountRow | undefined> {
      return accountRepository.findByAddress(db, companyAddress);
    },

    /**
     * One company's careers page: its live roles, newest first, filtered like the feed. An
     * unreadable cursor (a mangled shared link) starts from the top (`cursorRead` false).
     */
    async careers(
      companyAddress: string,
      cursor: string | null,
      limit: number,
      filter: FeedFilter = {},
    ): Promise<CareersPage> {
      const account = await accountRepository.findByAddress(db, companyAddress);
      if (!account) {
        const moved = await accountRepository.redirectFor(db, companyAddress);
        return moved?.current ? { kind: 'moved', companyAddress: moved.current } : { kind: 'missing' };
      }
      const afterId = cursor === null ? null : decodeCursor(cursor);
      const now = clock.now();
      const rows = await jobRepository.liveFeed(db, afterId, limit + 1, now, filter, account.id);
      const page = rows.slice(0, limit);
      return {
        kind: 'page',
        account,
        jobs: page.map((row) => toJobView(row, companyOf(row), now, publicBaseUrl)),
        nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
        cursorRead: cursor === null || afterId !== null,
      };
    },

    /** The job seeker feed: live roles of every account with a company address, newest first. */
    async feed(
      cursor: string | null,
      limit: number,
      filter: FeedFilter = {},
    ): Promise<{ jobs: AuthoredJob[]; nextCursor: string | null } | null> {
      let afterId: string | null = null;
      if (cursor !== null) {
        afterId = decodeCursor(cursor);
        if (afterId === null) return null;
      }
      const rows = await jobRepository.liveFeed(db, afterId, limit + 1, clock.now(), filter);
      const page = rows.slice(0, limit);
      const now = clock.now();
      const jobs = page.map((row) => toJobView(row, companyOf(row), now, publicBaseUrl));
      return { jobs, nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null };
    },
  };
}

export type PublicJobService = ReturnType<typeof createPublicJobService>;
