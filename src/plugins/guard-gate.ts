import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, rateLimited, unauthorized } from '../domain/errors.ts';
import { hashSecret, type KeyService, type Principal } from '../domain/keys/key-service.ts';
import { addressBucket } from '../lib/client-address.ts';
import type { RateLimitStore, WindowCount } from '../rate-limit/store.ts';
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

/**
 * The longest this instance trusts what it looked up of a key without looking again, even while
 * the credentials' generation says nothing changed: it bounds how long a change made outside the
 * service (SQL by hand), or one Redis could not be told of, goes unseen.
 */
export const MAX_TRUST_MS = 30_000;

/** A key this instance has seen authenticate, by secret hash. */
interface KnownKey {
  keyId: string;
  limit: number;
  principal: Principal;
  /** The credentials' generation read before the lookup; null: not to be trusted without one. */
  generation: string | null;
  lookedUpAtMs: number;
  /** When the key's lastUsedAt was last written. */
  usedAtMs: number;
}

/** Until when (epoch ms) this instance refuses a key hash or an address without asking anyone. */
interface Refusal {
  untilMs: number;
  limit: number;
}

/**
 * Whether a key looked up earlier may answer without a lookup: the store vouched for a generation
 * before that lookup, the same generation is current (no key revoked, no limit changed since, on
 * any instance), and the lookup is recent.
 */
function trusted(known: KnownKey, window: WindowCount, nowMs: number): boolean {
  return (
    known.generation !== null &&
    window.generation === known.generation &&
    nowMs - known.lookedUpAtMs < MAX_TRUST_MS &&
    nowMs >= known.lookedUpAtMs
  );
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
  /** Keys this instance has seen authenticate, by secret hash. */
  readonly #knownKeys = new BoundedMap<KnownKey>();
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
   * A key was revoked or an account's limits changed: forgets what this instance remembered of
   * keys, and gives the credentials a new generation, so every other instance looks its keys up
   * again from its next request. Another instance forgets its refusals when their window ends (at
   * most a minute; a 429 is the answer for the rest of the window whatever changed).
   */
  async credentialsChanged(): Promise<void> {
    this.#knownKeys.clear();
    this.#refusedKeys.clear();
    await this.#rateLimits.credentialsChanged?.();
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
    let window: WindowCount | null = null;
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
      if (trusted(known, window, nowMs)) {
        known.usedAtMs = await this.#keys.touchIfDue(known.keyId, known.usedAtMs);
        rateHeaders(reply, known.limit, window.count, window.resetAtMs);
        return known.principal;
      }
    }
    const found = await this.#keys.lookUpHash(hash);
    if (found === null) {
      this.#knownKeys.delete(hash);
      return this.failure(request, nowMs, unauthorized('The API key is not valid, or has been revoked.'));
    }
    const { principal, usedAtMs } = found;
    this.#knownKeys.set(hash, {
      keyId: principal.keyId,
      limit: principal.requestsPerMinute,
      principal,
      // Only a generation read before the lookup vouches for it: one read after could already be
      // the one a revocation committed just before it made.
      generation: window?.generation ?? null,
      lookedUpAtMs: nowMs,
      usedAtMs,
    });
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
