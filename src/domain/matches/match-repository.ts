import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

export type SubjectKind = 'application' | 'candidate';

export interface PoolRow {
  subject_kind: SubjectKind;
  subject_id: string;
  email_key: string | null;
  profile: unknown;
}

export interface MatchRow {
  id: string;
  job_id: string;
  candidate_id: string;
  score: number;
  reasons: string[];
  created_at: Date;
}

export interface ManagedRoleRow {
  id: string;
  account_id: string;
  content: Record<string, unknown>;
  max_matches: number | null;
  managed_since: Date;
}

/** One person, once per role: the address, or the subject itself when no address is held. */
export const PERSON_KEY = sql<string>`coalesce(p.email_key, p.subject_kind || ':' || p.subject_id)`;

export const matchRepository = {
  async upsertProfile(
    db: Db,
    row: {
      subject_kind: SubjectKind;
      subject_id: string;
      account_id: string;
      email_key: string | null;
      profile: unknown;
      terms: string[];
      words: string[];
      at: Date;
    },
  ): Promise<void> {
    await db
      .insertInto('match_profiles')
      .values({
        subject_kind: row.subject_kind,
        subject_id: row.subject_id,
        account_id: row.account_id,
        email_key: row.email_key,
        profile: JSON.stringify(row.profile),
        terms: row.terms,
        words: row.words,
        created_at: row.at,
        updated_at: row.at,
      })
      .onConflict((oc) =>
        oc.columns(['subject_kind', 'subject_id']).doUpdateSet({
          email_key: row.email_key,
          profile: JSON.stringify(row.profile),
          terms: row.terms,
          words: row.words,
          updated_at: row.at,
        }),
      )
      .execute();
  },

  /** The profile and every match of one subject: they leave the pool with their CV. */
  async eraseSubject(db: Db, kind: SubjectKind, id: string): Promise<void> {
    await db
      .deleteFrom('match_profiles')
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', id)
      .execute();
    await db
      .deleteFrom('matches')
      .where('candidate_kind', '=', kind)
      .where('candidate_id', '=', id)
      .execute();
  },

  /** Everything held for an address, in every account (a suppression). */
  async eraseAddress(db: Db, emailKey: string): Promise<void> {
    await db.deleteFrom('match_profiles').where('email_key', '=', emailKey).execute();
    await db.deleteFrom('matches').where('person_key', '=', emailKey).execute();
  },

  /** Managed roles that are published and not expired: of one account, or of all. */
  async managedRoles(db: Db, now: Date, accountId: string | null): Promise<ManagedRoleRow[]> {
    let query = db
      .selectFrom('jobs')
      .select(['id', 'account_id', 'content', 'max_matches', 'managed_since'])
      .where('status', '=', 'published')
      .where('managed_since', 'is not', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    if (accountId !== null) query = query.where('account_id', '=', accountId);
    return (await query.orderBy('id').limit(10_000).execute()) as ManagedRoleRow[];
  },

  /** What changes when the account's pool changes: its size and its latest profile. */
  async poolState(db: Db, accountId: string): Promise<string> {
    const row = await db
      .selectFrom('match_profiles')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`max(updated_at)`.as('latest')])
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return `${row.n}:${row.latest ? new Date(row.latest).toISOString() : '-'}`;
  },

  async isMatch(db: Db, jobId: string, kind: SubjectKind, candidateId: string): Promise<boolean> {
    const row = await db
      .selectFrom('matches')
      .select('id')
      .where('job_id', '=', jobId)
      .where('candidate_kind', '=', kind)
      .where('candidate_id', '=', candidateId)
      .executeTakeFirst();
    return row !== undefined;
  },

  async countForJob(db: Db, jobId: string): Promise<number> {
    const row = await db
      .selectFrom('matches')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /**
   * The role's candidates: the account's profiles sharing a term with the role, except applicants
   * to the role (by address) and people already matched. A profile exists only while its CV is
   * built and held, and never for a suppressed address (profileBuilt checks, suppression deletes).
   */
  async pool(
    db: Db,
    accountId: string,
    jobId: string,
    terms: string[],
    updatedSince: Date | null,
  ): Promise<PoolRow[]> {
    const result = await sql<PoolRow>`
      SELECT p.subject_kind, p.subject_id, p.email_key, p.profile
      FROM match_profiles p
      WHERE p.account_id = ${accountId}
        AND p.terms && ${sql.val(terms)}::text[]
        ${updatedSince ? sql`AND p.updated_at >= ${updatedSince}` : sql``}
        AND NOT (p.subject_kind = 'application' AND EXISTS (
          SELECT 1 FROM applications own WHERE own.id = p.subject_id AND own.job_id = ${jobId}))
        AND (p.email_key IS NULL OR NOT EXISTS (
          SELECT 1 FROM applications x WHERE x.job_id = ${jobId} AND x.email_key = p.email_key))
        AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.job_id = ${jobId} AND m.person_key = ${PERSON_KEY})
    `.execute(db);
    return result.rows;
  },

  /** The words of a shortlist's CVs, by subject id. */
  async words(db: Db, ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db
        .selectFrom('match_profiles')
        .select(['subject_id', 'words'])
        .where('subject_id', 'in', ids.slice(i, i + 1000))
        .execute();
      for (const row of rows) out.set(row.subject_id, row.words);
    }
    return out;
  },

  async lastRun(db: Db, jobId: string) {
    return db.selectFrom('match_runs').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  },

  async recordRun(
    db: Db,
    row: {
      job_id: string;
      words_hash: string;
      max_matches: number | null;
      managed_since: Date;
      scored_until: Date;
      filled: boolean;
      ran_at: Date;
    },
  ): Promise<void> {
    await db
      .insertInto('match_runs')
      .values(row)
      .onConflict((oc) => oc.column('job_id').doUpdateSet({ ...row }))
      .execute();
  },

  async insertMatches(
    db: Db,
    rows: {
      id: string;
      account_id: string;
      job_id: string;
      candidate_kind: SubjectKind;
      candidate_id: string;
      person_key: string;
      score: number;
      reasons: string[];
      created_at: Date;
    }[],
  ): Promise<{ id: string; candidate_id: string }[]> {
    const inserted: { id: string; candidate_id: string }[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500).map((row) => ({ ...row, reasons: JSON.stringify(row.reasons) }));
      const done = await db
        .insertInto('matches')
        .values(chunk)
        .onConflict((oc) => oc.columns(['job_id', 'person_key']).doNothing())
        .returning(['id', 'candidate_id'])
        .execute();
      inserted.push(...done);
    }
    return inserted;
  },

  /**
   * A page of the role's matches, best first, of people still in the pool who have not applied
   * to the role since; `after` is the last (score, id) of the page before. A profile exists only
   * while its CV is held: erasure, expiry and suppression delete it (and the matches) in their own
   * transaction, so the join is the whole check.
   */
  async page(
    db: Db,
    jobId: string,
    after: { score: number; id: string } | null,
    limit: number,
  ): Promise<MatchRow[]> {
    const result = await sql<MatchRow>`
      SELECT m.id, m.job_id, m.candidate_id, m.score, m.reasons, m.created_at
      FROM matches m
      JOIN match_profiles p ON p.subject_kind = m.candidate_kind AND p.subject_id = m.candidate_id
      WHERE m.job_id = ${jobId}
        ${after ? sql`AND (m.score < ${after.score} OR (m.score = ${after.score} AND m.id > ${after.id}))` : sql``}
        AND (p.email_key IS NULL OR NOT EXISTS (
          SELECT 1 FROM applications x WHERE x.job_id = ${jobId} AND x.email_key = p.email_key))
      ORDER BY m.score DESC, m.id
      LIMIT ${limit}
    `.execute(db);
    return result.rows;
  },
};
