import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type * as AjvModule from 'ajv';
import type { Ajv } from 'ajv';
import type AddFormats from 'ajv-formats';
import Fastify, { LogController } from 'fastify';
import type { Registry } from 'prom-client';
import { badRequest, headerTooLarge, requestTimeout } from './domain/errors.ts';
import { guardCapabilityRoutes } from './http/capability-urls.ts';
import type { HttpContext } from './http/context.ts';
import { probes } from './http/ops/probes.ts';
import { routes } from './http/routes.ts';
import type { App } from './http/types.ts';
import { isEmailAddress } from './lib/email.ts';
import { newId } from './lib/ids.ts';
import {
  capConnectionsPerAddress,
  DEFAULT_CONNECTION_LIMITS,
  registerBodyDeadlines,
  serverTimeouts,
} from './plugins/connections.ts';
import { registerDrain } from './plugins/drain.ts';
import { watchEmbeddings } from './plugins/embeddings-metrics.ts';
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
import { registerConsoleOpenApi, registerOpenApi } from './plugins/openapi.ts';
import { withPlainNumbers } from './plugins/query-numbers.ts';

export const MAX_HEADER_BYTES = 16_384;

function hopCount(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/**
 * The route validators: Ajv, two instances made on the first compile. Given to Fastify through its
 * schema controller, so that Fastify does not load its own Ajv compiler only to replace it.
 */
function validatorCompiler() {
  let instances: { strict: Ajv; lenient: Ajv } | null = null;
  const ajv = () => {
    if (instances !== null) return instances;
    // Ajv itself is loaded with the first schema compiled (CommonJS: required synchronously).
    const load = createRequire(import.meta.url);
    const { Ajv } = load('ajv') as typeof AjvModule;
    const addFormats = load('ajv-formats') as typeof AddFormats;
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
    // The one email check, shared with the hosted apply page (issue 25.3).
    strict.addFormat('email', isEmailAddress);
    lenient.addFormat('email', isEmailAddress);
    instances = { strict, lenient };
    return instances;
  };
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
    if (httpPart !== 'body')
      return withPlainNumbers(
        schema,
        onFirstUse(() => ajv().lenient.compile(schema)),
      );
    const validate = onFirstUse(() => ajv().strict.compile(schema));
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
  };
}

/**
 * A validator compiled on its first call rather than when the app starts: compiling every route's
 * schemas (Ajv, and fast-json-stringify below) was a third of the start-up's CPU (issue 14), for
 * routes most processes never serve. `errors` is read by Fastify after each call.
 */
function onFirstUse<F extends ((data: unknown) => boolean) & { errors?: unknown }>(compile: () => F) {
  let compiled: F | null = null;
  const validate = Object.assign(
    (data: unknown): boolean => {
      compiled ??= compile();
      const ok = compiled(data);
      validate.errors = compiled.errors;
      return ok;
    },
    { errors: null as F['errors'] | null },
  );
  return validate;
}

type SerializerFactory = (
  externalSchemas: unknown,
  options: unknown,
) => (route: unknown) => (data: unknown) => string;

/**
 * Fastify's own response serialisers (fast-json-stringify with the shared schemas), each built on
 * its first answer; fast-json-stringify itself (and the Ajv it brings) is loaded then too.
 */
function lazySerializers(): SerializerFactory {
  let factory: SerializerFactory | null = null;
  return (externalSchemas, options) => {
    let compiler: ((route: unknown) => (data: unknown) => string) | null = null;
    return (route) => {
      let serialize: ((data: unknown) => string) | null = null;
      return (data) => {
        if (serialize === null) {
          factory ??= (
            createRequire(import.meta.resolve('fastify'))(
              '@fastify/fast-json-stringify-compiler',
            ) as () => SerializerFactory
          )();
          compiler ??= factory(externalSchemas, options);
          serialize = compiler(route);
        }
        return serialize(data);
      };
    };
  };
}

/**
 * Builds the service's HTTP app from its context; it never listens (tests inject, main.ts listens;
 * both build it through src/runtime.ts). In the order a request meets them: the server, the body
 * parser and common headers, the plugins (metrics, OpenAPI, guard, idempotency, errors), then the
 * routes, each registered with the same context (src/http/routes.ts).
 */
export async function buildApp(context: HttpContext): Promise<App> {
  const app = createServer(context);
  guardCapabilityRoutes(app);
  const limits = context.connections ?? DEFAULT_CONNECTION_LIMITS;
  registerBodyDeadlines(app, limits);
  capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress);
  registerDrain(app);
  // Only JSON bodies are accepted; text/plain is answered 415 like any other type.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  registerCommonHeaders(app);
  if (context.logger) registerRequestLog(app);
  if (context.role === 'worker') {
    // A worker serves its probes and /metrics only: every other path is the 404 of an unknown one.
    await registerMetricsPlugins(app, context);
    registerErrorHandling(app, async () => undefined);
    probes(app, context);
  } else {
    await registerPlugins(app, context);
    for (const route of routes) route(app, context);
  }
  await app.ready();
  return app;
}

function createServer(options: HttpContext) {
  const validate = validatorCompiler();
  return Fastify({
    ...serverTimeouts(options.connections ?? DEFAULT_CONNECTION_LIMITS),
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimitBytes ?? 1_048_576,
    // A hop count trusts that many proxies nearest to the server.
    trustProxy:
      typeof options.trustProxy === 'number' ? hopCount(options.trustProxy) : (options.trustProxy ?? false),
    genReqId: () => newId('req'),
    schemaController: {
      compilersFactory: {
        buildValidator: (() => validate) as never,
        buildSerializer: lazySerializers() as never,
      },
    },
    // One line per answered request instead of Fastify's two: see registerRequestLog.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    requestIdHeader: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: false },
    frameworkErrors: renderFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/** The socket-level refusals Node answers before Fastify sees a request: keep the error body. */
function answerClientError(error: Error, socket: Socket): void {
  if (!socket.writable) return;
  const code = (error as { code?: string }).code;
  const oversized = code === 'HPE_HEADER_OVERFLOW';
  // Node's headers timeout (and its request timeout, the backstop): a 408, the connection closed.
  const late = code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const appError = oversized
    ? headerTooLarge(MAX_HEADER_BYTES)
    : late
      ? requestTimeout(
          'headers',
          (socket as { server?: { headersTimeout?: number } }).server?.headersTimeout ?? 0,
        )
      : badRequest('The request could not be parsed as HTTP.');
  const requestId = newId('req');
  const { statusCode, body } = renderError(appError, requestId);
  const reason = oversized ? 'Request Header Fields Too Large' : late ? 'Request Timeout' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${statusCode} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Set when the request arrives, so that every answer carries them, errors included; a route that
 * may be cached sets its own cache-control over the default. A callback hook, not an async one:
 * it runs on every request and awaits nothing.
 */
function registerCommonHeaders(app: App): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers({
      'x-request-id': request.id,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    done();
  });
}

/**
 * The metrics (only when they can be read, METRICS_TOKEN: prom-client and its collectors are not
 * loaded otherwise, issue 14: ~45 ms of start-up and ~8 MB) and the fault counters.
 */
async function registerMetricsPlugins(app: App, options: HttpContext) {
  let registry: Registry | null = null;
  if (options.metricsToken) {
    registry = (await import('./plugins/metrics.ts')).registerMetrics(app, options.role);
    (await import('./plugins/ops-metrics.ts')).registerOpsMetrics(registry, {
      role: options.role,
      taskNames: Object.keys(options.services.taskHandlers),
      opsStats: options.services.opsStats,
      background: options.background,
      pdfChecker: options.pdfChecker,
      log: app.log,
    });
  }
  app.decorate('metricsRegistry', registry);
  const faultMetrics = registerFaultMetrics(app, registry);
  watchRateLimitStore(app, options.rateLimits, faultMetrics);
  return registry;
}

/** Metrics, fault counters, the OpenAPI documents, the guard, idempotency and error rendering. */
async function registerPlugins(app: App, options: HttpContext): Promise<void> {
  const registry = await registerMetricsPlugins(app, options);
  watchEmbeddings(app, options.services.matches, registry);
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
}
