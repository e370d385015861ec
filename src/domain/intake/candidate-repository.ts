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

  /** Erases every import of the address; answers the files to delete and the rows whose CV moved. */
  async eraseByAddress(
    db: Db,
    emailKey: string,
    at: Date,
  ): Promise<{
    blobs: string[];
    moved: { id: string; account_id: string; outcome: CandidatesTable['outcome'] }[];
  }> {
    const held = await db
      .selectFrom('candidates')
      .select(['id', 'account_id', 'outcome', 'cv_status', 'blob_key'])
      .where('email_key', '=', emailKey)
      .forUpdate()
      .execute();
    const erased = await db
      .updateTable('candidates')
      .set({
        email_key: null,
        name: null,
        email: null,
        lawful_basis: null,
        blob_key: null,
        cv_status: 'deleted',
        updated_at: at,
      })
      .where('email_key', '=', emailKey)
      .returning('id')
      .execute();
    // The virtual CVs built from those files, and the mail kept about them, are copies too.
    const ids = erased.map((row) => row.id);
    if (ids.length > 0) {
      await db
        .deleteFrom('virtual_cvs')
        .where('subject_kind', '=', 'candidate')
        .where('subject_id', 'in', ids)
        .execute();
      await db
        .deleteFrom('mail_outbox')
        .where(
          'subject_ref',
          'in',
          ids.map((id) => `candidate:${id}`),
        )
        .execute();
    }
    const blobs = held.map((row) => row.blob_key).filter((key): key is string => key !== null);
    // The uploads the files came in by (their ids are the files' keys) go with them.
    if (blobs.length > 0) await db.deleteFrom('uploads').where('id', 'in', blobs).execute();
    return {
      blobs,
      moved: held.filter((row) => row.cv_status !== 'deleted' && ids.includes(row.id)),
    };
  },

  async findPerson(db: Db, emailKey: string): Promise<{ id: string } | undefined> {
    return db.selectFrom('people').select('id').where('email_key', '=', emailKey).executeTakeFirst();
  },
};
