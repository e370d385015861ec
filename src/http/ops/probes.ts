import type { Registry } from 'prom-client';
import type { App } from '../types.ts';
import type { Services } from '../../deps.ts';
import { unavailable } from '../../domain/errors.ts';
import type { RateLimitStore } from '../../rate-limit/store.ts';
import { registerReferencePage } from './reference-page.ts';

export function registerProbes(
  app: App,
  services: Services,
  registry: Registry,
  rateLimits?: RateLimitStore,
): void {
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

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerReferencePage(app, 'Careers API reference');
  app.get('/console/v1/openapi.json', { schema: { hide: true } }, async () =>
    (app as unknown as { consoleSwagger: () => unknown }).consoleSwagger(),
  );
}
