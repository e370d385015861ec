import type { Db } from '../../db/connect.ts';
import { newId } from '../../lib/ids.ts';
import { type AccountRow, accountRepository } from './account-repository.ts';

/**
 * Test mode (extensions.md §8, issue 32): an account's test data lives under its test twin, a
 * second accounts row with `livemode` false that names the live account. Every query scoped by
 * account_id is thereby scoped by mode as well: reads and lists, daily budgets, idempotency, the
 * event feed and webhooks, matches, screenings and their bill. The twin carries the live account's
 * profile, DPA acceptance, limits and retention (kept in step by `syncTwin`), and a company address
 * no live account can hold: the live one's plus `.test`.
 */

export const TEST_ADDRESS_SUFFIX = '.test';

/** The twin's copy of what the live account decides (everything but ids, mode and dates). */
function mirrored(live: AccountRow): Partial<AccountRow> {
  const {
    id: _id,
    livemode: _livemode,
    live_account_id: _liveAccountId,
    created_at: _created,
    updated_at: _updated,
    company_address,
    ...rest
  } = live;
  return {
    ...rest,
    company_address: company_address === null ? null : company_address + TEST_ADDRESS_SUFFIX,
  };
}

/** The account's test twin, made (in the caller's transaction) if it has none yet. */
export async function ensureTwin(trx: Db, live: AccountRow, now: Date): Promise<AccountRow> {
  const held = await accountRepository.twinOf(trx, live.id);
  if (held) return held;
  return trx
    .insertInto('accounts')
    .values({
      ...mirrored(live),
      id: newId('acc', now),
      name: live.name,
      livemode: false,
      live_account_id: live.id,
      created_at: now,
      updated_at: now,
    } as AccountRow)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** After a change of the live account: its twin (if any) follows. */
export async function syncTwin(trx: Db, live: AccountRow): Promise<void> {
  await trx
    .updateTable('accounts')
    .set({ ...mirrored(live), updated_at: live.updated_at })
    .where('live_account_id', '=', live.id)
    .execute();
}
