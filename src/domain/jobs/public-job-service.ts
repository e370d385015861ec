import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import type { AuthoredJob } from '../../contract/job.ts';
import type { AccountRow } from '../accounts/account-repository.ts';
import type { JobRow } from './job-repository.ts';
import { statusAt, toJobView } from './job-view.ts';

export type JobPage =
  | { kind: 'live' | 'closed'; job: AuthoredJob; account: AccountRow }
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
      const account = await db
        .selectFrom('accounts')
        .selectAll()
        .where('company_address', '=', companyAddress)
        .executeTakeFirst();
      if (!account) {
        const moved = await db
          .selectFrom('company_address_history as h')
          .innerJoin('accounts as a', 'a.id', 'h.account_id')
          .select('a.company_address')
          .where('h.address', '=', companyAddress)
          .executeTakeFirst();
        return moved?.company_address
          ? { kind: 'moved', companyAddress: moved.company_address }
          : { kind: 'missing' };
      }
      const row = await db
        .selectFrom('jobs')
        .selectAll()
        .where('account_id', '=', account.id)
        .where('slug', '=', slug)
        .where('status', '<>', 'draft')
        .executeTakeFirst();
      if (!row) return { kind: 'missing' };
      return {
        kind: statusAt(row, clock.now()) === 'published' ? 'live' : 'closed',
        job: view(row, account),
        account,
      };
    },

    async applyTarget(jobId: string): Promise<ApplyTarget> {
      const row = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
      if (!row || row.status === 'draft') return { kind: 'missing' };
      const account = await db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', row.account_id)
        .executeTakeFirstOrThrow();
      return {
        kind: statusAt(row, clock.now()) === 'published' ? 'open' : 'closed',
        job: view(row, account),
        account,
      };
    },

    /** The job seeker feed: live roles of every account with a company address, newest first. */
    async feed(
      cursor: string | null,
      limit: number,
    ): Promise<{ jobs: AuthoredJob[]; nextCursor: string | null } | null> {
      let afterId: string | null = null;
      if (cursor !== null) {
        afterId = decodeCursor(cursor);
        if (afterId === null) return null;
      }
      const now = clock.now();
      let query = db
        .selectFrom('jobs as j')
        .innerJoin('accounts as a', 'a.id', 'j.account_id')
        .selectAll('j')
        .select([
          'a.name as a_name',
          'a.company_name as a_company_name',
          'a.logo_url as a_logo_url',
          'a.company_address as a_company_address',
        ])
        .where('j.status', '=', 'published')
        .where((eb) => eb.or([eb('j.expires_at', 'is', null), eb('j.expires_at', '>', now)]))
        .where('a.company_address', 'is not', null);
      if (afterId) query = query.where('j.id', '<', afterId);
      const rows = await query
        .orderBy('j.id', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const jobs = page.map((row) =>
        view(row, {
          name: row.a_name,
          company_name: row.a_company_name,
          logo_url: row.a_logo_url,
          company_address: row.a_company_address,
        } as AccountRow),
      );
      return { jobs, nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null };
    },
  };
}

export type PublicJobService = ReturnType<typeof createPublicJobService>;
