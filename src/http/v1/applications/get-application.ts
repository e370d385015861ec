import { ApplicationParams, ApplicationStatusBody } from '../../../contract/intake.ts';
import { principalOf } from '../../../plugins/guard.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const getApplication: Route = (app, { services: { applications } }) => {
  app.get(
    '/v1/applications/:applicationId',
    {
      config: { scope: 'applications:write' },
      schema: {
        params: ApplicationParams,
        ...v1Docs({
          operationId: 'getApplication',
          summary: "An application's status (never the candidate's name, address or CV)",
          tag: 'applications',
          scope: 'applications:write',
          success: { 200: ApplicationStatusBody },
          errors: ['not_found'],
        }),
      },
    },
    async (request) => applications.status(principalOf(request).accountId, request.params.applicationId),
  );
};
