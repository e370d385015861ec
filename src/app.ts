import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import type { ConfiguredBlobStore } from './blob-store/index.ts';
import type { Services } from './deps.ts';
import { badRequest, headerTooLarge } from './domain/errors.ts';
import { registerApplyPages } from './http/pages/apply-page.ts';
import type { ApplyTunables } from './http/pages/apply/challenge.ts';
import { registerConsoleWeb } from './http/console-web/index.ts';
import { routes } from './http/routes.ts';
import { registerProbes } from './http/ops/probes.ts';
import { registerLocalUploadRoute } from './http/uploads/receive-upload.ts';
import type { App } from './http/types.ts';
import {
  MAX_PARAM_LENGTH,
  registerErrorHandling,
  renderError,
  renderFrameworkError,
} from './plugins/error-handler.ts';
import { registerFaultMetrics, watchRateLimitStore } from './plugins/fault-errors.ts';
import { registerGuard } from './plugins/guard.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerJsonBodyParser } from './plugins/json-body.ts';
import { registerRequestLog } from './plugins/log.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerConsoleOpenApi, registerOpenApi } from './plugins/openapi.ts';
import { newId } from './lib/ids.ts';
import type { Clock } from './lib/clock.ts';
import type { RateLimitStore } from './rate-limit/store.ts';

export interface AppOptions {
  services: Services;
  /** The CV store; the local one receives its presigned PUTs through this app. */
  files: ConfiguredBlobStore;
  rateLimits: RateLimitStore;
  clock: Clock;
  consoleToken: string;
  publicBaseUrl: string;
  bodyLimitBytes?: number;
  trustProxy?: boolean | number | string;
  logger?: FastifyServerOptions['logger'];
  /** Requests without a valid credential one client address may send a minute (the guard's default otherwise). */
  authFailuresPerMinute?: number;
  /** The hosted apply page's abuse limits (challenge.ts's defaults otherwise). */
  applyPage?: Partial<ApplyTunables>;
  /** METRICS_TOKEN: the bearer token /metrics asks for; absent, /metrics is off. */
  metricsToken?: string | null;
}

export const MAX_HEADER_BYTES = 16_384;

function hopCount(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

function validators() {
  // Bodies are strict: an unknown or forbidden field is a 400, never silently dropped or coerced.
  const strict = new Ajv({
    allErrors: false,
    removeAdditional: false,
    coerceTypes: false,
    useDefaults: false,
    strict: false,
  });
  // Query strings and path parameters arrive as text; their numbers are read from it.
  const lenient = new Ajv({
    allErrors: false,
    removeAdditional: false,
    coerceTypes: true,
    useDefaults: true,
    strict: false,
  });
  addFormats.default(strict);
  addFormats.default(lenient);
  return { strict, lenient };
}

/** Builds the service's HTTP app; it never listens (tests inject, main.ts listens). */
export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimitBytes ?? 1_048_576,
    // A hop count trusts that many proxies nearest to the server.
    trustProxy:
      typeof options.trustProxy === 'number' ? hopCount(options.trustProxy) : (options.trustProxy ?? false),
    genReqId: () => newId('req'),
    // One line per answered request instead of Fastify's two: see registerRequestLog.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    requestIdHeader: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: false },
    frameworkErrors: renderFrameworkError,
    // The socket-level refusals Node answers before Fastify sees a request: keep the error body.
    clientErrorHandler(error, socket) {
      if (!socket.writable) return;
      const oversized = (error as { code?: string }).code === 'HPE_HEADER_OVERFLOW';
      const appError = oversized
        ? headerTooLarge(MAX_HEADER_BYTES)
        : badRequest('The request could not be parsed as HTTP.');
      const requestId = newId('req');
      const { statusCode, body } = renderError(appError, requestId);
      const reason = oversized ? 'Request Header Fields Too Large' : 'Bad Request';
      socket.end(
        `HTTP/1.1 ${statusCode} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Only JSON bodies are accepted; text/plain is answered 415 like any other type.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  const { strict, lenient } = validators();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return lenient.compile(schema);
    const validate = strict.compile(schema);
    // A body the route marks optional (Type.Optional) may be left out; Fastify validates it as null.
    if ((schema as { '~optional'?: boolean })['~optional'] !== true) return validate;
    const optional = Object.assign(
      (data: unknown): boolean => {
        if (data === null) return true;
        const ok = validate(data);
        optional.errors = validate.errors;
        return ok;
      },
      { errors: null as typeof validate.errors },
    );
    return optional;
  });

  // Set when the request arrives, so that every answer carries them, errors included; a route that
  // may be cached sets its own cache-control over the default. A callback hook, not an async one:
  // it runs on every request and awaits nothing.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers({
      'x-request-id': request.id,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    done();
  });
  if (options.logger) registerRequestLog(app);

  const registry = registerMetrics(app);
  const faultMetrics = registerFaultMetrics(app, registry);
  watchRateLimitStore(app, options.rateLimits, faultMetrics);
  await registerOpenApi(app, options.publicBaseUrl);
  await registerConsoleOpenApi(app, options.publicBaseUrl);
  registerGuard(app, {
    keys: options.services.keys,
    rateLimits: options.rateLimits,
    clock: options.clock,
    consoleToken: options.consoleToken,
    onLimitsChanged: options.services.accounts.onLimitsChanged,
    ...(options.authFailuresPerMinute === undefined
      ? {}
      : { authFailuresPerMinute: options.authFailuresPerMinute }),
  });
  const storeRefusal = registerIdempotency(app, options.services.idempotency);
  registerErrorHandling(app, storeRefusal);

  registerProbes(app, options.services, registry, options.rateLimits, options.metricsToken ?? null);
  if (options.files.kind === 'local') {
    registerLocalUploadRoute(app, options.files, (key) => options.services.uploads.markReceived(key));
  }
  for (const route of routes) route(app, options.services);
  registerApplyPages(app, options.services, {
    rateLimits: options.rateLimits,
    clock: options.clock,
    secureCookies: options.publicBaseUrl.startsWith('https://'),
    ...(options.applyPage ? { tunables: options.applyPage } : {}),
  });
  registerConsoleWeb(app, options.services, {
    rateLimits: options.rateLimits,
    clock: options.clock,
    secureCookies: options.publicBaseUrl.startsWith('https://'),
  });
  await app.ready();
  return app;
}
