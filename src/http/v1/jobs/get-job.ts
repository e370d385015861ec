import { Type } from 'typebox';
import { JobParams } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { JobRef, v1Docs } from '../schema.ts';

export const getJob: Route = (app, { services: { jobs } }) => {
  app.get(
    '/v1/jobs/:jobId',
    {
      config: { scope: 'jobs:read' },
      schema: {
        params: JobParams,
        ...v1Docs({
          operationId: 'getJob',
          summary: 'Read one job',
          tag: 'jobs',
          scope: 'jobs:read',
          success: { 200: Type.Object({ job: JobRef }) },
          errors: ['not_found'],
        }),
      },
    },
    async (request) => ({ job: await jobs.get(principalOf(request).accountId, request.params.jobId) }),
  );
};
