import { buildApp } from './app.ts';
import { ConfigError, parseConfig } from './config.ts';
import { createRuntime } from './deps.ts';

const SWEEP_INTERVAL_MS = 10 * 60_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const runtime = await createRuntime(config);
  const app = await buildApp({
    services: runtime.services,
    rateLimits: runtime.rateLimits,
    clock: runtime.clock,
    consoleToken: runtime.consoleToken,
    publicBaseUrl: config.http.publicBaseUrl,
    bodyLimitBytes: config.http.bodyLimitBytes,
    logger: {
      level: config.logLevel,
      // Keys and cookies never reach the log.
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
    },
  });

  const timers: NodeJS.Timeout[] = [];
  if (config.role !== 'api') {
    const sweep = () =>
      runtime.services.idempotency
        .sweep()
        .then((n) => n > 0 && app.log.info({ removed: n }, 'idempotency records swept'))
        .catch((err: unknown) => app.log.error({ err }, 'idempotency sweep failed'));
    void sweep();
    timers.push(setInterval(sweep, SWEEP_INTERVAL_MS).unref());
  }

  if (config.role !== 'worker') {
    await app.listen({ port: config.http.port, host: config.http.host });
  }
  app.log.info(
    { baseUrl: config.http.publicBaseUrl, role: config.role, database: runtime.handle.kind },
    `Service ready at ${config.http.publicBaseUrl}; console token in ${runtime.consoleTokenSource}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    for (const timer of timers) clearInterval(timer);
    const force = setTimeout(() => process.exit(1), 25_000).unref();
    try {
      await app.close();
      await runtime.close();
    } finally {
      clearTimeout(force);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
