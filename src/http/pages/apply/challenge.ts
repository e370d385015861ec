import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { FORM_TOKEN_TTL_MS, tokenIssuedMs } from '../../../domain/intake/form-token.ts';
import { addressBucket } from '../../../lib/client-address.ts';
import type { Clock } from '../../../lib/clock.ts';
import { proofOfWorkValid } from '../../../lib/proof-of-work.ts';
import type { RateLimitStore } from '../../../rate-limit/store.ts';

/** The apply page's abuse limits; tests shorten the wait. */
export interface ApplyTunables {
  /** Form posts one client-address bucket may send a minute. */
  postsPerMinute: number;
  /** The window bursts are counted in. */
  burstWindowMs: number;
  /** Posts from one address bucket in the window before the challenge starts. */
  burstPerAddress: number;
  /** Posts to one role in the window (from anyone) before the challenge starts. */
  burstPerJob: number;
  /** Leading zero bits the page's script finds (about 2^bits SHA-256 hashes; 16 is under a second). */
  powBits: number;
  /** Without a solution, a post is answered no sooner than this long after its form was issued. */
  waitMs: number;
}

export const DEFAULT_APPLY_TUNABLES: ApplyTunables = {
  postsPerMinute: 10,
  burstWindowMs: 10 * 60_000,
  burstPerAddress: 3,
  burstPerJob: 30,
  powBits: 16,
  waitMs: 8_000,
};

/**
 * Whether the next form post from this client to this role would meet the challenge: the address
 * bucket or the role has already sent as many forms in the window as a calm one would. Counts
 * nothing. A calm candidate's page therefore asks for no proof of work at all; past the burst the
 * page (and the upload slot's answer) carries the difficulty, and the script solves it.
 */
export async function challengeDue(
  deps: { rateLimits: RateLimitStore; clock: Clock; tunables: ApplyTunables },
  request: FastifyRequest,
  jobId: string,
): Promise<boolean> {
  const t = deps.tunables;
  const now = deps.clock.now().getTime();
  const byAddress = await deps.rateLimits.peek(
    `apply-burst:${addressBucket(request.ip)}`,
    t.burstWindowMs,
    now,
  );
  if (byAddress.count >= t.burstPerAddress) return true;
  const byJob = await deps.rateLimits.peek(`apply-burst-job:${jobId}`, t.burstWindowMs, now);
  return byJob.count >= t.burstPerJob;
}

/**
 * The challenge after a burst: once an address (or a role) has sent more forms than a person
 * would in the window, each form is accepted once, and only with a proof of work over its CSRF
 * token (the page's script finds it while the file uploads) or, from a client without
 * JavaScript, no sooner than `waitMs` after the form was issued: the answer waits for the rest,
 * so the form keeps working, only slower. Answers false for a token already spent in a burst.
 */
export async function passChallenge(
  deps: { rateLimits: RateLimitStore; clock: Clock; tunables: ApplyTunables },
  request: FastifyRequest,
  jobId: string,
  token: string,
  solution: unknown,
): Promise<boolean> {
  const t = deps.tunables;
  const now = deps.clock.now().getTime();
  const byAddress = await deps.rateLimits.hit(
    `apply-burst:${addressBucket(request.ip)}`,
    t.burstWindowMs,
    now,
  );
  const byJob = await deps.rateLimits.hit(`apply-burst-job:${jobId}`, t.burstWindowMs, now);
  if (byAddress.count <= t.burstPerAddress && byJob.count <= t.burstPerJob) return true;
  // A token lives two hours; fixed windows of twice that let it be spent at most twice.
  const spent = await deps.rateLimits.hit(`apply-token:${token}`, 2 * FORM_TOKEN_TTL_MS, now);
  if (spent.count > 1) return false;
  if (proofOfWorkValid(token, solution, t.powBits)) return true;
  const age = now - (tokenIssuedMs(token) ?? now);
  if (age < t.waitMs) await sleep(t.waitMs - age);
  return true;
}
