import { Type } from 'typebox';
import { ApplicationWrite } from '../../../contract/intake.ts';
import { JobParams } from '../../../contract/job.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

const ValidBody = Type.Object({ valid: Type.Literal(true) });

/**
 * The dry run of POST /v1/jobs/{jobId}/applications (extensions.md §5): the real call's checks up to
 * the answers and the upload, answering 200 `{ valid: true }` or the real call's error. It writes,
 * spends, sends and counts nothing but the key's per-minute rate limit; no Idempotency-Key.
 */
export const validateApplication: Route = (app, { services: { applications } }) => {
  app.post(
    '/v1/jobs/:jobId/applications/validate',
    {
      config: { scope: 'applications:write' },
      schema: {
        params: JobParams,
        body: ApplicationWrite,
        ...v1Docs({
          operationId: 'validateApplication',
          summary:
            "Check an application without sending it: the shape, the job, the consent receipt, the attestation, the answers to the job's questions and the upload (not the daily budget, not the PDF's CV checks); nothing is written or spent",
          tag: 'applications',
          scope: 'applications:write',
          success: { 200: ValidBody },
          errors: [
            'not_found',
            'job_not_open',
            'consent_invalid',
            'attestation_required',
            'answers_invalid',
            'upload_invalid',
          ],
        }),
      },
    },
    async (request) =>
      applications.validate(principalOf(request).accountId, request.params.jobId, request.body),
  );
};
