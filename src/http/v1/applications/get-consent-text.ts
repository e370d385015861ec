import { ConsentTextBody, ConsentTextQuery } from '../../../contract/intake.ts';
import { currentConsentText } from '../../../domain/consent/consent-texts.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

export const getConsentText: Route = (app) => {
  app.get(
    '/v1/consent-text',
    {
      config: { scope: 'applications:write' },
      schema: {
        querystring: ConsentTextQuery,
        ...v1Docs({
          operationId: 'getConsentText',
          summary: 'The consent text to render beside the apply button',
          tag: 'applications',
          scope: 'applications:write',
          success: { 200: ConsentTextBody },
        }),
      },
    },
    async (request) => currentConsentText(request.query.locale ?? 'en'),
  );
};
