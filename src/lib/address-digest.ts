import { createHmac } from 'node:crypto';
import { emailKey } from './email.ts';

/**
 * A keyed digest of an address, for a record that must recognise the address later without
 * holding it: HMAC-SHA-256 under a key kept outside the database (CLAIM_LINK_KEY), of the
 * purpose, the account and the normalised address (emailKey: trimmed, lower-cased). A copy of
 * the database alone cannot test a guessed address against it. Erasure receipts ('erasure') and
 * matching opt-outs ('match-opt-out') use it.
 */
export function addressDigest(key: string, purpose: string, accountId: string, address: string): string {
  return createHmac('sha256', key)
    .update(`${purpose}:${accountId}:${emailKey(address)}`)
    .digest('hex');
}
