import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { MailOutboxTable } from '../db/schema.ts';

export type OutboxRow = Selectable<MailOutboxTable>;

export const mailRepository = {
  async insertOutbox(db: Db, row: Insertable<MailOutboxTable>): Promise<void> {
    await db
      .insertInto('mail_outbox')
      .values(row)
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  },

  async listOutbox(db: Db, recipient: string | null, limit: number): Promise<OutboxRow[]> {
    let query = db.selectFrom('mail_outbox').selectAll();
    if (recipient !== null) query = query.where('recipient', '=', recipient.toLowerCase());
    const rows = await query.orderBy('sent_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.reverse();
  },

  async wasSent(db: Db, key: string): Promise<boolean> {
    return (
      (await db.selectFrom('mail_sent').select('key').where('key', '=', key).executeTakeFirst()) !== undefined
    );
  },

  async markSent(db: Db, key: string, subjectRef: string, at: Date): Promise<void> {
    await db
      .insertInto('mail_sent')
      .values({ key, subject_ref: subjectRef, sent_at: at })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  },

  /** Erases the mail kept about a subject (the candidate deleted their data, or it expired). */
  async eraseFor(db: Db, subjectRef: string): Promise<void> {
    await db.deleteFrom('mail_outbox').where('subject_ref', '=', subjectRef).execute();
  },
};
