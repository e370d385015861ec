import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, missingScope, rateLimited, unauthorized } from '../domain/errors.ts';
import { type KeyService, type Principal, hashSecret, plausibleSecret } from '../domain/keys/key-service.ts';
import type { Clock } from '../lib/clock.ts';
import { addressBucket } from '../lib/client-address.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import { sendError } from './error-handler.ts';
import { leaveUnlogged } from './log.ts';
import './types.ts';

const WINDOW_MS = 60_000;
/** Requests without a valid credential one client address may send a minute (see registerGuard). */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 100;
// What this instance remembers per key hash and per address is bounded, whatever the traffic.
const MEMORY_ENTRIES = 10_000;

function presentedKey(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1]!;
  }
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  return null;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

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
 * Who may call a route: the operator token on /console/v1, an API key with the route's scope on
 * /v1. Order on /v1: the key (401), then its per-minute count (429), then the scope (403), so
 * that refused calls count against the caller's limit too.
 *
 * What a refusal costs: the per-key count is kept by the SHA-256 of the presented secret, so it is
 * taken before the key is looked up. Once a key is over its limit in a window this instance answers
 * 429 for the rest of that window with no round trip at all (the window is fixed, so nothing it
 * could learn would change the answer). Requests with no key, a wrong key or a wrong console token
 * are counted per client address (an IPv6 /64 is one address); past `authFailuresPerMinute` in a
 * window the address gets 429 before any lookup. A valid key is never counted against its address.
 */
export function registerGuard(
  app: FastifyInstance,
  deps: {
    keys: KeyService;
    rateLimits: RateLimitStore;
    clock: Clock;
    consoleToken: string;
    authFailuresPerMinute?: number;
    /** Subscribes to changes of account limits made through this instance. */
    onLimitsChanged?: (listener: () => void) => void;
  },
): void {
  const { keys, rateLimits, clock } = deps;
  const failureLimit = deps.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE;
  /** Keys this instance has seen authenticate (their id and limit), by secret hash. */
  const knownKeys = new BoundedMap<{ keyId: string; limit: number }>();
  const refusedKeys = new BoundedMap<Refusal>();
  const refusedAddresses = new BoundedMap<Refusal>();
  // A raised limit holds from the next request here; another instance forgets its refusals when
  // the window ends (at most a minute).
  deps.onLimitsChanged?.(() => {
    knownKeys.clear();
    refusedKeys.clear();
  });

  function addressRefusal(request: FastifyRequest, nowMs: number): AppError | null {
    const refused = refusedAddresses.get(addressBucket(request.ip));
    if (refused === undefined || refused.untilMs <= nowMs) return null;
    leaveUnlogged(request);
    return tooManyFailures(refused.untilMs, nowMs);
  }

  function tooManyFailures(untilMs: number, nowMs: number): AppError {
    const retryAfter = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
    return refusal(
      `Too many requests without a valid credential from this address; retry after ${retryAfter} seconds.`,
      retryAfter,
    );
  }

  /** Counts a request that carried no valid credential against its address; the error to answer. */
  async function failure(request: FastifyRequest, nowMs: number, error: AppError): Promise<AppError> {
    const bucket = addressBucket(request.ip);
    const { count, resetAtMs } = await rateLimits.hit(`auth-failures:${bucket}`, WINDOW_MS, nowMs);
    if (count <= failureLimit) return error;
    if (!refusedAddresses.has(bucket) || refusedAddresses.get(bucket)!.untilMs <= nowMs) {
      request.log.warn(
        { until: new Date(resetAtMs).toISOString() },
        'a client address is over its budget of requests without a valid credential; its refusals are not logged one by one until then',
      );
    }
    refusedAddresses.set(bucket, { untilMs: resetAtMs, limit: failureLimit });
    return tooManyFailures(resetAtMs, nowMs);
  }

  /** From now until the window ends this instance refuses the key without asking anyone. */
  function refuseUntil(request: FastifyRequest, hash: string, keyId: string, limit: number, untilMs: number) {
    refusedKeys.set(hash, { untilMs, limit });
    request.log.info(
      { keyId, until: new Date(untilMs).toISOString() },
      'key over its per-minute limit; its refusals are not logged one by one until then',
    );
  }

  async function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    secret: string,
    counted: boolean,
    nowMs: number,
  ): Promise<Principal | AppError> {
    const hash = hashSecret(secret);
    const refused = counted ? refusedKeys.get(hash) : undefined;
    if (refused !== undefined && refused.untilMs > nowMs) {
      leaveUnlogged(request);
      rateHeaders(reply, refused.limit, refused.limit + 1, refused.untilMs);
      return overKeyLimit(refused.limit, refused.untilMs, nowMs);
    }
    const known = knownKeys.get(hash);
    let window: { count: number; resetAtMs: number } | null = null;
    if (known === undefined) {
      // A secret this instance has not seen work: the address may be past its failure budget.
      const throttled = addressRefusal(request, nowMs);
      if (throttled) return throttled;
    } else if (counted) {
      window = await rateLimits.hit(`key:${hash}`, WINDOW_MS, nowMs);
      if (window.count > known.limit) {
        refuseUntil(request, hash, known.keyId, known.limit, window.resetAtMs);
        rateHeaders(reply, known.limit, window.count, window.resetAtMs);
        return overKeyLimit(known.limit, window.resetAtMs, nowMs);
      }
    }
    const principal = await keys.authenticateHash(hash);
    if (principal === null) {
      knownKeys.delete(hash);
      return failure(request, nowMs, unauthorized('The API key is not valid, or has been revoked.'));
    }
    knownKeys.set(hash, { keyId: principal.keyId, limit: principal.requestsPerMinute });
    if (counted) {
      window ??= await rateLimits.hit(`key:${hash}`, WINDOW_MS, nowMs);
      const limit = principal.requestsPerMinute;
      rateHeaders(reply, limit, window.count, window.resetAtMs);
      if (window.count > limit) {
        refuseUntil(request, hash, principal.keyId, limit, window.resetAtMs);
        return overKeyLimit(limit, window.resetAtMs, nowMs);
      }
    }
    return principal;
  }

  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config.console && !config.scope && !config.anyScope) return;
    const nowMs = clock.now().getTime();
    if (config.console) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (match && sameSecret(match[1]!, deps.consoleToken)) return;
      throw (
        addressRefusal(request, nowMs) ??
        (await failure(
          request,
          nowMs,
          unauthorized('The console needs Authorization: Bearer <console token>.'),
        ))
      );
    }
    const secret = presentedKey(request);
    if (secret === null || !plausibleSecret(secret)) {
      throw (
        addressRefusal(request, nowMs) ??
        (await failure(
          request,
          nowMs,
          secret === null
            ? unauthorized('Send an API key as Authorization: Bearer <key> or in the x-api-key header.')
            : unauthorized('The API key is not valid, or has been revoked.'),
        ))
      );
    }
    const outcome = await authenticate(request, reply, secret, config.rateLimited !== false, nowMs);
    if (outcome instanceof AppError) {
      // Refused before any work was claimed: answered here, without the error handler's path.
      sendError(reply, outcome, request.id);
      return reply;
    }
    request.principal = outcome;
    const needed = config.anyScope ?? [config.scope!];
    if (!needed.some((scope) => outcome.scopes.has(scope))) {
      throw missingScope(needed[0]!);
    }
  });
}

/** The principal of a guarded route; only such routes call it. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on an unguarded route');
  return request.principal;
}
