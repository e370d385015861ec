import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '../contract/vocabulary.ts';
import type { Right } from '../domain/console-users/rights.ts';
import { AppError, missingScope, unauthorized } from '../domain/errors.ts';
import { type KeyService, type Principal, plausibleSecret } from '../domain/keys/key-service.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import { sendError } from './error-handler.ts';
import { CallerGate } from './guard-gate.ts';
import './types.ts';

/** Requests without a valid credential one client address may send a minute (see registerGuard). */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 100;

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

/** What one route asks of its caller, as the guard reads it from the route's config. */
export interface RouteGuard {
  method: string;
  url: string;
  /** `console`: the operator token; `key`: an API key holding one of `scopes`; `none`: not guarded. */
  credential: 'console' | 'key' | 'none';
  scopes: readonly Scope[];
  /**
   * A console page or form (/console, signed in by the session cookie): the right the user's role
   * must hold (config.right, checked by page()/action() in src/http/console-web/web.ts); `null`
   * for every other route.
   */
  right: Right | null;
  /** A key's answers carry the X-RateLimit headers and count against its per-minute limit. */
  rateLimited: boolean;
}

const guardTables = new WeakMap<FastifyInstance, RouteGuard[]>();

/**
 * Every route registered after the guard, with what it asks of its caller: the table the security
 * test walks (test/security-table.test.ts), so that a new route is checked without being named.
 */
export function routeGuards(app: FastifyInstance): readonly RouteGuard[] {
  return guardTables.get(app) ?? [];
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
    onLimitsChanged?: (listener: () => Promise<void>) => void;
  },
): void {
  const gate = new CallerGate({
    keys: deps.keys,
    rateLimits: deps.rateLimits,
    failureLimit: deps.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE,
  });
  deps.onLimitsChanged?.(() => gate.credentialsChanged());
  deps.keys.onRevoked(() => gate.credentialsChanged());
  const { clock } = deps;

  const table: RouteGuard[] = [];
  guardTables.set(app, table);
  app.addHook('onRoute', ({ method, url, config }) => {
    const scopes = config?.anyScope ?? (config?.scope ? [config.scope] : []);
    const credential = config?.console ? 'console' : scopes.length > 0 ? 'key' : 'none';
    const right = config?.right ?? null;
    const rateLimited = credential === 'key' && config?.rateLimited !== false;
    for (const one of [method].flat())
      table.push({ method: one, url, credential, scopes, right, rateLimited });
  });
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config.console && !config.scope && !config.anyScope) return;
    const nowMs = clock.now().getTime();
    if (config.console) return guardConsole(gate, request, deps.consoleToken, nowMs);
    const secret = presentedKey(request);
    if (secret === null || !plausibleSecret(secret)) {
      throw (
        gate.addressRefusal(request, nowMs) ??
        (await gate.failure(
          request,
          nowMs,
          secret === null
            ? unauthorized('Send an API key as Authorization: Bearer <key> or in the x-api-key header.')
            : unauthorized('The API key is not valid, or has been revoked.'),
        ))
      );
    }
    const outcome = await gate.authenticate(request, reply, secret, config.rateLimited !== false, nowMs);
    if (outcome instanceof AppError) {
      // Refused before any work was claimed: answered here, without the error handler's path.
      sendError(reply, outcome, request.id);
      return reply;
    }
    request.principal = outcome;
    const needed = config.anyScope ?? [config.scope!];
    if (!needed.some((scope) => outcome.scopes.has(scope))) {
      throw missingScope(...(needed as [Scope, ...Scope[]]));
    }
  });
}

/** /console/v1: the operator token, compared in constant time; a wrong one counts against the address. */
async function guardConsole(gate: CallerGate, request: FastifyRequest, token: string, nowMs: number) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (match && sameSecret(match[1]!, token)) return;
  throw (
    gate.addressRefusal(request, nowMs) ??
    (await gate.failure(
      request,
      nowMs,
      unauthorized('The console needs Authorization: Bearer <console token>.'),
    ))
  );
}

/** The principal of a guarded route; only such routes call it. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on an unguarded route');
  return request.principal;
}
