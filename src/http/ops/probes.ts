import type { Registry } from 'prom-client';
import type { App } from '../types.ts';
import type { Services } from '../../deps.ts';
import { unavailable } from '../../domain/errors.ts';
import { registerReferencePage } from './reference-page.ts';

export function registerProbes(app: App, services: Services, registry: Registry): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    const ready = await services.readiness().catch((err: unknown) => {
      request.log.warn({ err }, 'readiness check failed');
      return false;
    });
    if (!ready) throw unavailable('The database is unreachable or its migrations are not applied.');
    return { status: 'ready' };
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
