import { Type } from 'typebox';
import { type AuthoredJob, JobParams } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { AuthoredJobRef, v1Docs } from '../schema.ts';

export const closeJob: Route = (app, { services: { jobs, idempotency } }) => {
  app.post(
    '/v1/jobs/:jobId/close',
    {
      config: { scope: 'jobs:write', idempotency: 'optional' },
      schema: {
        params: JobParams,
        ...v1Docs({
          operationId: 'closeJob',
          summary: 'Close a live role',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 200: Type.Object({ job: AuthoredJobRef }) },
          errors: ['not_found', 'conflict'],
          idempotency: 'optional',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(request, idempotency, 200, (job: AuthoredJob) => ({ job }));
      await jobs.close(principalOf(request).accountId, request.params.jobId, answer.seal);
      return answer.send(reply);
    },
  );
};
