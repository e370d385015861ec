import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  documentedErrors,
  ERROR_CODES,
  ErrorBody,
  type ErrorCode,
  errorSchemaId,
  errorSchemas,
} from '../contract/errors.ts';
import { AuthoredJob, Job } from '../contract/job.ts';
import { EVENT_SCHEMAS, Event, eventWebhooks } from '../contract/events.ts';

export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  app.addSchema(ErrorBody);
  for (const schema of errorSchemas()) app.addSchema(schema);
  app.addSchema(Job);
  app.addSchema(AuthoredJob);
  for (const schema of EVENT_SCHEMAS) app.addSchema(schema);
  app.addSchema(Event);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Job Advertisement, Application Intake and Screening API',
        version: '1.0.0',
        description:
          "Read and write an account's job advertisements, receive applications and candidates from the employer's own page, and invite candidates to an automated screening. Every error body is `{ error: { code, message, requestId, ...extra } }`. An Idempotency-Key reused with a different body answers 409 `conflict` (the IETF draft suggests 422; this API keeps 409).",
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicBaseUrl }],
      tags: [
        { name: 'jobs', description: 'Job advertisements' },
        { name: 'applications', description: 'Consent text, uploads, applications and candidates' },
        { name: 'screening', description: 'Automated screening invitations' },
        { name: 'events', description: 'The change feed; the same events are delivered to webhooks' },
      ],
      // Each event type's webhook body, so generated clients type what an endpoint receives.
      webhooks: eventWebhooks() as never,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'The API key in x-api-key',
          },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    },
    // A route lists its error codes as data (`x-error-codes`); their responses are written into the
    // document only, so Fastify never compiles serializers for bodies the error renderer writes.
    transform: ({ schema, url }) => ({ schema: withErrorResponses(schema), url }),
    // Every code of the catalogue is registered (routes reference them by name); the document keeps
    // only those some public route can answer, so a console-only code does not show up unused.
    transformObject: (document) =>
      'openapiObject' in document ? withoutUnusedErrors(document.openapiObject) : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
}

function withErrorResponses<T extends object>(schema: T): T {
  const codes = (schema as { 'x-error-codes'?: ErrorCode[] })['x-error-codes'];
  if (!codes) return schema;
  const { response } = schema as { response?: object };
  return { ...schema, response: { ...response, ...documentedErrors(codes) } };
}

function withoutUnusedErrors<T extends { components?: { schemas?: object } }>(document: T): T {
  const schemas = document.components?.schemas as Record<string, unknown> | undefined;
  if (!schemas) return document;
  const used = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
  const unused = new Set(
    [...ERROR_CODES.map(errorSchemaId), 'Error'].filter(
      (id) => !used.includes(`#/components/schemas/${id}"`),
    ),
  );
  const kept = Object.fromEntries(Object.entries(schemas).filter(([id]) => !unused.has(id)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
