import { type TSchema, Type } from 'typebox';
import { routeErrorCodes } from '../../contract/error-docs.ts';
import type { ErrorCode } from '../../contract/errors.ts';
import { Text } from '../../contract/text.ts';

const RATE_LIMIT_NOTE =
  'Answers carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds); over the limit, 429 `rate_limited` with Retry-After.';

/**
 * The OpenAPI part of a public /v1 route's schema (summary, scope, headers, answers with the shared
 * errors attached); the route adds its own params, querystring and body beside it.
 */
export function v1Docs(options: {
  operationId: string;
  summary: string;
  tag: 'jobs' | 'applications' | 'screening' | 'events';
  scope: string;
  success: Record<number, TSchema>;
  errors?: ErrorCode[];
  rateLimited?: boolean;
  idempotency?: 'optional' | 'required';
}) {
  const rateLimited = options.rateLimited !== false;
  const notes = [`Scope \`${options.scope}\`.`];
  if (rateLimited) notes.push(RATE_LIMIT_NOTE);
  const named: ErrorCode[] = [...(options.errors ?? [])];
  if (options.idempotency) {
    notes.push(
      options.idempotency === 'required'
        ? 'Idempotency-Key is required: a retry with the same key and body replays the first answer (24 hours); another body, or the first still running, is 409 `conflict`.'
        : 'Idempotency-Key is optional and recommended: a retry with the same key and body replays the first answer (24 hours); another body, or the first still running, is 409 `conflict`.',
    );
    named.push('conflict');
  }
  // Every route can answer 429 `rate_limited`: a route outside the per-key limit is still behind
  // the per-address limit on requests without a valid credential, which runs before any lookup.
  const errors = routeErrorCodes(named, { rateLimited: true });
  return {
    operationId: options.operationId,
    summary: options.summary,
    description: notes.join(' '),
    tags: [options.tag],
    // The route's error codes as data; the OpenAPI plugin documents each code's body and an example.
    'x-error-codes': errors,
    ...(options.idempotency
      ? {
          headers: Type.Object({
            'idempotency-key': Type.Optional(
              Text({
                minLength: 1,
                maxLength: 255,
                description: 'A unique key per intended request, up to 255 characters.',
              }),
            ),
          }),
        }
      : {}),
    response: options.success,
  };
}

export const JobRef = Type.Ref('Job');
export const AuthoredJobRef = Type.Ref('AuthoredJob');
