import { Type } from 'typebox';
import { Text } from '../../../contract/text.ts';
import { MatchListQuery } from '../../../contract/match.ts';
import type { Route } from '../../types.ts';

const JobPath = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
});

/** The console's read of a managed role's matches: the same page as GET /v1/jobs/{jobId}/matches. */
export const consoleListMatches: Route = (app, { matches }) => {
  app.get(
    '/console/v1/accounts/:accountId/jobs/:jobId/matches',
    { config: { console: true }, schema: { hide: true, params: JobPath, querystring: MatchListQuery } },
    async (request) => matches.list(request.params.accountId, request.params.jobId, request.query),
  );
};
