import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SAFE_TEXT_PATTERN, SAFE_TEXT_RULE } from '../contract/text.ts';
import {
  AppError,
  badRequest,
  errorForStatus,
  internal,
  noRoute,
  payloadTooLarge,
  unsupportedMediaType,
} from '../domain/errors.ts';
import { faultError } from './fault-errors.ts';

/** The longest path parameter the router reads; a longer one is refused before any route runs. */
export const MAX_PARAM_LENGTH = 200;

/** Field names echoed in a message are cut here: a client may send any name, of any length. */
const MAX_ECHOED_NAME = 100;

export interface RenderedError {
  statusCode: number;
  body: string;
}

/** The one renderer: `{ error: { code, message, requestId, ...extra } }`. */
export function renderError(error: AppError, requestId: string): RenderedError {
  const body = { error: { code: error.code, message: error.message, requestId, ...error.extra } };
  return { statusCode: error.status, body: JSON.stringify(body) };
}

function fieldName(
  context: string | undefined,
  instancePath: string,
  missing?: string,
  extra?: string,
): string {
  const parts = instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (missing) parts.push(missing);
  if (extra) parts.push(extra.length > MAX_ECHOED_NAME ? `${extra.slice(0, MAX_ECHOED_NAME)}…` : extra);
  const path = parts.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    '',
  );
  return path || (context ?? 'body');
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** Set when the issue is about a property's name (`propertyNames`), not its value. */
  propertyName?: string;
}

/** Turns the first schema violation into a message that names the field, and the field itself. */
export function describeValidation(
  issue: AjvIssue,
  context: string | undefined,
): { message: string; field: string } {
  const where =
    context === 'querystring'
      ? 'query parameter'
      : context === 'params'
        ? 'path parameter'
        : context === 'headers'
          ? 'header'
          : 'field';
  if (issue.keyword === 'additionalProperties') {
    const field = fieldName(context, issue.instancePath, undefined, String(issue.params.additionalProperty));
    return { field, message: `${field} is not an accepted ${where}; remove it.` };
  }
  if (issue.keyword === 'required') {
    const field = fieldName(context, issue.instancePath, String(issue.params.missingProperty));
    return { field, message: `${field} is required.` };
  }
  const field = fieldName(context, issue.instancePath);
  if (issue.propertyName !== undefined) {
    const rule =
      issue.params.pattern === SAFE_TEXT_PATTERN ? SAFE_TEXT_RULE : (issue.message ?? 'is invalid');
    return { field, message: `A property name in ${field} ${rule}.` };
  }
  if (issue.keyword === 'enum') {
    const allowed = (issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    return { field, message: `${field} must be one of ${allowed}.` };
  }
  if (issue.keyword === 'pattern' && issue.params.pattern === SAFE_TEXT_PATTERN) {
    return { field, message: `${field} ${SAFE_TEXT_RULE}.` };
  }
  if (issue.keyword === 'type' && context === 'body' && issue.instancePath === '') {
    return { field: 'body', message: 'The request body must be a JSON object.' };
  }
  return { field, message: `${field} ${issue.message ?? 'is invalid'}.` };
}

/** Maps what Fastify itself throws (parsing, limits, validation) into the catalogue. */
export function toAppError(error: FastifyError): AppError | null {
  if (error instanceof AppError) return error;
  if (error.validation && error.validation.length > 0) {
    const { message, field } = describeValidation(error.validation[0] as AjvIssue, error.validationContext);
    return badRequest(message, { field });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType('Send the body as JSON with Content-Type: application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest(
        'The body is empty but Content-Type says JSON; send a JSON object or no Content-Type.',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('Content-Length does not match the body sent.');
    case 'FST_ERR_BAD_URL':
      return badRequest(
        'The request path is malformed: a percent-escape is incomplete or does not decode to UTF-8 text.',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return badRequest(`A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`);
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return badRequest('The request URL is malformed.');
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return badRequest('The request body is not valid JSON.');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return errorForStatus(status, error.message);
  return null;
}

export type ErrorObserver = (
  request: FastifyRequest,
  error: AppError,
  rendered: RenderedError,
) => Promise<void>;

export function sendError(reply: FastifyReply, error: AppError, requestId: string): RenderedError {
  const rendered = renderError(error, requestId);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  reply.code(rendered.statusCode).type('application/json; charset=utf-8').send(rendered.body);
  return rendered;
}

export function registerErrorHandling(app: FastifyInstance, onError: ErrorObserver): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    let appError = toAppError(error) ?? faultError(request, error);
    if (appError === null) {
      request.log.error({ err: error }, 'unexpected failure');
      appError = internal();
    } else if (appError.status >= 500) {
      request.log.error({ err: error }, 'service failure');
    }
    const rendered = renderError(appError, request.id);
    await onError(request, appError, rendered);
    sendError(reply, appError, request.id);
    return reply;
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(reply, noRoute(request.method, request.url.split('?')[0]!), request.id);
  });
}

/**
 * What the router refuses before any route or hook runs (a path that does not percent-decode to
 * UTF-8, a path parameter over MAX_PARAM_LENGTH characters): Fastify's `frameworkErrors`, rendered
 * like every other error, with the headers the onRequest hook would have set.
 */
export function renderFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const appError = toAppError(error) ?? internal();
  reply.headers({
    'x-request-id': request.id,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  sendError(reply, appError, request.id);
}
