import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../contract/errors.ts';
import { AuthoredJob, Job } from '../contract/job.ts';

export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  app.addSchema(ErrorBody);
  app.addSchema(Job);
  app.addSchema(AuthoredJob);
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
      ],
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
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
}
