import { Type } from 'typebox';
import { type AuthoredJob, JobCreate } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { AuthoredJobRef, v1Docs } from '../schema.ts';

export const createJob: Route = (app, { services: { jobs, idempotency } }) => {
  app.post(
    '/v1/jobs',
    {
      config: { scope: 'jobs:write', idempotency: 'optional' },
      schema: {
        body: JobCreate,
        ...v1Docs({
          operationId: 'createJob',
          summary: 'Create a draft job',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 201: Type.Object({ job: AuthoredJobRef }) },
          idempotency: 'optional',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(request, idempotency, 201, (job: AuthoredJob) => ({ job }));
      await jobs.create(principalOf(request).accountId, request.body, answer.seal);
      return answer.send(reply);
    },
  );
};
