import { Redis } from 'ioredis';

/** Requests counted in one fixed window, and the moment (epoch ms) the window ends. */
export interface WindowCount {
  count: number;
  resetAtMs: number;
}

export interface RateLimitStore {
  /** Counts one request for `key` in the window that holds `nowMs`. */
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

function windowOf(windowMs: number, nowMs: number): { start: number; end: number } {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

/** Counters of this process alone: the embedded default, right for one instance. */
export function memoryStore(): RateLimitStore {
  const counters = new Map<string, WindowCount>();
  let lastSweep = 0;
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
      return { ...entry };
    },
    async close() {
      counters.clear();
    },
  };
}

// INCR and PEXPIRE in one step, so a counter never outlives its window.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** Counters in Redis, shared by every instance that points at it. */
export function redisStore(url: string): RateLimitStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  return {
    async hit(key, windowMs, nowMs) {
      const { start, end } = windowOf(windowMs, nowMs);
      const count = Number(await redis.eval(HIT_SCRIPT, 1, `rl:${key}:${start}`, String(windowMs + 1000)));
      return { count, resetAtMs: end };
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
