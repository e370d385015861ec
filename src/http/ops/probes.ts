import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized, unavailable } from '../../domain/errors.ts';
import type { Route } from '../types.ts';

/** The bearer token of an Authorization header, if any. */
function bearer(header: string | undefined): string | null {
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header ?? '');
  return match ? match[1]! : null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The health probes, /metrics, and the two OpenAPI documents. */
export const probes: Route = (app, { services, rateLimits, metricsToken }) => {
  /** Null when METRICS_TOKEN is unset: /metrics is off and nothing is collected. */
  const registry = app.metricsRegistry;
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // 503 when the database does not answer (this instance cannot serve); 200 "degraded" when only
  // Redis is out: the API keeps serving with per-instance rate limits (docs/decisions.md).
  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    const ready = await services.readiness().catch((err: unknown) => {
      request.log.warn({ err }, 'readiness check failed');
      return false;
    });
    app.faultMetrics.up('database', ready);
    if (!ready) throw unavailable('The database is unreachable or its migrations are not applied.', 2);
    const health = rateLimits?.health?.();
    if (health?.redis && health.mode !== 'shared') {
      return { status: 'degraded', database: 'up', redis: 'down: rate limits counted per instance' };
    }
    return { status: 'ready', database: 'up', redis: health?.redis ? 'up' : 'not configured' };
  });

  // Behind METRICS_TOKEN (a Prometheus bearer token); without one configured the route is off and
  // answers the 404 of any unknown path. A wrong or missing token costs a hash, no database work.
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (metricsToken === null || registry === null) return reply.callNotFound();
    const given = bearer(request.headers.authorization);
    if (given === null || !sameSecret(given, metricsToken))
      throw unauthorized('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
    reply.type(registry.contentType);
    return registry.metrics();
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/console/v1/openapi.json', { schema: { hide: true } }, async () =>
    (app as unknown as { consoleSwagger: () => unknown }).consoleSwagger(),
  );
};
