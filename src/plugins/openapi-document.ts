import { REQUEST_EXAMPLES } from './openapi-examples.ts';

/**
 * The last pass over the generated document, so that a client generator names every type and
 * knows every header: request and response bodies become named component schemas, parameters get
 * their descriptions, answers declare the headers the service sends, and request bodies get an
 * example. It only rewrites the document; nothing here reaches validation or serialisation.
 */

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  example?: unknown;
}
interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Parameter {
  in: string;
  name: string;
  description?: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
  security?: unknown[];
  'x-body-optional'?: boolean;
  'x-rate-limited'?: boolean;
  [key: string]: unknown;
}
export interface OpenApiDocument {
  info?: Json;
  paths?: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** Descriptions of parameters that many routes share, by `in` and name. */
const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  'path:jobId': "The job's id, as answered when it was created.",
  'path:applicationId': "The application's id (`applicationId` of the create answer).",
  'path:candidateId': "The candidate's id (an `applicationId` or a `candidateId` of an import).",
  'path:accountId': "The account's id.",
  'path:keyId': "The key's id.",
  'path:taskId': "The task's id.",
  'path:templateId': "The screening template's id.",
  'path:screeningId': "The screening's id.",
  'query:limit': 'Most items in one page (1–100, default 50).',
  'query:cursor': 'The `nextCursor` of the previous page; leave out for the first page.',
  'query:locale': 'The language of the text: en, es, fr or pt (default en).',
  'header:idempotency-key':
    'A unique key per intended request, up to 255 characters: a retry with the same key and body replays the first answer for 24 hours.',
};

export const RESPONSE_HEADERS = {
  XRequestId: {
    description: 'The request id; quote it to support (also `requestId` in error bodies).',
    schema: { type: 'string' },
  },
  XRateLimitLimit: {
    description: "Requests the key may send in the current minute's window.",
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitRemaining: {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitReset: {
    description: 'When the window resets, in seconds since the epoch.',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description: '`true` when the answer is the replay of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Names an inline schema: the same name for the same schema, a new name never clashing. */
function namer(schemas: Record<string, unknown>) {
  return (wanted: string, schema: Json): Json => {
    if (typeof schema.$ref === 'string') return schema;
    const text = JSON.stringify(schema);
    let name = wanted;
    for (let n = 2; name in schemas && JSON.stringify(schemas[name]) !== text; n++) name = `${wanted}${n}`;
    schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  };
}

/** An error body `{ error: <one code's schema> }` is named after that code's component. */
function errorBodyName(schema: Json, fallback: string): string {
  const error = (schema.properties as Json | undefined)?.error as Json | undefined;
  const ref = error?.$ref;
  if (typeof ref === 'string') return `${ref.replace('#/components/schemas/', '')}Body`;
  return fallback;
}

/** Webhook operations get an id (`jobPublishedWebhook`) and the `webhooks` tag, for generators. */
function nameWebhooks(document: OpenApiDocument): void {
  const webhooks = document.webhooks as Record<string, Record<string, Operation>> | undefined;
  if (!webhooks || Object.keys(webhooks).length === 0) return;
  for (const [event, methods] of Object.entries(webhooks)) {
    for (const operation of Object.values(methods)) {
      const words = event.split(/[._]/).map((word, i) => (i === 0 ? word : pascal(word)));
      operation.operationId ??= `${words.join('')}Webhook`;
      operation.tags ??= ['webhooks'];
    }
  }
  const tags = (document.tags as { name: string }[] | undefined) ?? [];
  if (!tags.some((tag) => tag.name === 'webhooks')) {
    document.tags = [
      ...tags,
      { name: 'webhooks', description: 'What the service POSTs to an endpoint subscribed to events' },
    ];
  }
}

export function refineDocument<T extends object>(input: T, contact: Json): T {
  const document = structuredClone(input) as OpenApiDocument;
  document.info = { ...document.info, contact };
  document.components ??= {};
  const components = document.components;
  components.schemas ??= {};
  const schemas = components.schemas;
  components.headers = { ...(components.headers ?? {}), ...RESPONSE_HEADERS };
  const name = namer(schemas);

  nameWebhooks(document);
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const op = pascal(operation.operationId ?? 'operation');
      for (const parameter of operation.parameters ?? []) {
        parameter.description ??= PARAMETER_DESCRIPTIONS[`${parameter.in}:${parameter.name}`];
        if (parameter.description === undefined) delete parameter.description;
      }
      const idempotent = (operation.parameters ?? []).some(
        (p) => p.in === 'header' && p.name === 'idempotency-key',
      );

      if (operation.requestBody) {
        if (operation['x-body-optional']) operation.requestBody.required = false;
        for (const media of Object.values(operation.requestBody.content ?? {})) {
          if (media.schema) media.schema = name(`${op}Request`, media.schema);
          const example = REQUEST_EXAMPLES[operation.operationId ?? ''];
          if (example !== undefined) media.example = example;
        }
      }
      delete operation['x-body-optional'];

      const rateLimited = operation['x-rate-limited'] === true;
      delete operation['x-rate-limited'];
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const success = status.startsWith('2');
        if (response.description === 'Default Response') {
          response.description = success ? 'Success.' : `Status ${status}.`;
        }
        for (const media of Object.values(response.content ?? {})) {
          if (!media.schema) continue;
          media.schema = success
            ? name(`${op}Response`, media.schema)
            : name(errorBodyName(media.schema, `${op}${status}ErrorBody`), media.schema);
        }
        const headers: Record<string, unknown> = { 'x-request-id': headerRef('XRequestId') };
        if (rateLimited) {
          headers['x-ratelimit-limit'] = headerRef('XRateLimitLimit');
          headers['x-ratelimit-remaining'] = headerRef('XRateLimitRemaining');
          headers['x-ratelimit-reset'] = headerRef('XRateLimitReset');
        }
        if (idempotent && success) headers['idempotent-replayed'] = headerRef('IdempotentReplayed');
        response.headers = { ...headers, ...(response.headers ?? {}) };
      }
    }
  }
  return document as T;
}
