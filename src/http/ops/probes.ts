import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized, unavailable } from '../../domain/errors.ts';
import type { BackgroundProbe } from '../context.ts';
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

/**
 * Whether the task worker's loop runs: started, not stopping, and polling (a poll waits for the
 * tasks it claimed) or polled within the last minute. Null when this process runs no worker.
 */
export function workerLoopRunning(background: BackgroundProbe | undefined, now = Date.now()): boolean | null {
  const worker = background?.worker() ?? null;
  if (worker === null) return null;
  const recent = worker.lastPollAt !== null && now - worker.lastPollAt < Math.max(60_000, worker.pollMs * 10);
  return worker.running && (worker.polling || recent);
}

/** The health probes, /metrics, and (except in a worker) the two OpenAPI documents. */
export const probes: Route = (app, { services, rateLimits, metricsToken, role, background }) => {
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
    // A process that runs the task worker (ROLE=worker or all) is ready only while its loop runs.
    const loop = workerLoopRunning(background);
    if (loop === false) throw unavailable('The task worker is not running (starting or stopping).', 2);
    const worker = loop === null ? {} : { worker: 'running' };
    const health = rateLimits?.health?.();
    if (health?.redis && health.mode !== 'shared') {
      return {
        status: 'degraded',
        database: 'up',
        redis: 'down: rate limits counted per instance',
        ...worker,
      };
    }
    return { status: 'ready', database: 'up', redis: health?.redis ? 'up' : 'not configured', ...worker };
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

  if (role === 'worker') return;
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/console/v1/openapi.json', { schema: { hide: true } }, async () =>
    (app as unknown as { consoleSwagger: () => unknown }).consoleSwagger(),
  );
};
