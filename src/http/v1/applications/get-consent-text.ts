import { type ConsentText, ConsentTextBody, ConsentTextQuery } from '../../../contract/intake.ts';
import { type ConsentLocale, currentConsentText } from '../../../domain/consent/consent-texts.ts';
import type { Route } from '../../types.ts';
import { v1Docs } from '../schema.ts';

// The words of a locale never change while the service runs: each answer is serialised once, in
// the response schema's order, and sent as it stands (issue 14: the baseline answers a constant).
const bodies = new Map<ConsentLocale, string>();
function bodyOf(locale: ConsentLocale): string {
  let body = bodies.get(locale);
  if (body === undefined) {
    const text: ConsentText = currentConsentText(locale);
    body = JSON.stringify({
      consentTextId: text.consentTextId,
      version: text.version,
      locale: text.locale,
      text: text.text,
    });
    bodies.set(locale, body);
  }
  return body;
}

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
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(bodyOf(request.query.locale ?? 'en')),
  );
};
