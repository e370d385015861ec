import { Type } from 'typebox';
import { JobEdit, JobParams } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { AuthoredJobRef, v1Docs } from '../schema.ts';

export const editJob: Route = (app, { services: { jobs } }) => {
  app.patch(
    '/v1/jobs/:jobId',
    {
      config: { scope: 'jobs:write' },
      schema: {
        params: JobParams,
        body: JobEdit,
        ...v1Docs({
          operationId: 'editJob',
          summary: 'Edit a job; on a published ad the words are staged until promoted',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 200: Type.Object({ job: AuthoredJobRef, pendingRevision: Type.Boolean() }) },
          errors: ['not_found', 'conflict', 'managed_ad_locked'],
        }),
      },
    },
    async (request) => jobs.edit(principalOf(request).accountId, request.params.jobId, request.body),
  );
};
