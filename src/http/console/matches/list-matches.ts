import { Type } from 'typebox';
import { MatchListQuery } from '../../../contract/match.ts';
import { Text } from '../../../contract/text.ts';
import type { Route } from '../../types.ts';

const JobPath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
});

/** The console's read of a managed role's matches: the same page as GET /v1/jobs/{jobId}/matches. */
export const consoleListMatches: Route = (app, { services: { matches } }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/matches',
    { config: { console: true }, schema: { hide: true, params: JobPath, querystring: MatchListQuery } },
    async (request) => matches.list(request.params.accountId, request.params.jobId, request.query),
  );
};

const CandidatePath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
  candidateId: Text({ minLength: 1, maxLength: 64 }),
});

/** The virtual CV of one of the role's candidates: a match (a platform person's too), an applicant, an import. */
export const consoleCandidateCv: Route = (app, { services: { matches } }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/candidates/:candidateId/cv',
    { config: { console: true }, schema: { hide: true, params: CandidatePath } },
    async (request) =>
      matches.candidateCv(request.params.accountId, request.params.jobId, request.params.candidateId),
  );
};
