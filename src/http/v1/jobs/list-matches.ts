import { JobParams } from '../../../contract/job.ts';
import { MatchListQuery, MatchPage } from '../../../contract/match.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const listMatches: Route = (app, { services: { matches } }) => {
  app.get(
    '/v1/jobs/:jobId/matches',
    {
      config: { scope: 'screening' },
      schema: {
        params: JobParams,
        querystring: MatchListQuery,
        ...v1Docs({
          operationId: 'listMatches',
          summary: "List a managed role's candidate matches, best first",
          tag: 'screening',
          scope: 'screening',
          success: { 200: MatchPage },
          errors: ['not_found', 'ad_not_managed', 'matching_disabled'],
        }),
      },
    },
    async (request) => matches.list(principalOf(request).accountId, request.params.jobId, request.query),
  );
};
