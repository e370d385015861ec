import type { Db } from '../../db/connect.ts';
import { addressDigest } from '../../lib/address-digest.ts';
import { emailKey } from '../../lib/email.ts';

/**
 * "Don't match me" (extensions.md §7 "The candidate is told", issue 31 item 6): a person leaves
 * every pool of one account and is never matched in it again. The record holds the account, a keyed
 * digest of the normalised address (lib/address-digest.ts, as erasure receipts do) and when; never
 * the address. It outlives the person's erasure, and a re-import of the address (in any case) is
 * recognised by the digest.
 */
export function createOptOuts(addressKey: string) {
  const digest = (accountId: string, address: string) =>
    addressDigest(addressKey, 'match-opt-out', accountId, address);

  return {
    /**
     * In one transaction: the record, and the person out of the account's pool (the account's own
     * profiles of the address) and out of every match of its roles (a platform person's profile
     * stays: it is in other accounts' pools; generation skips it here).
     */
    async record(trx: Db, accountId: string, address: string, at: Date): Promise<void> {
      const key = emailKey(address);
      await trx
        .insertInto('match_opt_outs')
        .values({ account_id: accountId, address_hash: digest(accountId, key), created_at: at })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .deleteFrom('match_profiles')
        .where('account_id', '=', accountId)
        .where('email_key', '=', key)
        .execute();
      await trx
        .deleteFrom('matches')
        .where('account_id', '=', accountId)
        .where('person_key', '=', key)
        .execute();
    },

    async isOptedOut(db: Db, accountId: string, address: string): Promise<boolean> {
      const row = await db
        .selectFrom('match_opt_outs')
        .select('created_at')
        .where('account_id', '=', accountId)
        .where('address_hash', '=', digest(accountId, address))
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * For one generation: whether an address of the pool said no to this account. The account's
     * digests are read once; each address of the pool is digested only when there are any.
     */
    async filterFor(db: Db, accountId: string): Promise<(address: string | null) => boolean> {
      const rows = await db
        .selectFrom('match_opt_outs')
        .select('address_hash')
        .where('account_id', '=', accountId)
        .execute();
      if (rows.length === 0) return () => false;
      const hashes = new Set(rows.map((row) => row.address_hash));
      return (address) => address !== null && hashes.has(digest(accountId, address));
    },
  };
}

export type OptOuts = ReturnType<typeof createOptOuts>;
