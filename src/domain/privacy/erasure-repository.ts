import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

export type ErasableKind = 'application' | 'candidate';

/** What the erasure routine needs of a row before it erases it. */
export interface ErasableRow {
  kind: ErasableKind;
  id: string;
  accountId: string;
  jobId: string | null;
  cvStatus: string;
  /** The import outcome (candidates) or the application status. */
  status: string;
  blobKey: string | null;
  erasedAt: Date | null;
}

/**
 * The only SQL of an erasure (extensions.md §6, "What erasure means"): every personal field of the
 * row, the upload's row (file name, client address), the virtual CV unless the
 * candidate claimed the CV and keeps it, the screening messages written to the person, and the mail
 * kept about them. Matches and notes are erased by their owners in the same transaction. The claim
 * links stay (a hash of the token and the subject's id: nothing of the person), so a link answers
 * 410 gone rather than 404 unknown.
 */
export const erasureRepository = {
  async lock(db: Db, kind: ErasableKind, id: string): Promise<ErasableRow | undefined> {
    if (kind === 'application') {
      const row = await db
        .selectFrom('applications')
        .select(['id', 'account_id', 'job_id', 'cv_status', 'status', 'blob_key', 'erased_at'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return (
        row && {
          kind,
          id: row.id,
          accountId: row.account_id,
          jobId: row.job_id,
          cvStatus: row.cv_status,
          status: row.status,
          blobKey: row.blob_key,
          erasedAt: row.erased_at,
        }
      );
    }
    const row = await db
      .selectFrom('candidates')
      .select(['id', 'account_id', 'cv_status', 'outcome', 'blob_key', 'erased_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return (
      row && {
        kind,
        id: row.id,
        accountId: row.account_id,
        jobId: null,
        cvStatus: row.cv_status,
        status: row.outcome,
        blobKey: row.blob_key,
        erasedAt: row.erased_at,
      }
    );
  },

  /**
   * Nulls the personal fields. `keepCv`: the claimed CV's file, virtual CV and links stay (they are
   * the candidate's); `cvDeleted`: the CV status moves to deleted (not from failed).
   */
  async erasePersonal(
    db: Db,
    row: ErasableRow,
    cv: { keepCv: boolean; cvDeleted: boolean },
    at: Date,
  ): Promise<void> {
    const { keepCv } = cv;
    const cvFields = {
      ...(keepCv ? {} : { blob_key: null }),
      ...(cv.cvDeleted ? { cv_status: 'deleted' as const } : {}),
    };
    if (row.kind === 'application') {
      await db
        .updateTable('applications')
        .set({
          name: null,
          email: null,
          email_key: null,
          phone: null,
          location: null,
          cover_note: null,
          answers: null,
          consent_receipt: null,
          consent_text: null,
          consent_socket_address: null,
          lawful_basis: null,
          ...cvFields,
          erased_at: at,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .execute();
    } else {
      await db
        .updateTable('candidates')
        .set({
          name: null,
          email: null,
          email_key: null,
          lawful_basis: null,
          rejection: null,
          ...cvFields,
          erased_at: at,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .execute();
    }
    // The upload the file came in by (its id is the file's key): its name and client address.
    if (row.blobKey) await db.deleteFrom('uploads').where('id', '=', row.blobKey).execute();
    if (!keepCv) {
      await db
        .deleteFrom('virtual_cvs')
        .where('subject_kind', '=', row.kind)
        .where('subject_id', '=', row.id)
        .execute();
    }
    await db.deleteFrom('mail_outbox').where('subject_ref', '=', `${row.kind}:${row.id}`).execute();
  },

  /** The uploads an application's file answers name (§5): their files go with the application. */
  async answerFiles(db: Db, applicationId: string): Promise<string[]> {
    const row = await db
      .selectFrom('applications')
      .select('answers')
      .where('id', '=', applicationId)
      .executeTakeFirst();
    return (row?.answers ?? []).flatMap((a) => {
      const value = a.value as { uploadId?: unknown } | null | undefined;
      return a.questionId && typeof value?.uploadId === 'string' ? [value.uploadId] : [];
    });
  },

  /** The upload rows of files erased with the subject (their ids are the files' keys). */
  async deleteUploads(db: Db, ids: string[]): Promise<void> {
    if (ids.length > 0) await db.deleteFrom('uploads').where('id', 'in', ids).execute();
  },

  /** The account's matches of the subject, before matching erases them (for a receipt's count). */
  async countMatches(db: Db, row: ErasableRow): Promise<number> {
    const found = await db
      .selectFrom('matches')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('candidate_kind', '=', row.kind)
      .where('subject_id', '=', row.id)
      .executeTakeFirstOrThrow();
    return found.n;
  },

  /** The screenings of the subject keep their ids and dates; the message written to the person goes. */
  async eraseScreeningMessages(db: Db, row: ErasableRow): Promise<number> {
    const done = await db
      .updateTable('screenings')
      .set({ message: null })
      .where('account_id', '=', row.accountId)
      .where('candidate_kind', '=', row.kind)
      .where('candidate_id', '=', row.id)
      .returning('id')
      .execute();
    return done.length;
  },
};
