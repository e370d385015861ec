import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { missingScope, rateLimited, unauthorized } from '../domain/errors.ts';
import type { KeyService, Principal } from '../domain/keys/key-service.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import './types.ts';

const WINDOW_MS = 60_000;

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

async function limit(
  store: RateLimitStore,
  clock: Clock,
  principal: Principal,
  reply: FastifyReply,
): Promise<void> {
  const nowMs = clock.now().getTime();
  const { count, resetAtMs } = await store.hit(`key:${principal.keyId}`, WINDOW_MS, nowMs);
  const max = principal.requestsPerMinute;
  reply.header('x-ratelimit-limit', String(max));
  reply.header('x-ratelimit-remaining', String(Math.max(0, max - count)));
  reply.header('x-ratelimit-reset', String(Math.ceil(resetAtMs / 1000)));
  if (count > max) {
    const retryAfter = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
    throw rateLimited(
      `This key is limited to ${max} requests a minute; retry after ${retryAfter} seconds.`,
      retryAfter,
    );
  }
}

/**
 * Who may call a route: the operator token on /console/v1, an API key with the route's scope on
 * /v1. Order on /v1: the key (401), then its per-minute count (429), then the scope (403), so
 * that refused calls count against the caller's limit too.
 */
export function registerGuard(
  app: FastifyInstance,
  deps: { keys: KeyService; rateLimits: RateLimitStore; clock: Clock; consoleToken: string },
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.console) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (!match || !sameSecret(match[1]!, deps.consoleToken)) {
        throw unauthorized('The console needs Authorization: Bearer <console token>.');
      }
      return;
    }
    if (!config.scope) return;
    const secret = presentedKey(request);
    if (secret === null) {
      throw unauthorized('Send an API key as Authorization: Bearer <key> or in the x-api-key header.');
    }
    const principal = await deps.keys.authenticate(secret);
    if (principal === null) throw unauthorized('The API key is not valid, or has been revoked.');
    request.principal = principal;
    if (config.rateLimited !== false) await limit(deps.rateLimits, deps.clock, principal, reply);
    if (!principal.scopes.has(config.scope)) {
      throw missingScope(config.scope);
    }
  });
}

/** The principal of a guarded route; only such routes call it. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('principalOf called on an unguarded route');
  return request.principal;
}
