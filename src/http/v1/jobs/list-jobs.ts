import { Type } from 'typebox';
import { ListQuery } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { JobRef, v1Docs } from '../schema.ts';

export const listJobs: Route = (app, { services: { jobs } }) => {
  app.get(
    '/v1/jobs',
    {
      config: { scope: 'jobs:read' },
      schema: {
        querystring: ListQuery,
        ...v1Docs({
          operationId: 'listJobs',
          summary: "List the account's published, closed and expired jobs",
          tag: 'jobs',
          scope: 'jobs:read',
          success: {
            200: Type.Object({
              jobs: Type.Array(JobRef),
              nextCursor: Type.Union([Type.String(), Type.Null()], {
                description: 'Opaque; null when there is no more.',
              }),
            }),
          },
        }),
      },
    },
    async (request) => jobs.list(principalOf(request).accountId, request.query),
  );
};
