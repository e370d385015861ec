import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { type TObject, type TSchema, Type } from 'typebox';
import { documentedErrors, ErrorBody, errorSchemaId, errorSchemas } from '../contract/error-docs.ts';
import { ERROR_CODES, type ErrorCode } from '../contract/errors.ts';
import { EVENT_SCHEMAS, Event, eventWebhooks } from '../contract/events.ts';
import { AuthoredJob, Job } from '../contract/job.ts';
import { Text } from '../contract/text.ts';
import { refineDocument } from './openapi-document.ts';

export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  app.addSchema(ErrorBody);
  for (const schema of errorSchemas()) app.addSchema(schema);
  app.addSchema(Job);
  app.addSchema(AuthoredJob);
  for (const schema of EVENT_SCHEMAS) app.addSchema(schema);
  app.addSchema(Event);
  registerOnFirstUse(app, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Job Advertisement, Application Intake and Screening API',
        version: '1.0.0',
        description:
          "Read and write an account's job advertisements, receive applications and candidates from the employer's own page, and invite candidates to an automated screening. Every error body is `{ error: { code, message, requestId, ...extra } }`. An Idempotency-Key reused with a different body answers 409 `conflict` (the IETF draft suggests 422; this API keeps 409).",
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: apiContact(publicBaseUrl),
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
    transform: ({ schema, url, route }) => ({ schema: forDocument(schema, route), url }),
    // Every code of the catalogue is registered (routes reference them by name); the document keeps
    // only those some public route can answer, so a console-only code does not show up unused.
    transformObject: (document) =>
      'openapiObject' in document
        ? refineDocument(withoutUnusedErrors(document.openapiObject), apiContact(publicBaseUrl))
        : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
}

type Hook = (...args: unknown[]) => unknown;

/**
 * @fastify/swagger, set up on the first call of the document's decorator rather than at start: its
 * setup loads the OpenAPI generator, a YAML library and a JSON-schema resolver (~90 files, ~50 ms
 * and ~10 MB, issue 14) that a process nobody asks for the document never needs. Until then only
 * the routes and the instances are collected (what the plugin's own hooks would have kept); on
 * the first call the plugin is run against a host that replays them, then it answers as usual.
 */
function registerOnFirstUse(app: FastifyInstance, options: FastifyDynamicSwaggerOptions): void {
  const routes: RouteOptions[] = [];
  const instances: FastifyInstance[] = [];
  let ready = false;
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onRegister', (instance) => {
    instances.push(instance);
  });
  app.addHook('onReady', (done) => {
    ready = true;
    done();
  });
  let document: Hook | null = null;
  const setUp = (): Hook => {
    const hooks: Record<string, Hook[]> = { onRoute: [], onRegister: [], onReady: [] };
    let decorated: Hook | null = null;
    const host = {
      addHook: (name: string, hook: Hook) => hooks[name]?.push(hook),
      decorate: (_name: string, value: Hook) => {
        decorated = value;
      },
      getSchemas: () => app.getSchemas(),
    };
    swagger.fastifySwagger(host as never, { ...options }, (error?: Error) => {
      if (error) throw error;
    });
    for (const route of routes) for (const hook of hooks.onRoute ?? []) hook(route);
    for (const instance of instances) for (const hook of hooks.onRegister ?? []) void hook(instance);
    for (const hook of hooks.onReady ?? []) hook(() => undefined);
    if (decorated === null) throw new Error('@fastify/swagger decorated nothing');
    return decorated;
  };
  app.decorate(options.decorator ?? 'swagger', (...args: unknown[]) => {
    if (!ready) throw new Error('.swagger() must be called after .ready()');
    document ??= setUp();
    return document(...args);
  });
}

function apiContact(publicBaseUrl: string) {
  return { name: 'API reference and support', url: `${publicBaseUrl}/v1/reference` };
}

/** A body-less GET can be neither too large nor of the wrong type. */
const BODY_ERRORS = new Set<ErrorCode>(['payload_too_large', 'unsupported_media_type']);

interface RouteFacts {
  method: string | string[];
  config?: { idempotency?: 'optional' | 'required'; rateLimited?: boolean };
}

/**
 * A route's schema as the document shows it: the error responses of its codes, the Idempotency-Key
 * required where the service requires it (the idempotency plugin, not the validator, answers its
 * absence, with the spec's message), and markers the last pass reads (optional body, rate limits).
 */
function forDocument<T extends object>(schema: T, route: RouteFacts): T {
  const all = (schema as { 'x-error-codes'?: ErrorCode[] })['x-error-codes'];
  if (!all) return schema;
  const methods = [route.method].flat();
  const codes = methods.every((m) => m === 'GET' || m === 'HEAD')
    ? all.filter((c) => !BODY_ERRORS.has(c))
    : all;
  const { response, headers, body } = schema as { response?: object; headers?: TObject; body?: TSchema };
  const documented: Record<string, unknown> = {
    ...schema,
    'x-error-codes': codes,
    response: { ...response, ...documentedErrors(codes) },
  };
  // Every route may answer rate_limited (the per-address limit on bad credentials); only those under
  // the per-key limit send the X-RateLimit headers.
  if (route.config?.rateLimited !== false) documented['x-rate-limited'] = true;
  if (body && (body as { '~optional'?: boolean })['~optional'] === true) documented['x-body-optional'] = true;
  if (route.config?.idempotency === 'required' && headers) {
    documented.headers = Type.Object(
      Object.fromEntries(
        Object.entries(headers.properties).map(([name, property]) => [
          name,
          name === 'idempotency-key' ? Text({ minLength: 1, maxLength: 255 }) : property,
        ]),
      ),
    );
  }
  return documented as T;
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

/** `POST /console/v1/accounts/:accountId/keys` → `postAccountsAccountIdKeys`. */
function consoleOperationId(method: string, url: string): string {
  const words = url
    .replace('/console/v1/', '')
    .split('/')
    .map((part) =>
      part
        .replace(/^:/, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()),
    )
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join('');
}

/**
 * The console API's own document, at /console/v1/openapi.json: every /console/v1 route (they are
 * hidden from the public one), with the console token as its security scheme.
 */
export async function registerConsoleOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  registerOnFirstUse(app, {
    decorator: 'consoleSwagger',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Careers service console API',
        version: '1.0.0',
        description:
          "The operator's API: accounts, keys, managed ads, screening templates and billing, people and suppressions, the mail outbox and dead-lettered tasks. Every call sends `Authorization: Bearer <console token>`; errors have the public API's body `{ error: { code, message, requestId, ...extra } }`.",
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: apiContact(publicBaseUrl),
      },
      servers: [{ url: publicBaseUrl }],
      tags: [{ name: 'console', description: 'Operator routes' }],
      components: {
        securitySchemes: {
          consoleToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Authorization: Bearer <console token>',
          },
        },
      },
      security: [{ consoleToken: [] }],
    },
    transform: ({ schema, url, route }) => {
      const shown = url.startsWith('/console/v1/') && url !== '/console/v1/openapi.json';
      if (!shown) return { schema: { ...schema, hide: true }, url };
      const method = [route.method].flat()[0] ?? 'GET';
      return {
        schema: {
          ...schema,
          hide: false,
          tags: ['console'],
          operationId:
            (schema as { operationId?: string } | undefined)?.operationId ?? consoleOperationId(method, url),
        },
        url,
      };
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
}
