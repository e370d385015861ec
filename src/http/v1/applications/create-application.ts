import {
  type ApplicationCreated,
  ApplicationCreatedBody,
  ApplicationWrite,
} from '../../../contract/intake.ts';
import { JobParams } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const createApplication: Route = (app, { services: { applications, idempotency } }) => {
  app.post(
    '/v1/jobs/:jobId/applications',
    {
      config: { scope: 'applications:write', idempotency: 'required' },
      schema: {
        params: JobParams,
        body: ApplicationWrite,
        ...v1Docs({
          operationId: 'createApplication',
          summary: "Send an application made on the integrator's page to a published job",
          tag: 'applications',
          scope: 'applications:write',
          success: { 201: ApplicationCreatedBody, 200: ApplicationCreatedBody },
          errors: [
            'not_found',
            'job_not_open',
            'consent_invalid',
            'attestation_required',
            'answers_invalid',
            'daily_cap_reached',
            'upload_invalid',
            'cv_rejected',
            'unavailable',
          ],
          idempotency: 'required',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(
        request,
        idempotency,
        (result: ApplicationCreated) => (result.duplicate ? 200 : 201),
        (result: ApplicationCreated) => result,
      );
      await applications.apply(
        principalOf(request).accountId,
        request.params.jobId,
        request.body,
        'api',
        answer.seal,
      );
      return answer.send(reply);
    },
  );
};
