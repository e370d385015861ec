import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { serviceSecret } from '../service-secret.ts';

export const FORM_TOKEN_TTL_MS = 2 * 60 * 60_000;

/** When a token was issued (epoch ms), read from the token itself; null when it is not one. */
export function tokenIssuedMs(token: string): number | null {
  const issued = Number(token.split('.', 1)[0]);
  return Number.isSafeInteger(issued) && issued > 0 ? issued * 1000 : null;
}

/**
 * CSRF protection for the hosted apply form: a token bound to the job, the time it was issued and a
 * nonce that is also set as a SameSite=Strict cookie. A form posted from another site carries
 * neither the matching cookie nor a token it could have read. Inside the careers embed (a
 * third-party frame, its cookies blocked) a framed token stands without the cookie, next to the
 * browser's own Sec-Fetch-Site / Origin saying the post came from this origin (docs/decisions.md).
 */
export function createFormTokens(deps: { db: Db; clock: Clock }) {
  // Read once per process: the secret never changes, and every anonymous GET of the form mints.
  let secret: Promise<string> | null = null;
  // A framed token's MAC covers `.framed` too: it never passes as a cookie-bound token, nor one as it.
  const mac = async (jobId: string, issued: number, nonce: string, framed = false) => {
    secret ??= serviceSecret(deps.db, 'apply-form', deps.clock.now()).catch((error: unknown) => {
      secret = null;
      throw error;
    });
    return createHmac('sha256', await secret)
      .update(`${jobId}.${issued}.${nonce}${framed ? '.framed' : ''}`)
      .digest('base64url');
  };
  const check = async (jobId: string, token: unknown, cookieNonce: string | null | undefined) => {
    if (typeof token !== 'string' || cookieNonce === undefined) return false;
    const [issuedText, nonce, sig] = token.split('.');
    const issued = Number(issuedText);
    if (!nonce || !sig || !Number.isSafeInteger(issued)) return false;
    if (cookieNonce !== null && nonce !== cookieNonce) return false;
    if (deps.clock.now().getTime() - issued * 1000 > FORM_TOKEN_TTL_MS) return false;
    const expected = Buffer.from(await mac(jobId, issued, nonce, cookieNonce === null));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  };
  return {
    /**
     * A token; `framed` for the form inside the careers embed, where the cookie is a third-party
     * one a browser may block: that token is checked without a cookie, and the route checks the
     * post came from this origin's own page instead (verifyFramed).
     */
    async mint(jobId: string, framed = false): Promise<{ token: string; nonce: string }> {
      const nonce = randomToken(16);
      const issued = Math.floor(deps.clock.now().getTime() / 1000);
      return { token: `${issued}.${nonce}.${await mac(jobId, issued, nonce, framed)}`, nonce };
    },
    async verify(jobId: string, token: unknown, cookieNonce: string | undefined): Promise<boolean> {
      return check(jobId, token, cookieNonce);
    },
    /** A framed token (no cookie); the caller has checked the post is same-origin. */
    async verifyFramed(jobId: string, token: unknown): Promise<boolean> {
      return check(jobId, token, null);
    },
  };
}
