import { type TSchema, Type } from 'typebox';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode, errorStatus } from './errors.ts';

/**
 * How the error catalogue (errors.ts) is documented: the generic error body, one schema per code
 * with an example, and each route's list of error responses.
 */

/** The generic error body: every code's shape is this with its own extra fields beside. */
export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'Stable, machine-readable error code.' }),
        message: Type.String({ description: 'What went wrong, for a developer.' }),
        requestId: Type.String({ description: 'Quote it to support; also sent as the x-request-id header.' }),
      },
      {
        additionalProperties: true,
        description: 'Code-specific extra fields sit beside code, message and requestId.',
      },
    ),
  },
  { $id: 'Error', title: 'Error' },
);

/** `job_not_open` → `JobNotOpenError`: the component each code's body is documented under. */
export function errorSchemaId(code: ErrorCode): string {
  return `${code.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}Error`;
}

const EXAMPLE_REQUEST_ID = 'req_01J9Z6Q4T8N5V2W7X3Y0K1M6PB';

function exampleBody(code: ErrorCode) {
  const { message, ...extra } = ERROR_CATALOGUE[code].example as { message: string };
  return { error: { code, message, requestId: EXAMPLE_REQUEST_ID, ...extra } };
}

/**
 * One schema per code, for the document's components: the `error` object with that code's extras,
 * closed. The responses pick among them by `code` (an OpenAPI discriminator).
 */
export function errorSchemas(): TSchema[] {
  return ERROR_CODES.map((code) => {
    const { extra, when, status } = ERROR_CATALOGUE[code];
    return Type.Object(
      {
        code: Type.Literal(code),
        message: Type.String({ description: 'What went wrong, for a developer.' }),
        requestId: Type.String({ description: 'Quote it to support; also the x-request-id header.' }),
        ...extra.properties,
      },
      {
        additionalProperties: false,
        $id: errorSchemaId(code),
        title: errorSchemaId(code),
        description: `${status} \`${code}\`: ${when}`,
        examples: [exampleBody(code).error],
      },
    );
  });
}

/** Errors any authenticated /v1 route can answer; attached to every route by `documentedErrors`. */
const SHARED_V1: ErrorCode[] = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'payload_too_large',
  'unsupported_media_type',
  'header_too_large',
  'internal',
];

/** The codes a route answers, in the order of their status: the route's error list as data. */
export function routeErrorCodes(
  codes: readonly ErrorCode[],
  options: { rateLimited?: boolean; shared?: boolean } = {},
): ErrorCode[] {
  const all = new Set<ErrorCode>(codes);
  if (options.shared !== false) for (const code of SHARED_V1) all.add(code);
  if (options.rateLimited) all.add('rate_limited');
  return [...all].sort(
    (a, b) => errorStatus(a) - errorStatus(b) || ERROR_CODES.indexOf(a) - ERROR_CODES.indexOf(b),
  );
}

/**
 * A route's error responses, one per HTTP status: the body schema of each code it can answer there
 * (a reference to the code's component; several codes are `oneOf` them), a named example per code,
 * and `Retry-After` where the codes send it.
 */
export function documentedErrors(codes: readonly ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    const refs = list.map((code) => Type.Ref(errorSchemaId(code)));
    const description = `Error: ${list.map((code) => `\`${code}\``).join(', ')}.`;
    const error =
      refs.length === 1
        ? refs[0]!
        : Type.Unsafe({
            oneOf: refs,
            discriminator: {
              propertyName: 'code',
              mapping: Object.fromEntries(
                list.map((code) => [code, `#/components/schemas/${errorSchemaId(code)}`]),
              ),
            },
          });
    const examples = Object.fromEntries(
      list.map((code) => [code, { summary: ERROR_CATALOGUE[code].when, value: exampleBody(code) }]),
    );
    const retryAfter = list.map((code) => ERROR_CATALOGUE[code].retryAfter).filter(Boolean);
    responses[status] = Type.Object(
      { error },
      {
        description,
        'x-examples': examples,
        ...(retryAfter.length > 0
          ? {
              headers: {
                'retry-after': Type.Integer({
                  minimum: 1,
                  description:
                    retryAfter.length === list.length && retryAfter.every((r) => r === 'always')
                      ? 'Seconds to wait before retrying.'
                      : 'Seconds to wait before retrying, when the service knows.',
                }),
              },
            }
          : {}),
      },
    );
  }
  return responses;
}
