import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { type DbHandle, openDatabase } from './db/connect.ts';
import { migrate, migrationsCurrent } from './db/migrate.ts';
import { createAccountService } from './domain/accounts/account-service.ts';
import { createIdempotencyService } from './domain/idempotency/idempotency-service.ts';
import { createJobService } from './domain/jobs/job-service.ts';
import { createKeyService } from './domain/keys/key-service.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { randomToken } from './lib/ids.ts';
import { type RateLimitStore, memoryStore, redisStore } from './rate-limit/store.ts';

/** Composition root: every service built once, from narrow dependencies. */
export function createServices(deps: { handle: DbHandle; clock: Clock; publicBaseUrl: string }) {
  const { handle, clock, publicBaseUrl } = deps;
  const db = handle.db;
  const accounts = createAccountService({ db, clock });
  return {
    accounts,
    keys: createKeyService({ db, clock }),
    idempotency: createIdempotencyService({ db, clock }),
    jobs: createJobService({ db, clock, publicBaseUrl }),
    readiness: () => migrationsCurrent(handle),
  };
}

export type Services = ReturnType<typeof createServices>;

export interface Runtime {
  handle: DbHandle;
  services: Services;
  rateLimits: RateLimitStore;
  clock: Clock;
  consoleToken: string;
  consoleTokenSource: string;
  close(): Promise<void>;
}

/** The console token: from CONSOLE_TOKEN, else generated once and kept in DATA_DIR/console-token. */
export function resolveConsoleToken(config: Config): { token: string; source: string } {
  if (config.consoleToken !== null)
    return { token: config.consoleToken, source: 'the CONSOLE_TOKEN variable' };
  const file = path.join(config.dataDir, 'console-token');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomToken(32)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { token: fs.readFileSync(file, 'utf8').trim(), source: file };
}

export async function createRuntime(config: Config, options: { clock?: Clock } = {}): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(handle);
  const rateLimits = config.redisUrl ? redisStore(config.redisUrl) : memoryStore();
  const { token, source } = resolveConsoleToken(config);
  return {
    handle,
    services: createServices({ handle, clock, publicBaseUrl: config.http.publicBaseUrl }),
    rateLimits,
    clock,
    consoleToken: token,
    consoleTokenSource: source,
    async close() {
      await rateLimits.close();
      await handle.close();
    },
  };
}
