import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';

/** Requests counted in one fixed window, and the moment (epoch ms) the window ends. */
export interface WindowCount {
  count: number;
  resetAtMs: number;
  /**
   * The credentials' generation, read in the same round trip as the count: it changes whenever a
   * key is revoked or an account's limits change, on whichever instance. Absent or null when the
   * store cannot vouch for every instance (Redis out, or several instances without Redis): then
   * nothing remembered of a key may be trusted.
   */
  generation?: string | null;
}

export interface RateLimitStore {
  /** Counts one request for `key` in the window that holds `nowMs`. */
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowCount>;
  /** The count of the window that holds `nowMs`, without counting. */
  peek(key: string, windowMs: number, nowMs: number): Promise<WindowCount>;
  /** Forgets the count of the window that holds `nowMs` (e.g. a success ends a run of failures). */
  clear(key: string, windowMs: number, nowMs: number): Promise<void>;
  /**
   * A key was revoked or an account's limits changed (committed): gives the credentials a new
   * generation, so that every instance looks its keys up again from its next request.
   */
  credentialsChanged?(): Promise<void>;
  close(): Promise<void>;
  /** Where counts currently go (the readiness probe and the metrics report it). */
  health?(): StoreHealth;
}

function windowOf(windowMs: number, nowMs: number): { start: number; end: number } {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

/** A generation no earlier one shares, whatever restarted in between. */
function newGeneration(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Counters of this process alone: the embedded default, right for one instance. `generations`:
 * the store may vouch for the credentials' generation, because every instance that could revoke a
 * key counts through it (the embedded database is one process; tests share one store between
 * instances). Never for one of several instances on PostgreSQL without Redis.
 */
export function memoryStore(options: { generations?: boolean } = {}): RateLimitStore {
  const counters = new Map<string, WindowCount>();
  let lastSweep = 0;
  let generation: string | null = options.generations === true ? newGeneration() : null;
  return {
    async hit(key, windowMs, nowMs) {
      const { start, end } = windowOf(windowMs, nowMs);
      if (nowMs - lastSweep > windowMs) {
        for (const [k, v] of counters) if (v.resetAtMs <= nowMs) counters.delete(k);
        lastSweep = nowMs;
      }
      const id = `${key}:${start}`;
      const entry = counters.get(id) ?? { count: 0, resetAtMs: end };
      entry.count += 1;
      counters.set(id, entry);
      return { count: entry.count, resetAtMs: entry.resetAtMs, generation };
    },
    async peek(key, windowMs, nowMs) {
      const { start, end } = windowOf(windowMs, nowMs);
      return { count: counters.get(`${key}:${start}`)?.count ?? 0, resetAtMs: end, generation };
    },
    async clear(key, windowMs, nowMs) {
      counters.delete(`${key}:${windowOf(windowMs, nowMs).start}`);
    },
    async credentialsChanged() {
      if (generation !== null) generation = newGeneration();
    },
    health() {
      return { mode: 'local', redis: false };
    },
    async close() {
      counters.clear();
    },
  };
}

// INCR and PEXPIRE in one step, so a counter never outlives its window; the credentials'
// generation comes back with the count (false, i.e. null, when Redis has none: after a restart).
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('GET', KEYS[2])}`;

const GENERATION_KEY = 'credentials:generation';

const CONNECT_TIMEOUT_MS = 1_000;

/** Where counts go: Redis shared by every instance, or this instance's memory while Redis is out. */
export type StoreMode = 'shared' | 'local';

export interface StoreHealth {
  /** `local` on a Redis-backed store means degraded: each instance counts alone. */
  mode: StoreMode;
  /** Whether the store is meant to be shared (REDIS_URL set). */
  redis: boolean;
}

export interface RedisStoreOptions {
  /** The longest one count may wait for Redis before this instance counts alone; 250 ms by default. */
  commandTimeoutMs?: number;
  /** How long a failed Redis is left alone before a request tries it again; 2 s by default. */
  retryAfterMs?: number;
  /** Told when counting falls back to this instance (with the cause) and when Redis counts again. */
  onModeChange?: (mode: StoreMode, cause?: Error) => void;
}

export interface RedisRateLimitStore extends RateLimitStore {
  health(): StoreHealth;
  /** Adds a listener for fallbacks and recoveries (the app logs them once and sets a metric). */
  onModeChange(listener: (mode: StoreMode, cause?: Error) => void): void;
}

/**
 * Counters in Redis, shared by every instance that points at it. When Redis is out (refused,
 * unreachable, or slower than the command timeout) the count is taken in this instance's memory
 * with the full limit, so the API keeps serving: across N instances a key may then get up to N
 * times its limit until Redis is back. No request waits on a dead Redis: there is no offline
 * queue, commands time out after `commandTimeoutMs`, and after a failure Redis is tried again only
 * every `retryAfterMs` (and as soon as the client reconnects).
 */
export function redisStore(url: string, options: RedisStoreOptions = {}): RedisRateLimitStore {
  const commandTimeout = options.commandTimeoutMs ?? 250;
  const retryAfterMs = options.retryAfterMs ?? 2_000;
  const redis = connectRedis(url, commandTimeout);
  const local = memoryStore();
  const listeners: ((mode: StoreMode, cause?: Error) => void)[] = [];
  if (options.onModeChange) listeners.push(options.onModeChange);
  let mode: StoreMode = 'shared';
  let skipUntil = 0;
  let closed = false;
  const setMode = (next: StoreMode, cause?: Error) => {
    if (next === mode) return;
    mode = next;
    for (const listener of listeners) listener(next, cause);
  };
  // Without a listener ioredis prints every connection error; the mode change is what is reported.
  redis.on('error', (error: Error) => {
    if (!closed) setMode('local', error);
  });
  redis.on('close', () => {
    if (!closed) setMode('local', new Error('the connection to Redis closed'));
  });
  // Reconnected: Redis counts again at once, not only after the next request tried it (a worker
  // process serves no counted request, and its /readyz would say "down" for ever).
  redis.on('ready', () => {
    skipUntil = 0;
    if (!closed) setMode('shared');
  });
  // The first requests after start wait for the first connection (at most its connect timeout)
  // rather than count alone while Redis is merely still connecting.
  let starting: Promise<void> | null = firstConnection(redis).then(() => {
    starting = null;
  });
  /** Redis when it answers; this instance's memory when it is out (or was out a moment ago). */
  const eitherWay = async <T>(shared: () => Promise<T>, alone: () => Promise<T>): Promise<T> => {
    if (starting !== null) await starting;
    if (redis.status === 'ready' && Date.now() >= skipUntil) {
      try {
        const answer = await shared();
        setMode('shared');
        return answer;
      } catch (error) {
        skipUntil = Date.now() + retryAfterMs;
        setMode('local', error as Error);
      }
    }
    return alone();
  };
  const redisKey = (key: string, windowMs: number, nowMs: number) =>
    `rl:${key}:${windowOf(windowMs, nowMs).start}`;
  return {
    hit: (key, windowMs, nowMs) =>
      eitherWay(
        () => sharedHit(redis, key, windowMs, nowMs),
        () => local.hit(key, windowMs, nowMs),
      ),
    peek: (key, windowMs, nowMs) =>
      eitherWay(
        async () => ({
          count: Number((await redis.get(redisKey(key, windowMs, nowMs))) ?? 0),
          resetAtMs: windowOf(windowMs, nowMs).end,
        }),
        () => local.peek(key, windowMs, nowMs),
      ),
    clear: (key, windowMs, nowMs) =>
      eitherWay(
        async () => {
          await redis.del(redisKey(key, windowMs, nowMs));
        },
        () => local.clear(key, windowMs, nowMs),
      ),
    async credentialsChanged() {
      // Awaited by the revocation: once it answers, every instance reads the new generation. If
      // Redis cannot be told, the instances that still reach it keep trusting what they remember
      // for at most the guard's MAX_TRUST_MS (docs/decisions.md).
      try {
        await redis.set(GENERATION_KEY, newGeneration());
      } catch (error) {
        skipUntil = Date.now() + retryAfterMs;
        setMode('local', error as Error);
      }
    },
    health() {
      return { mode, redis: true };
    },
    onModeChange(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      await local.close();
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** One hit on the key's window in Redis, shared by every instance (the key expires after its window). */
async function sharedHit(
  redis: IORedis.Redis,
  key: string,
  windowMs: number,
  nowMs: number,
): Promise<WindowCount> {
  const { start, end } = windowOf(windowMs, nowMs);
  const [count, generation] = (await redis.eval(
    HIT_SCRIPT,
    2,
    `rl:${key}:${start}`,
    GENERATION_KEY,
    String(windowMs + 1000),
  )) as [number, string | null];
  // None yet (a new or restarted Redis): one is made; until then nothing is trusted.
  if (generation === null) redis.set(GENERATION_KEY, newGeneration(), 'NX').catch(() => {});
  return { count: Number(count), resetAtMs: end, generation };
}

/** A client that never queues or retries a command: a dead Redis fails fast, and is reconnected. */
function connectRedis(url: string, commandTimeout: number): IORedis.Redis {
  // Loaded only when REDIS_URL is set (issue 14: ~50 ms and ~12 MB at every start otherwise).
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof IORedis;
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Reconnects for ever, at most every 2 s: the service outlives a Redis restart.
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    lazyConnect: false,
  });
}

/** Settles on the client's first ready or error, or after the connect timeout, whichever comes first. */
function firstConnection(redis: IORedis.Redis): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
    timer.unref();
    redis.once('ready', done);
    redis.once('error', done);
  });
}
