import { type Static, Type } from 'typebox';
import { Text } from './text.ts';

/** A generated match of a managed role (extensions.md §2): ids, a score and reasons, nothing personal. */
export const Match = Type.Object(
  {
    matchId: Type.String(),
    jobId: Type.String(),
    candidateId: Type.String({
      description:
        'The person in the pool: screen them with POST /v1/jobs/{jobId}/candidates/{candidateId}/screening.',
    }),
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Relevance between 0 and 1; matches are listed best first.',
    }),
    reasons: Type.Array(Type.String(), {
      description:
        'What drove the score, in words a recruiter reads: `required skill: PostgreSQL`, `title: Backend Engineer`, `location: Melbourne`, `missing required skill: Kubernetes`.',
    }),
    rankerVersion: Type.String({
      description:
        'Which ranking produced the match: changes whenever the ranking code or its weights change (`unrecorded` for matches made before versions were recorded).',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Match' },
);
export type Match = Static<typeof Match>;

export const MatchListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const MatchPage = Type.Object({
  matches: Type.Array(Match),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Opaque; null when there is no more.',
  }),
});
export type MatchPage = { matches: Match[]; nextCursor: string | null };
