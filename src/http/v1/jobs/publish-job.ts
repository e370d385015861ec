import { Type } from 'typebox';
import { type AuthoredJob, JobParams, PublishBody } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { AuthoredJobRef, v1Docs } from '../schema.ts';

export const publishJob: Route = (app, { services: { jobs, idempotency } }) => {
  app.post(
    '/v1/jobs/:jobId/publish',
    {
      config: { scope: 'jobs:write', idempotency: 'optional' },
      schema: {
        params: JobParams,
        body: Type.Optional(PublishBody),
        ...v1Docs({
          operationId: 'publishJob',
          summary: 'Publish a job (take a draft, closed or expired role live)',
          tag: 'jobs',
          scope: 'jobs:write',
          success: { 200: Type.Object({ job: AuthoredJobRef, firstPublish: Type.Boolean() }) },
          errors: ['not_found', 'company_address_required', 'not_publishable'],
          idempotency: 'optional',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(
        request,
        idempotency,
        200,
        (result: { job: AuthoredJob; firstPublish: boolean }) => result,
      );
      await jobs.publish(
        principalOf(request).accountId,
        request.params.jobId,
        request.body ?? {},
        answer.seal,
      );
      return answer.send(reply);
    },
  );
};
