import { createHash } from 'node:crypto';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { CandidatesTable } from '../../db/schema.ts';

export type CandidateRow = Selectable<CandidatesTable>;

/** Suppressions keep only this digest of the address: enough to recognise it, not to read it. */
export function suppressionHash(emailKey: string): string {
  return createHash('sha256').update(`suppression:${emailKey}`).digest('hex');
}

export const candidateRepository = {
  async insert(db: Db, row: Insertable<CandidatesTable>): Promise<CandidateRow> {
    return db.insertInto('candidates').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async findByAddress(db: Db, accountId: string, emailKey: string): Promise<CandidateRow | undefined> {
    return db
      .selectFrom('candidates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
  },

  async find(db: Db, accountId: string, id: string): Promise<CandidateRow | undefined> {
    return db
      .selectFrom('candidates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** Imports that spent the daily budget: those that took a person into the pool. */
  async countSince(db: Db, accountId: string, since: Date): Promise<number> {
    const row = await db
      .selectFrom('candidates')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', accountId)
      .where('created_at', '>=', since)
      .where('outcome', 'in', ['queued', 'existing_account', 'rejected'])
      .executeTakeFirstOrThrow();
    return row.n;
  },

  async isSuppressed(db: Db, emailKey: string): Promise<boolean> {
    const row = await db
      .selectFrom('suppressions')
      .select('email_hash')
      .where('email_hash', '=', suppressionHash(emailKey))
      .executeTakeFirst();
    return row !== undefined;
  },

  async addSuppression(db: Db, emailKey: string, at: Date): Promise<void> {
    await db
      .insertInto('suppressions')
      .values({ email_hash: suppressionHash(emailKey), created_at: at })
      .onConflict((oc) => oc.column('email_hash').doNothing())
      .execute();
  },

  /** Every import of the address not yet erased, in every account (a suppression). */
  async idsByAddress(db: Db, emailKey: string): Promise<string[]> {
    const rows = await db
      .selectFrom('candidates')
      .select('id')
      .where('email_key', '=', emailKey)
      .where('erased_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  },

  async findPerson(db: Db, emailKey: string): Promise<{ id: string } | undefined> {
    return db.selectFrom('people').select('id').where('email_key', '=', emailKey).executeTakeFirst();
  },
};
