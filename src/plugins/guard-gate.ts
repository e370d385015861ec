import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, rateLimited, unauthorized } from '../domain/errors.ts';
import { hashSecret, type KeyService, type Principal } from '../domain/keys/key-service.ts';
import { addressBucket } from '../lib/client-address.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import { leaveUnlogged } from './log.ts';

const WINDOW_MS = 60_000;
// What this instance remembers per key hash and per address is bounded, whatever the traffic.
const MEMORY_ENTRIES = 10_000;

/** A Map that forgets its oldest entry past MEMORY_ENTRIES. */
class BoundedMap<V> extends Map<string, V> {
  override set(key: string, value: V): this {
    if (!this.has(key) && this.size >= MEMORY_ENTRIES) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}

/** Until when (epoch ms) this instance refuses a key hash or an address without asking anyone. */
interface Refusal {
  untilMs: number;
  limit: number;
}

function rateHeaders(reply: FastifyReply, limit: number, count: number, resetAtMs: number): void {
  reply.headers({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - count)),
    'x-ratelimit-reset': String(Math.ceil(resetAtMs / 1000)),
  });
}

/** A refusal built without a stack trace: nobody reads one, and capturing it was a twentieth of a 429's cost. */
function refusal(message: string, retryAfter: number): AppError {
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return rateLimited(message, retryAfter);
  } finally {
    Error.stackTraceLimit = depth;
  }
}

function overKeyLimit(limit: number, resetAtMs: number, nowMs: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
  return refusal(
    `This key is limited to ${limit} requests a minute; retry after ${retryAfter} seconds.`,
    retryAfter,
  );
}

/**
 * The guard's counts and memory: the per-key window kept by the secret's hash, the keys this
 * instance has seen work, and the addresses and keys it refuses without a round trip until their
 * window ends (see registerGuard).
 */
export class CallerGate {
  /** Keys this instance has seen authenticate (their id and limit), by secret hash. */
  readonly #knownKeys = new BoundedMap<{ keyId: string; limit: number }>();
  readonly #refusedKeys = new BoundedMap<Refusal>();
  readonly #refusedAddresses = new BoundedMap<Refusal>();
  readonly #keys: KeyService;
  readonly #rateLimits: RateLimitStore;
  readonly #failureLimit: number;

  constructor(deps: { keys: KeyService; rateLimits: RateLimitStore; failureLimit: number }) {
    this.#keys = deps.keys;
    this.#rateLimits = deps.rateLimits;
    this.#failureLimit = deps.failureLimit;
  }

  /**
   * Forgets the keys' limits and refusals: a raised limit holds from the next request here;
   * another instance forgets its refusals when the window ends (at most a minute).
   */
  limitsChanged(): void {
    this.#knownKeys.clear();
    this.#refusedKeys.clear();
  }

  addressRefusal(request: FastifyRequest, nowMs: number): AppError | null {
    const refused = this.#refusedAddresses.get(addressBucket(request.ip));
    if (refused === undefined || refused.untilMs <= nowMs) return null;
    leaveUnlogged(request);
    return this.#tooManyFailures(refused.untilMs, nowMs);
  }

  #tooManyFailures(untilMs: number, nowMs: number): AppError {
    const retryAfter = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
    return refusal(
      `Too many requests without a valid credential from this address; retry after ${retryAfter} seconds.`,
      retryAfter,
    );
  }

  /** Counts a request that carried no valid credential against its address; the error to answer. */
  async failure(request: FastifyRequest, nowMs: number, error: AppError): Promise<AppError> {
    const bucket = addressBucket(request.ip);
    const { count, resetAtMs } = await this.#rateLimits.hit(`auth-failures:${bucket}`, WINDOW_MS, nowMs);
    if (count <= this.#failureLimit) return error;
    if (!this.#refusedAddresses.has(bucket) || this.#refusedAddresses.get(bucket)!.untilMs <= nowMs) {
      request.log.warn(
        { until: new Date(resetAtMs).toISOString() },
        'a client address is over its budget of requests without a valid credential; its refusals are not logged one by one until then',
      );
    }
    this.#refusedAddresses.set(bucket, { untilMs: resetAtMs, limit: this.#failureLimit });
    return this.#tooManyFailures(resetAtMs, nowMs);
  }

  /** From now until the window ends this instance refuses the key without asking anyone. */
  #refuseUntil(request: FastifyRequest, hash: string, keyId: string, limit: number, untilMs: number) {
    this.#refusedKeys.set(hash, { untilMs, limit });
    request.log.info(
      { keyId, until: new Date(untilMs).toISOString() },
      'key over its per-minute limit; its refusals are not logged one by one until then',
    );
  }

  async authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    secret: string,
    counted: boolean,
    nowMs: number,
  ): Promise<Principal | AppError> {
    const hash = hashSecret(secret);
    const refused = counted ? this.#refusedKeys.get(hash) : undefined;
    if (refused !== undefined && refused.untilMs > nowMs) {
      leaveUnlogged(request);
      rateHeaders(reply, refused.limit, refused.limit + 1, refused.untilMs);
      return overKeyLimit(refused.limit, refused.untilMs, nowMs);
    }
    const known = this.#knownKeys.get(hash);
    let window: { count: number; resetAtMs: number } | null = null;
    if (known === undefined) {
      // A secret this instance has not seen work: the address may be past its failure budget.
      const throttled = this.addressRefusal(request, nowMs);
      if (throttled) return throttled;
    } else if (counted) {
      window = await this.#rateLimits.hit(`key:${hash}`, WINDOW_MS, nowMs);
      if (window.count > known.limit) {
        this.#refuseUntil(request, hash, known.keyId, known.limit, window.resetAtMs);
        rateHeaders(reply, known.limit, window.count, window.resetAtMs);
        return overKeyLimit(known.limit, window.resetAtMs, nowMs);
      }
    }
    const principal = await this.#keys.authenticateHash(hash);
    if (principal === null) {
      this.#knownKeys.delete(hash);
      return this.failure(request, nowMs, unauthorized('The API key is not valid, or has been revoked.'));
    }
    this.#knownKeys.set(hash, { keyId: principal.keyId, limit: principal.requestsPerMinute });
    if (counted) {
      window ??= await this.#rateLimits.hit(`key:${hash}`, WINDOW_MS, nowMs);
      const limit = principal.requestsPerMinute;
      rateHeaders(reply, limit, window.count, window.resetAtMs);
      if (window.count > limit) {
        this.#refuseUntil(request, hash, principal.keyId, limit, window.resetAtMs);
        return overKeyLimit(limit, window.resetAtMs, nowMs);
      }
    }
    return principal;
  }
}
