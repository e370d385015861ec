import type { Registry } from 'prom-client';
import type { Scope } from '../contract/vocabulary.ts';
import type { Right } from '../domain/console-users/rights.ts';
import type { ClaimedRecord } from '../domain/idempotency/idempotency-repository.ts';
import type { Principal } from '../domain/keys/key-service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A /v1 route: an API key is required, holding this scope. */
    scope?: Scope;
    /** A /v1 route open to a key holding any one of these scopes (what it sees depends on which). */
    anyScope?: readonly Scope[];
    /** Counted against the key's per-minute limit; every keyed route but screening is. */
    rateLimited?: boolean;
    /** POST routes that honour Idempotency-Key. */
    idempotency?: 'optional' | 'required';
    /** A /console/v1 route: the operator token is required. */
    console?: boolean;
    /**
     * A console page or form (src/http/console-web): the right a signed-in user's role must hold.
     * page() and action() read it here, and the guard's route table lists it.
     */
    right?: Right;
  }
  interface FastifyInstance {
    /** The Prometheus registry /metrics answers from; null when METRICS_TOKEN is unset (nothing is collected). */
    metricsRegistry: Registry | null;
  }
  interface FastifyRequest {
    principal: Principal | null;
    idempotencyRecord: ClaimedRecord | null;
    idempotencySettled: boolean;
  }
}
