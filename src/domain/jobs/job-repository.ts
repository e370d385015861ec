import { type Selectable, sql } from 'kysely';
import { compiledStatement } from '../../db/compiled.ts';
import type { Db } from '../../db/connect.ts';
import type { JobsTable } from '../../db/schema.ts';

export type JobRow = Selectable<JobsTable>;
export type PublicStatus = 'published' | 'closed' | 'expired';

export interface JobChanges {
  status?: JobRow['status'];
  content?: Record<string, unknown>;
  staged?: Record<string, unknown> | null;
  slug?: string | null;
  expires_at?: Date | null;
  max_matches?: number | null;
  managed_since?: Date | null;
  first_published_at?: Date | null;
  posted_at?: Date | null;
  closed_at?: Date | null;
  updated_at?: Date;
}

function serialise(changes: JobChanges) {
  const { content, staged, ...rest } = changes;
  return {
    ...rest,
    ...(content !== undefined ? { content: JSON.stringify(content) } : {}),
    ...(staged !== undefined ? { staged: staged === null ? null : JSON.stringify(staged) } : {}),
  };
}

/** A job as the read API shows it, with its account's company fields. */
export type PublicJobRow = Pick<
  JobRow,
  'id' | 'status' | 'content' | 'slug' | 'expires_at' | 'posted_at' | 'updated_at' | 'closed_at'
> & {
  a_name: string;
  a_company_name: string | null;
  a_logo_url: string | null;
  a_company_address: string | null;
};

const PUBLIC_COLUMNS = [
  'j.id',
  'j.status',
  'j.content',
  'j.slug',
  'j.expires_at',
  'j.posted_at',
  'j.updated_at',
  'j.closed_at',
  'a.name as a_name',
  'a.company_name as a_company_name',
  'a.logo_url as a_logo_url',
  'a.company_address as a_company_address',
] as const;

type ListParam = 'accountId' | 'now' | 'updatedSince' | 'afterId' | 'limit';
type ListStatement = (db: Db, values: Record<ListParam, unknown>) => Promise<PublicJobRow[]>;
// One compiled statement per shape of the list query: at most 7 status sets × 2 × 2.
const listShapes = new Map<string, ListStatement>();

function listStatement(statuses: ReadonlySet<PublicStatus>, since: boolean, after: boolean): ListStatement {
  const shape = `${[...statuses].sort().join(',')}|${since}|${after}`;
  let statement = listShapes.get(shape);
  if (statement === undefined) {
    statement = compiledStatement<PublicJobRow, ListParam>((db, param) => {
      let q = db
        .selectFrom('jobs as j')
        .innerJoin('accounts as a', 'a.id', 'j.account_id')
        .select(PUBLIC_COLUMNS)
        .where('j.account_id', '=', param('accountId'))
        .where('j.status', '<>', 'draft');
      if (statuses.size < 3) {
        q = q.where((eb) => {
          const now = param('now');
          const live = eb.or([eb('j.expires_at', 'is', null), eb('j.expires_at', '>', now)]);
          const parts = [];
          if (statuses.has('published')) parts.push(eb.and([eb('j.status', '=', 'published'), live]));
          if (statuses.has('expired'))
            parts.push(eb.and([eb('j.status', '=', 'published'), eb('j.expires_at', '<=', now)]));
          if (statuses.has('closed')) parts.push(eb('j.status', '=', 'closed'));
          return eb.or(parts);
        });
      }
      if (since) q = q.where('j.updated_at', '>=', param('updatedSince'));
      if (after) q = q.where('j.id', '<', param('afterId'));
      return q.orderBy('j.id', 'desc').limit(param('limit'));
    });
    listShapes.set(shape, statement);
  }
  return statement;
}

const findPublic = compiledStatement<PublicJobRow, 'accountId' | 'id'>((db, param) =>
  db
    .selectFrom('jobs as j')
    .innerJoin('accounts as a', 'a.id', 'j.account_id')
    .select(PUBLIC_COLUMNS)
    .where('j.account_id', '=', param('accountId'))
    .where('j.id', '=', param('id'))
    .where('j.status', '<>', 'draft'),
);

/** What the job seeker feed can be narrowed by (all optional; values already bounded). */
export interface FeedFilter {
  category?: string;
  /** A city, region or country, matched as a case-insensitive substring. */
  place?: string;
  /** Only fully remote roles. */
  remote?: boolean;
  /** Words (each a case-insensitive substring) of the title, the company name or the skills. */
  text?: string;
}

/** An ILIKE pattern for "contains", the user's own % and _ taken literally. */
function containing(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const jobRepository = {
  async insert(
    db: Db,
    row: Omit<JobRow, 'content' | 'staged'> & { content: Record<string, unknown> },
  ): Promise<JobRow> {
    return db
      .insertInto('jobs')
      .values({ ...row, content: JSON.stringify(row.content), staged: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /**
   * The account's job; `lock` holds its row until the transaction ends. `write` (FOR NO KEY
   * UPDATE) serialises the writes of one job and lets rows referencing it be inserted meanwhile
   * (an application, a screening: their foreign-key check takes FOR KEY SHARE); `share` (FOR
   * SHARE) keeps the job as read (a screening's "managed and published") until the transaction
   * ends. Taken after the account's lock when the transaction takes both (docs/architecture.md).
   */
  async find(db: Db, accountId: string, id: string, lock?: 'write' | 'share'): Promise<JobRow | undefined> {
    let query = db.selectFrom('jobs').selectAll().where('account_id', '=', accountId).where('id', '=', id);
    if (lock === 'write') query = query.forNoKeyUpdate();
    else if (lock === 'share') query = query.forShare();
    return query.executeTakeFirst();
  },

  async update(db: Db, accountId: string, id: string, changes: JobChanges): Promise<JobRow> {
    return db
      .updateTable('jobs')
      .set(serialise(changes))
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async slugTaken(db: Db, accountId: string, slug: string): Promise<boolean> {
    const row = await db
      .selectFrom('jobs')
      .select('id')
      .where('account_id', '=', accountId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Managed ads holding a slot now: managed, published, not past their expiry. */
  async countManaged(db: Db, accountId: string, now: Date): Promise<number> {
    const row = await db
      .selectFrom('jobs')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', accountId)
      .where('managed_since', 'is not', null)
      .where('status', '=', 'published')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /**
   * One keyset page of the account's public jobs, newest first, with the account's company fields
   * the view shows: the columns the API returns and nothing else, in one statement. Ids are
   * time-ordered and never change, so a page boundary stays put while jobs are created or edited.
   */
  async listPublic(
    db: Db,
    query: {
      accountId: string;
      statuses: ReadonlySet<PublicStatus>;
      updatedSince: Date | null;
      afterId: string | null;
      limit: number;
      now: Date;
    },
  ): Promise<PublicJobRow[]> {
    return listStatement(query.statuses, query.updatedSince !== null, query.afterId !== null)(db, query);
  },

  /** One of the account's public (non-draft) jobs, as listPublic reads it. */
  async findPublic(db: Db, accountId: string, id: string): Promise<PublicJobRow | undefined> {
    return (await findPublic(db, { accountId, id }))[0];
  },

  /** A public role at its address: the account's non-draft job with this slug. */
  async findBySlug(db: Db, accountId: string, slug: string): Promise<JobRow | undefined> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('slug', '=', slug)
      .where('status', '<>', 'draft')
      .executeTakeFirst();
  },

  /** A job by id whatever its account: only the public apply link, which carries no key, asks. */
  async findPublicById(db: Db, id: string): Promise<JobRow | undefined> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .where('status', '<>', 'draft')
      .executeTakeFirst();
  },

  /** One keyset page of every account's live roles that have a hosted address, newest first. */
  /** Live roles newest first; with `accountId`, one account's only (its careers page). */
  async liveFeed(
    db: Db,
    afterId: string | null,
    limit: number,
    now: Date,
    filter: FeedFilter = {},
    accountId?: string,
  ) {
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
      .where('a.company_address', 'is not', null)
      // Test jobs (extensions.md §8) are never in a feed, a careers page or the sitemap.
      .where('a.livemode', '=', true);
    if (accountId) query = query.where('j.account_id', '=', accountId);
    if (afterId) query = query.where('j.id', '<', afterId);
    if (filter.category) query = query.where(sql<string>`j.content->>'category'`, '=', filter.category);
    if (filter.remote)
      query = query.where(sql<string>`j.content->'location'->>'remotePolicy'`, '=', 'remote');
    if (filter.place) {
      const like = containing(filter.place);
      query = query.where(
        sql<boolean>`(j.content->'location'->>'city' ILIKE ${like} OR j.content->'location'->>'state' ILIKE ${like} OR j.content->'location'->>'country' ILIKE ${like})`,
      );
    }
    // Each word (at most five) in the title, the company name or the skill names: short fields,
    // so an anonymous search stays cheap (descriptions run to 100 KB each and are not searched).
    for (const word of (filter.text ?? '').split(/\s+/).filter(Boolean).slice(0, 5)) {
      const like = containing(word);
      query = query.where(
        sql<boolean>`(j.content->>'title' ILIKE ${like} OR coalesce(a.company_name, a.name) ILIKE ${like} OR (j.content->'skills')::text ILIKE ${like})`,
      );
    }
    return query.orderBy('j.id', 'desc').limit(limit).execute();
  },

  /**
   * Published jobs whose expiry passed after the position (expires_at, id) and by `now`, in that
   * order: the expiry sweep's next candidates.
   */
  async listExpiredAfter(
    db: Db,
    after: { at: Date; id: string },
    now: Date,
    limit: number,
  ): Promise<{ id: string; account_id: string; expires_at: Date }[]> {
    const rows = await db
      .selectFrom('jobs')
      .select(['id', 'account_id', 'expires_at'])
      .where('status', '=', 'published')
      .where((eb) =>
        eb.or([
          eb('expires_at', '>', after.at),
          eb.and([eb('expires_at', '=', after.at), eb('id', '>', after.id)]),
        ]),
      )
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows as { id: string; account_id: string; expires_at: Date }[];
  },

  async listAll(db: Db, accountId: string): Promise<JobRow[]> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute();
  },
};
