import type { Selectable, Updateable } from 'kysely';
import type { LimitName, Limits } from '../../contract/console.ts';
import type { Db } from '../../db/connect.ts';
import type { AccountsTable } from '../../db/schema.ts';

export type AccountRow = Selectable<AccountsTable>;
export type Executor = Db;

/** Limits as the console names them, and the columns that hold them. */
export const LIMIT_COLUMNS = {
  requestsPerMinute: 'requests_per_minute',
  dailyApplications: 'daily_applications',
  jobDailyApplications: 'job_daily_applications',
  dailyCandidateImports: 'daily_candidate_imports',
  weeklyUnsolicitedContacts: 'weekly_unsolicited_contacts',
  managedAdSlots: 'managed_ad_slots',
  includedScreeningsPerManagedAd: 'included_screenings_per_managed_ad',
  monthlyOverageCapCents: 'monthly_overage_cap_cents',
  hostedDailyApplications: 'hosted_daily_applications',
  hostedJobDailyApplications: 'hosted_job_daily_applications',
} as const satisfies Record<LimitName, keyof AccountsTable>;

export type { LimitName, Limits };

export function limitsOf(row: AccountRow): Limits {
  const limits = {} as Limits;
  for (const [name, column] of Object.entries(LIMIT_COLUMNS) as [LimitName, keyof AccountRow][]) {
    limits[name] = row[column] as number;
  }
  return limits;
}

export const accountRepository = {
  async insert(
    db: Executor,
    row: Pick<
      AccountRow,
      'id' | 'name' | 'company_name' | 'logo_url' | 'company_address' | 'created_at' | 'updated_at'
    >,
  ): Promise<AccountRow> {
    return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async find(db: Executor, id: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Up to `limit` accounts after `afterId`, in id order (ids sort by creation time). */
  async page(db: Executor, afterId: string | null, limit: number): Promise<AccountRow[]> {
    // Test twins (test-twin.ts) are part of their live account, not accounts of their own.
    let query = db
      .selectFrom('accounts')
      .selectAll()
      .where('live_account_id', 'is', null)
      .orderBy('id')
      .limit(limit);
    if (afterId !== null) query = query.where('id', '>', afterId);
    return query.execute();
  },

  /** The live account's test twin (test-twin.ts), if it has one. */
  async twinOf(db: Executor, liveId: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('live_account_id', '=', liveId).executeTakeFirst();
  },

  async findByAddress(db: Executor, address: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('company_address', '=', address).executeTakeFirst();
  },

  /**
   * The account, locked until the transaction ends: the one lock that serialises an account's
   * budgeted writes (publishes and their slugs, managed slots, screenings and their cap,
   * applications and imports and their daily budgets, webhooks). FOR NO KEY UPDATE, not FOR
   * UPDATE: it excludes the other holders of this lock, yet lets a concurrent transaction insert
   * rows that reference the account (an event, a job), whose foreign-key check takes FOR KEY
   * SHARE. Always the first lock a transaction takes (docs/architecture.md, "Lock order").
   */
  async lock(db: Executor, id: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
  },

  async update(db: Executor, id: string, changes: Updateable<AccountsTable>): Promise<AccountRow> {
    return db
      .updateTable('accounts')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Whether an address is someone's current address, or a retired one of another account. */
  async addressHolder(db: Executor, address: string): Promise<string | undefined> {
    const current = await db
      .selectFrom('accounts')
      .select('id')
      .where('company_address', '=', address)
      .executeTakeFirst();
    if (current) return current.id;
    const retired = await db
      .selectFrom('company_address_history')
      .select('account_id')
      .where('address', '=', address)
      .executeTakeFirst();
    return retired?.account_id;
  },

  async retireAddress(db: Executor, accountId: string, address: string, at: Date): Promise<void> {
    await db
      .insertInto('company_address_history')
      .values({ address, account_id: accountId, retired_at: at })
      .onConflict((oc) => oc.column('address').doUpdateSet({ account_id: accountId, retired_at: at }))
      .execute();
  },

  async reclaimAddress(db: Executor, accountId: string, address: string): Promise<void> {
    await db
      .deleteFrom('company_address_history')
      .where('address', '=', address)
      .where('account_id', '=', accountId)
      .execute();
  },

  /** The account that answers at a retired address now, and its current address. */
  async redirectFor(
    db: Executor,
    address: string,
  ): Promise<{ accountId: string; current: string | null } | undefined> {
    const row = await db
      .selectFrom('company_address_history as h')
      .innerJoin('accounts as a', 'a.id', 'h.account_id')
      .select(['a.id as accountId', 'a.company_address as current'])
      .where('h.address', '=', address)
      .executeTakeFirst();
    return row;
  },
};
