import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrate } from '../src/db/migrate.ts';
import { createServices } from '../src/deps.ts';
import { systemClock } from '../src/lib/clock.ts';
import { memoryStore } from '../src/rate-limit/store.ts';

/** The OpenAPI document as the service serves it at /v1/openapi.json, built on a throwaway database. */
export async function exportOpenApi(publicBaseUrl = 'https://careers.acme.test'): Promise<unknown> {
  const handle = await openDatabase({ databaseUrl: null, dataDir: null });
  await migrate(handle);
  const rateLimits = memoryStore();
  const app = await buildApp({
    services: createServices({ handle, clock: systemClock, publicBaseUrl }),
    rateLimits,
    clock: systemClock,
    consoleToken: 'x'.repeat(32),
    publicBaseUrl,
  });
  const document = app.swagger();
  await app.close();
  await rateLimits.close();
  await handle.close();
  return document;
}
