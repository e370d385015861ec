// A match's explanation (extensions.md §7; EU AI Act Art. 86): what its score is made of, part by
// part, with the weights the ranker applied, the reasons and the ranker's version; something an
// account can hand to the person who asks why they were suggested for a role.
import type { Db } from '../../db/connect.ts';
import type { ScoreComponent } from '../../db/schema-matches.ts';
import { notFound } from '../errors.ts';

export interface MatchExplanation {
  matchId: string;
  jobId: string;
  candidateId: string;
  score: number;
  rankerVersion: string;
  createdAt: string;
  /** [] for a match made before components were recorded. */
  components: ScoreComponent[];
  reasons: string[];
}

/** One of the account's matches of the role (dismissed ones too), explained; 404 otherwise. */
export async function explainMatch(
  db: Db,
  accountId: string,
  jobId: string,
  matchId: string,
): Promise<MatchExplanation> {
  const row = await db
    .selectFrom('matches')
    .select([
      'id',
      'job_id',
      'candidate_id',
      'score',
      'ranker_version',
      'created_at',
      'components',
      'reasons',
    ])
    .where('account_id', '=', accountId)
    .where('job_id', '=', jobId)
    .where('id', '=', matchId)
    .executeTakeFirst();
  if (!row) throw notFound('Match');
  return {
    matchId: row.id,
    jobId: row.job_id,
    candidateId: row.candidate_id,
    score: row.score / 10_000,
    rankerVersion: row.ranker_version,
    createdAt: new Date(row.created_at).toISOString(),
    components: row.components ?? [],
    reasons: row.reasons,
  };
}
