import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

/** A platform person ('person') is in every account's pool; the others in their account's. */
export type SubjectKind = 'application' | 'candidate' | 'person';

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
  ranker_version: string;
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

/**
 * Platform people (account_id null) are in a live account's pool only: a test account's roles
 * (extensions.md §8) are matched from its own test people.
 */
const platformPool = (accountId: string) =>
  sql<boolean>`(account_id IS NULL AND EXISTS (SELECT 1 FROM accounts pa WHERE pa.id = ${accountId} AND pa.livemode))`;

export const matchRepository = {
  async upsertProfile(
    db: Db,
    row: {
      subject_kind: SubjectKind;
      subject_id: string;
      account_id: string | null;
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
          // A rebuilt CV is embedded again (embeddings.ts) when a provider is configured.
          embedding: null,
          embedding_model: null,
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
    await db.deleteFrom('matches').where('candidate_kind', '=', kind).where('subject_id', '=', id).execute();
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
      // An account that switched matching off has nothing generated (issue 31).
      .where('account_id', 'in', (eb) =>
        eb.selectFrom('accounts').select('accounts.id').where('accounts.matching_enabled', '=', true),
      )
      .where('status', '=', 'published')
      .where('managed_since', 'is not', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    if (accountId !== null) query = query.where('account_id', '=', accountId);
    return (await query.orderBy('id').limit(10_000).execute()) as ManagedRoleRow[];
  },

  /**
   * What changes when the account's pool changes: its size and its latest profile, platform people
   * (in every account's pool) included.
   */
  async poolState(db: Db, accountId: string): Promise<string> {
    const row = await db
      .selectFrom('match_profiles')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`max(updated_at)`.as('latest')])
      .where((eb) => eb.or([eb('account_id', '=', accountId), platformPool(accountId)]))
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
      .where('dismissed_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * The platform person an account's alias names, while they are a match of one of the account's
   * roles (`jobId`: of that role) and still in the pool; undefined otherwise, so an account that
   * holds no match of the person learns nothing of them.
   */
  async platformSubject(
    db: Db,
    accountId: string,
    candidateId: string,
    jobId: string | null,
  ): Promise<string | undefined> {
    let query = db
      .selectFrom('matches as m')
      .innerJoin('match_profiles as p', (join) =>
        join.onRef('p.subject_id', '=', 'm.subject_id').on('p.subject_kind', '=', 'person'),
      )
      .select('m.subject_id')
      .where('m.account_id', '=', accountId)
      .where('m.candidate_kind', '=', 'person')
      .where('m.candidate_id', '=', candidateId);
    // A dismissed match is no longer the role's candidate (the account still holds it elsewhere).
    if (jobId !== null) query = query.where('m.job_id', '=', jobId).where('m.dismissed_at', 'is', null);
    return (await query.limit(1).executeTakeFirst())?.subject_id;
  },

  /** One of the role's matches by the id the account knows, while its person is in the pool. */
  async matchOf(db: Db, accountId: string, jobId: string, candidateId: string) {
    return db
      .selectFrom('matches as m')
      .innerJoin('match_profiles as p', (join) =>
        join.onRef('p.subject_id', '=', 'm.subject_id').onRef('p.subject_kind', '=', 'm.candidate_kind'),
      )
      .select([
        'm.id',
        'm.job_id',
        'm.candidate_id',
        'm.candidate_kind',
        'm.subject_id',
        'm.score',
        'm.reasons',
        'm.ranker_version',
        'm.created_at',
      ])
      .where('m.account_id', '=', accountId)
      .where('m.job_id', '=', jobId)
      .where('m.candidate_id', '=', candidateId)
      .executeTakeFirst();
  },

  /** Whether the account lets matches be generated and read (its switch, issue 31). */
  async matchingEnabled(db: Db, accountId: string): Promise<boolean> {
    const row = await db
      .selectFrom('accounts')
      .select('matching_enabled')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row?.matching_enabled ?? false;
  },

  /** The role's matches that count toward its cap: not dismissed. */
  async countForJob(db: Db, jobId: string): Promise<number> {
    const row = await db
      .selectFrom('matches')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('job_id', '=', jobId)
      .where('dismissed_at', 'is', null)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /**
   * The role's candidates: the account's profiles sharing a term with the role, except applicants
   * to the role (by address) and people already matched (a dismissed match too: never again). A profile exists only while its CV is
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
      WHERE (p.account_id = ${accountId} OR ${platformPool(accountId)})
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

  /** The words of a shortlist's CVs by subject id, and their vectors of `model` when asked. */
  async words(
    db: Db,
    ids: string[],
    model: string | null = null,
  ): Promise<Map<string, { words: string[]; vector: number[] | null }>> {
    const out = new Map<string, { words: string[]; vector: number[] | null }>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db
        .selectFrom('match_profiles')
        .select(['subject_id', 'words', 'embedding', 'embedding_model'])
        .where('subject_id', 'in', ids.slice(i, i + 1000))
        .execute();
      for (const row of rows)
        out.set(row.subject_id, {
          words: row.words,
          vector: model !== null && row.embedding_model === model ? row.embedding : null,
        });
    }
    return out;
  },

  /** Profiles the role may rank (sharing a term) with no vector of `model`, newest first. */
  async unembedded(db: Db, accountId: string, terms: string[], model: string, limit: number) {
    return db
      .selectFrom('match_profiles')
      .select(['subject_kind', 'subject_id', 'profile', 'words', 'updated_at'])
      .where((eb) => eb.or([eb('account_id', '=', accountId), platformPool(accountId)]))
      .where(sql<boolean>`terms && ${sql.val(terms)}::text[]`)
      .where((eb) => eb.or([eb('embedding_model', 'is', null), eb('embedding_model', '!=', model)]))
      .orderBy('updated_at', 'desc')
      .limit(limit)
      .execute();
  },

  /** A profile's vector; not when the profile was rebuilt meanwhile (its new words need their own). */
  async saveEmbedding(
    db: Db,
    row: { subject_kind: SubjectKind; subject_id: string; updated_at: Date },
    model: string,
    vector: number[],
  ): Promise<void> {
    await db
      .updateTable('match_profiles')
      .set({ embedding: vector, embedding_model: model })
      .where('subject_kind', '=', row.subject_kind)
      .where('subject_id', '=', row.subject_id)
      .where('updated_at', '=', row.updated_at)
      .execute();
  },

  async roleVector(db: Db, jobId: string, wordsHash: string, model: string): Promise<number[] | undefined> {
    const row = await db
      .selectFrom('match_role_vectors')
      .select('vector')
      .where('job_id', '=', jobId)
      .where('words_hash', '=', wordsHash)
      .where('model', '=', model)
      .executeTakeFirst();
    return row?.vector;
  },

  async saveRoleVector(
    db: Db,
    row: { job_id: string; words_hash: string; model: string; vector: number[]; created_at: Date },
  ): Promise<void> {
    await db
      .insertInto('match_role_vectors')
      .values(row)
      .onConflict((oc) => oc.column('job_id').doUpdateSet({ ...row }))
      .execute();
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
      subject_id: string;
      person_key: string;
      score: number;
      reasons: string[];
      ranker_version: string;
      inputs_digest: string;
      components: string;
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
   * A page of the role's matches, best first, of people who have not applied to the role since;
   * `after` is the last (score, id) of the page before. Every path that takes a person out of the
   * pool (erasure, expiry, suppression, a platform person closing or deleting) deletes their
   * matches in the same transaction (eraseSubject, eraseAddress), so the read needs no join with
   * the profiles: it walks the role's index and stops at the page's end.
   */
  async page(
    db: Db,
    jobId: string,
    after: { score: number; id: string } | null,
    limit: number,
  ): Promise<MatchRow[]> {
    const result = await sql<MatchRow>`
      SELECT m.id, m.job_id, m.candidate_id, m.score, m.reasons, m.ranker_version, m.created_at
      FROM matches m
      WHERE m.job_id = ${jobId} AND m.dismissed_at IS NULL
        ${after ? sql`AND (m.score < ${after.score} OR (m.score = ${after.score} AND m.id > ${after.id}))` : sql``}
        AND NOT EXISTS (SELECT 1 FROM applications x WHERE x.job_id = ${jobId} AND x.email_key = m.person_key)
      ORDER BY m.score DESC, m.id
      LIMIT ${limit}
    `.execute(db);
    return result.rows;
  },
};
