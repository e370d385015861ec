import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { PeopleTable } from '../../db/schema.ts';

export type PersonRow = Selectable<PeopleTable>;
export type PersonCvStatus = PersonRow['cv_status'];

/** Job seekers who hold a platform account (console.md, "People on the platform's side"), and their CV. */
export const personRepository = {
  async insert(
    db: Db,
    row: {
      id: string;
      email_key: string;
      name: string;
      open_to_matches: boolean;
      cv_status: PersonCvStatus;
      blob_key: string | null;
      locale: string;
      at: Date;
    },
  ): Promise<PersonRow | undefined> {
    const { at, ...values } = row;
    return db
      .insertInto('people')
      .values({ ...values, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('email_key').doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  async find(db: Db, id: string, lock = false): Promise<PersonRow | undefined> {
    const query = db.selectFrom('people').selectAll().where('id', '=', id);
    return lock ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
  },

  async findByAddress(db: Db, emailKey: string): Promise<PersonRow | undefined> {
    return db.selectFrom('people').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
  },

  async setOpen(db: Db, id: string, open: boolean, at: Date): Promise<PersonRow | undefined> {
    return db
      .updateTable('people')
      .set({ open_to_matches: open, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  /** Moves the CV status from one value to another; false when it was no longer `from`. */
  async moveCv(
    db: Db,
    id: string,
    from: PersonCvStatus[],
    to: PersonCvStatus,
    at: Date,
    blobKey?: string | null,
  ): Promise<PersonRow | undefined> {
    return db
      .updateTable('people')
      .set({ cv_status: to, updated_at: at, ...(blobKey === undefined ? {} : { blob_key: blobKey }) })
      .where('id', '=', id)
      .where('cv_status', 'in', from)
      .returningAll()
      .executeTakeFirst();
  },

  async saveCv(db: Db, personId: string, document: unknown, at: Date): Promise<void> {
    await db
      .insertInto('person_cvs')
      .values({ person_id: personId, document: JSON.stringify(document), created_at: at })
      .onConflict((oc) =>
        oc.column('person_id').doUpdateSet({ document: JSON.stringify(document), created_at: at }),
      )
      .execute();
  },

  async cv(db: Db, personId: string): Promise<Record<string, unknown> | undefined> {
    const row = await db
      .selectFrom('person_cvs')
      .select('document')
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return row?.document as Record<string, unknown> | undefined;
  },

  async deleteCv(db: Db, personId: string): Promise<void> {
    await db.deleteFrom('person_cvs').where('person_id', '=', personId).execute();
  },
};
