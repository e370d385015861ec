import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as PromClient from 'prom-client';
import { isConnectionFault, isSerializationFailure } from '../db/faults.ts';
import { type AppError, unavailable } from '../domain/errors.ts';
import type { RateLimitStore, RedisRateLimitStore } from '../rate-limit/store.ts';

/**
 * Infrastructure faults as answers: a lost database, a disk that refuses writes, an object store
 * that fails. Each is a 503 `unavailable` with `Retry-After` and a message an operator can act on,
 * counted in `dependency_faults_total`; the error's detail goes to the log only.
 */

export type Dependency = 'database' | 'storage' | 'redis';

export interface FaultMetrics {
  /** Counts one fault of a dependency (`reason`: an errno or a short word, never input). */
  fault(dependency: Dependency, reason: string): void;
  /** 1 while the dependency answers, 0 while it does not (redis: 0 while counting falls back). */
  up(dependency: Dependency, isUp: boolean): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    faultMetrics: FaultMetrics;
  }
}

/** Seconds a client should wait: the database comes back by itself; a disk needs an operator. */
export const DATABASE_RETRY_AFTER_S = 2;
/** A write that kept losing races with others (src/db/retry.ts spent its runs): try again at once. */
export const CONTENTION_RETRY_AFTER_S = 1;
export const STORAGE_RETRY_AFTER_S = 30;

const DISK_CODES: Record<string, string> = {
  ENOSPC: 'the disk holding DATA_DIR is full',
  EDQUOT: 'the disk quota of DATA_DIR is exhausted',
  EROFS: 'DATA_DIR is on a read-only file system',
  EACCES: 'the service may not write to DATA_DIR (permission denied)',
  EPERM: 'the service may not write to DATA_DIR (operation not permitted)',
  EIO: 'the disk holding DATA_DIR reported an I/O error',
};

/** Without a registry (METRICS_TOKEN unset: nobody can read them) the counts are not kept. */
export function registerFaultMetrics(
  app: FastifyInstance,
  registry: PromClient.Registry | null,
): FaultMetrics {
  if (registry === null) {
    const none: FaultMetrics = { fault: () => undefined, up: () => undefined };
    app.decorate('faultMetrics', none);
    return none;
  }
  const { Counter, Gauge } = createRequire(import.meta.url)('prom-client') as typeof PromClient;
  const faults = new Counter({
    name: 'dependency_faults_total',
    help: 'Requests or operations that failed because a dependency was unavailable',
    labelNames: ['dependency', 'reason'] as const,
    registers: [registry],
  });
  const up = new Gauge({
    name: 'dependency_up',
    help: '1 while a dependency answers, 0 while it is down or the service runs degraded without it',
    labelNames: ['dependency'] as const,
    registers: [registry],
  });
  const metrics: FaultMetrics = {
    fault: (dependency, reason) => faults.inc({ dependency, reason }),
    up: (dependency, isUp) => up.set({ dependency }, isUp ? 1 : 0),
  };
  app.decorate('faultMetrics', metrics);
  return metrics;
}

function errnoOf(error: unknown): string | null {
  const e = error as { code?: unknown; syscall?: unknown };
  return typeof e.code === 'string' && typeof e.syscall === 'string' ? e.code : null;
}

/** An AWS SDK error (the S3 store): the SDK marks every error it throws with `$metadata`. */
function isObjectStoreError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && '$metadata' in error;
}

/** The answer for an infrastructure fault, or null when `error` is not one. */
export function faultError(request: FastifyRequest, error: unknown): AppError | null {
  const metrics = request.server.faultMetrics as FaultMetrics | undefined;
  if (isObjectStoreError(error)) {
    const name = (error as { name?: unknown }).name;
    metrics?.fault('storage', typeof name === 'string' ? name.slice(0, 40) : 's3');
    return unavailable(
      'The file store (S3) failed or refused the operation; retry later. Operators: check the bucket, its credentials and the endpoint.',
      STORAGE_RETRY_AFTER_S,
    );
  }
  const errno = errnoOf(error);
  if (errno !== null && errno in DISK_CODES) {
    metrics?.fault('storage', errno);
    return unavailable(
      `The file could not be stored: ${DISK_CODES[errno]}. Nothing was kept; retry later.`,
      STORAGE_RETRY_AFTER_S,
    );
  }
  if (isConnectionFault(error)) {
    metrics?.fault('database', 'connection');
    return unavailable(
      'The database is not reachable right now; nothing was changed. Retry shortly.',
      DATABASE_RETRY_AFTER_S,
    );
  }
  if (isSerializationFailure(error)) {
    metrics?.fault('database', 'contention');
    return unavailable(
      'Other changes to the same records kept this one from completing; nothing was changed. Retry shortly.',
      CONTENTION_RETRY_AFTER_S,
    );
  }
  return null;
}

/**
 * Reports the rate-limit store's fallbacks: one warning when counting falls back to this instance
 * (Redis out), one line when Redis counts again, and `dependency_up{dependency="redis"}`.
 */
export function watchRateLimitStore(
  app: FastifyInstance,
  store: RateLimitStore,
  metrics: FaultMetrics,
): void {
  const health = store.health?.();
  if (!health?.redis) return;
  const redisStore = store as RedisRateLimitStore;
  metrics.up('redis', health.mode === 'shared');
  redisStore.onModeChange((mode, cause) => {
    metrics.up('redis', mode === 'shared');
    if (mode === 'local') {
      metrics.fault('redis', 'fallback');
      app.log.warn(
        { err: cause?.message },
        'Redis is unavailable: rate limits are counted per instance (each instance allows the full limit) until it returns',
      );
    } else {
      app.log.info('Redis is back: rate limits are shared again');
    }
  });
}
