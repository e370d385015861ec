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
 * neither the matching cookie nor a token it could have read.
 */
export function createFormTokens(deps: { db: Db; clock: Clock }) {
  // Read once per process: the secret never changes, and every anonymous GET of the form mints.
  let secret: Promise<string> | null = null;
  const mac = async (jobId: string, issued: number, nonce: string) => {
    secret ??= serviceSecret(deps.db, 'apply-form', deps.clock.now()).catch((error: unknown) => {
      secret = null;
      throw error;
    });
    return createHmac('sha256', await secret)
      .update(`${jobId}.${issued}.${nonce}`)
      .digest('base64url');
  };
  return {
    async mint(jobId: string): Promise<{ token: string; nonce: string }> {
      const nonce = randomToken(16);
      const issued = Math.floor(deps.clock.now().getTime() / 1000);
      return { token: `${issued}.${nonce}.${await mac(jobId, issued, nonce)}`, nonce };
    },
    async verify(jobId: string, token: unknown, cookieNonce: string | undefined): Promise<boolean> {
      if (typeof token !== 'string' || !cookieNonce) return false;
      const [issuedText, nonce, sig] = token.split('.');
      const issued = Number(issuedText);
      if (!nonce || !sig || !Number.isSafeInteger(issued) || nonce !== cookieNonce) return false;
      if (deps.clock.now().getTime() - issued * 1000 > FORM_TOKEN_TTL_MS) return false;
      const expected = Buffer.from(await mac(jobId, issued, nonce));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
