import { type CandidateCreated, CandidateCreatedBody, CandidateWrite } from '../../../contract/intake.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const createCandidate: Route = (app, { services: { candidates, idempotency } }) => {
  app.post(
    '/v1/candidates',
    {
      config: { scope: 'applications:write', idempotency: 'required' },
      schema: {
        body: CandidateWrite,
        ...v1Docs({
          operationId: 'createCandidate',
          summary: 'Add a person who has not applied (one row of a bulk import)',
          tag: 'applications',
          scope: 'applications:write',
          success: { 201: CandidateCreatedBody },
          errors: [
            'upload_invalid',
            'attestation_required',
            'cv_rejected',
            'daily_cap_reached',
            'unavailable',
          ],
          idempotency: 'required',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(request, idempotency, 201, (result: CandidateCreated) => result);
      await candidates.import(principalOf(request).accountId, request.body, answer.seal);
      return answer.send(reply);
    },
  );
};
