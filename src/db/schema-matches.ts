import type { ColumnType } from 'kysely';
import type { Timestamp } from './columns.ts';

/** One part of a match's score: the weight the ranker gave it and the person's value, 0..1. */
export interface ScoreComponent {
  name: string;
  weight: number;
  value: number;
}

/** Row types of matching's tables (issue 19): profiles, matches, runs and role vectors. */

export interface MatchProfilesTable {
  subject_kind: 'application' | 'candidate' | 'person';
  subject_id: string;
  /** null: a platform person, in every account's pool. */
  account_id: string | null;
  email_key: string | null;
  profile: ColumnType<unknown, string, string>;
  terms: string[];
  words: ColumnType<string[], string[] | undefined, string[]>;
  /** The embedding provider's vector of the CV (off by default), and the model that made it. */
  embedding: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  embedding_model: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MatchRoleVectorsTable {
  job_id: string;
  words_hash: string;
  model: string;
  vector: number[];
  created_at: Timestamp;
}

export interface MatchRunsTable {
  job_id: string;
  words_hash: string;
  max_matches: number | null;
  managed_since: Timestamp;
  scored_until: Timestamp;
  filled: boolean;
  ran_at: Timestamp;
}

export interface MatchesTable {
  id: string;
  account_id: string;
  job_id: string;
  candidate_kind: 'application' | 'candidate' | 'person';
  /** The id the account knows: a platform person's is the account's own alias ('plp_…'). */
  candidate_id: string;
  /** The pool's subject (= candidate_id, except a platform person's id). */
  subject_id: string;
  person_key: string;
  score: number;
  reasons: ColumnType<string[], string, string>;
  /** The ranking that produced the match (ranker-version.ts) and the digest of its inputs. */
  ranker_version: ColumnType<string, string | undefined, string>;
  inputs_digest: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the score is made of: [{ name, weight, value }] (null for matches made before issue 31). */
  components: ColumnType<ScoreComponent[] | null, string | null | undefined, string | null>;
  /** A recruiter's dismissal (null: not dismissed): when, by whom ('operator' or a user id), why. */
  dismissed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  dismissed_by: ColumnType<string | null, string | null | undefined, string | null>;
  dismiss_reason: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** The decision log (issue 31): ids, version, score, reasons, actor; no personal data; outlives erasure. */
export interface MatchDecisionsTable {
  id: string;
  account_id: string;
  at: Timestamp;
  kind: 'generated' | 'dismissed' | 'restored' | 'invited';
  job_id: string;
  match_id: string;
  candidate_id: string;
  ranker_version: string;
  score: number;
  reasons: ColumnType<string[], string, string>;
  actor: string;
  screening_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** "Don't match me" (issue 31 item 6): the account and a keyed digest of the address; no address. */
export interface MatchOptOutsTable {
  account_id: string;
  address_hash: string;
  created_at: Timestamp;
}

export interface MatchTables {
  match_profiles: MatchProfilesTable;
  matches: MatchesTable;
  match_runs: MatchRunsTable;
  match_role_vectors: MatchRoleVectorsTable;
  match_decisions: MatchDecisionsTable;
  match_opt_outs: MatchOptOutsTable;
}
