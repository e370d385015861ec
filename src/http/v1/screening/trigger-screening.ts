import {
  ScreeningParams,
  ScreeningRequestBody,
  type ScreeningTriggered,
  ScreeningTriggeredBody,
} from '../../../contract/screening.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const triggerScreening: Route = (app, { services: { screening, idempotency } }) => {
  app.post(
    '/v1/jobs/:jobId/candidates/:candidateId/screening',
    {
      // Bounded by the one-open-screening rule and the overage cap, not by the per-minute limit.
      config: { scope: 'screening', rateLimited: false, idempotency: 'optional' },
      schema: {
        params: ScreeningParams,
        body: ScreeningRequestBody,
        ...v1Docs({
          operationId: 'triggerScreening',
          summary: "Invite one of a managed role's candidates to an automated screening",
          tag: 'screening',
          scope: 'screening',
          rateLimited: false,
          success: { 201: ScreeningTriggeredBody },
          errors: [
            'not_found',
            'overage_cap_reached',
            'ad_not_managed',
            'conflict',
            'price_unavailable',
            'unsolicited_contact_limit',
          ],
          idempotency: 'optional',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(request, idempotency, 201, (result: ScreeningTriggered) => result);
      await screening.trigger(
        principalOf(request).accountId,
        request.params.jobId,
        request.params.candidateId,
        request.body,
        answer.seal,
        `key:${principalOf(request).keyId}`,
      );
      return answer.send(reply);
    },
  );
};
