import { UploadCreate, type UploadSlot, UploadSlotBody } from '../../../contract/intake.ts';
import { principalOf } from '../../../plugins/guard.ts';
import { answerWith } from '../../../plugins/idempotency.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const createUpload: Route = (app, { services: { uploads, idempotency } }) => {
  app.post(
    '/v1/uploads',
    {
      config: { scope: 'applications:write', idempotency: 'optional' },
      schema: {
        body: UploadCreate,
        ...v1Docs({
          operationId: 'createUpload',
          summary: 'Start a CV upload: a presigned PUT address valid five minutes',
          tag: 'applications',
          scope: 'applications:write',
          success: { 201: UploadSlotBody },
          idempotency: 'optional',
        }),
      },
    },
    async (request, reply) => {
      const answer = answerWith(request, idempotency, 201, (slot: UploadSlot) => slot);
      await uploads.create(principalOf(request).accountId, request.body, answer.seal);
      return answer.send(reply);
    },
  );
};
