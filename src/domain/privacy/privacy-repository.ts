import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

/** Days an import made with sendClaimEmail: false is kept unless the account informed the person. */
export const UNINFORMED_IMPORT_DAYS = 30;

export interface ReceiptRow {
  id: string;
  account_id: string;
  address_hash: string;
  applications: number;
  candidates: number;
  matches: number;
  screenings: number;
  files: number;
  erased_at: Date;
}

/** The reads and writes of retention, erasure requests and access exports (extensions.md §6). */
export const privacyRepository = {
  /**
   * Applications whose retention has run out: `retention_application_days` after the later of
   * their creation and their job's close or expiry, never while the job is live.
   */
  async dueApplications(db: Db, now: Date, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('applications as a')
      .innerJoin('jobs as j', 'j.id', 'a.job_id')
      .innerJoin('accounts as acc', 'acc.id', 'a.account_id')
      .select('a.id')
      .where('a.erased_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('j.status', '=', 'closed'),
          eb.and([eb('j.status', '=', 'published'), eb('j.expires_at', '<=', now)]),
        ]),
      )
      .where(
        sql<boolean>`greatest(a.created_at, coalesce(case when j.status = 'closed' then j.closed_at else j.expires_at end, a.created_at))
          + acc.retention_application_days * interval '1 day' <= ${now}`,
      )
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  },

  /** Imports past `retention_candidate_days`, or past 30 days when nobody told the person (Art. 14). */
  async dueCandidates(db: Db, now: Date, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('candidates as c')
      .innerJoin('accounts as acc', 'acc.id', 'c.account_id')
      .select('c.id')
      .where('c.erased_at', 'is', null)
      .where((eb) =>
        eb.or([
          sql<boolean>`c.created_at + acc.retention_candidate_days * interval '1 day' <= ${now}`,
          eb.and([
            eb('c.send_claim_email', '=', false),
            eb('c.informed_at', 'is', null),
            sql<boolean>`c.created_at + ${UNINFORMED_IMPORT_DAYS} * interval '1 day' <= ${now}`,
          ]),
        ]),
      )
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  },

  /** The account's applications and imports of an address (compared lower-cased), not yet erased. */
  async heldFor(
    db: Db,
    accountId: string,
    emailKey: string,
  ): Promise<{ applications: string[]; candidates: string[] }> {
    const applications = await db
      .selectFrom('applications')
      .select('id')
      .where('account_id', '=', accountId)
      .where('email_key', '=', emailKey)
      .where('erased_at', 'is', null)
      .orderBy('created_at')
      .execute();
    const candidates = await db
      .selectFrom('candidates')
      .select('id')
      .where('account_id', '=', accountId)
      .where('email_key', '=', emailKey)
      .where('erased_at', 'is', null)
      .orderBy('created_at')
      .execute();
    return { applications: applications.map((r) => r.id), candidates: candidates.map((r) => r.id) };
  },

  async insertReceipt(db: Db, row: ReceiptRow): Promise<void> {
    await db.insertInto('erasure_receipts').values(row).execute();
  },

  async listReceipts(db: Db, accountId: string, limit: number, before: { at: Date; id: string } | null) {
    let query = db
      .selectFrom('erasure_receipts')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('erased_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (before) {
      query = query.where((eb) =>
        eb.or([
          eb('erased_at', '<', before.at),
          eb.and([eb('erased_at', '=', before.at), eb('id', '<', before.id)]),
        ]),
      );
    }
    return query.execute();
  },

  async erasedBefore(db: Db, accountId: string, addressHash: string): Promise<boolean> {
    const row = await db
      .selectFrom('erasure_receipts')
      .select('id')
      .where('account_id', '=', accountId)
      .where('address_hash', '=', addressHash)
      .executeTakeFirst();
    return row !== undefined;
  },

  async markInformed(db: Db, accountId: string, candidateId: string, at: Date): Promise<boolean> {
    const row = await db
      .updateTable('candidates')
      .set({ informed_at: at, updated_at: at })
      .where('id', '=', candidateId)
      .where('account_id', '=', accountId)
      .where('erased_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  // ---- the access export's reads ----

  async exportApplications(db: Db, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('applications as a')
      .innerJoin('jobs as j', 'j.id', 'a.job_id')
      .select([
        'a.id',
        'a.job_id',
        sql<string>`j.content->>'title'`.as('job_title'),
        'a.name',
        'a.email',
        'a.phone',
        'a.location',
        'a.cover_note',
        'a.answers',
        'a.source',
        'a.source_detail',
        'a.stage',
        'a.status',
        'a.cv_status',
        'a.consent_receipt',
        'a.consent_text_id',
        'a.consent_version',
        'a.consent_locale',
        'a.consent_text',
        'a.lawful_basis',
        'a.claimed_at',
        'a.created_at',
        'a.updated_at',
      ])
      .where('a.id', 'in', ids)
      .orderBy('a.created_at')
      .execute();
  },

  async exportCandidates(db: Db, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('candidates')
      .select([
        'id',
        'name',
        'email',
        'locale',
        'send_claim_email',
        'lawful_basis',
        'outcome',
        'cv_status',
        'informed_at',
        'claimed_at',
        'created_at',
      ])
      .where('id', 'in', ids)
      .orderBy('created_at')
      .execute();
  },

  async exportVirtualCvs(db: Db, kind: 'application' | 'candidate', ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('virtual_cvs')
      .select(['subject_kind', 'subject_id', 'document', 'created_at'])
      .where('subject_kind', '=', kind)
      .where('subject_id', 'in', ids)
      .execute();
  },

  async exportScreenings(db: Db, accountId: string, kind: 'application' | 'candidate', ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('screenings')
      .select(['id', 'job_id', 'candidate_kind', 'candidate_id', 'status', 'message', 'language'])
      .select(['requested_at', 'complete_by', 'completed_at', 'cancelled_at'])
      .where('account_id', '=', accountId)
      .where('candidate_kind', '=', kind)
      .where('candidate_id', 'in', ids)
      .execute();
  },

  async exportMatches(db: Db, accountId: string, kind: 'application' | 'candidate', ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('matches')
      .select(['id', 'job_id', 'candidate_kind', 'candidate_id', 'score', 'reasons', 'created_at'])
      .where('account_id', '=', accountId)
      .where('candidate_kind', '=', kind)
      .where('subject_id', 'in', ids)
      .execute();
  },

  /** The ids of the account's events about these applications and imports. */
  async exportEventIds(db: Db, accountId: string, applications: string[], candidates: string[]) {
    if (applications.length === 0 && candidates.length === 0) return [];
    const rows = await db
      .selectFrom('events')
      .select(['id', 'type', 'created_at'])
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          ...(applications.length > 0 ? [eb(sql<string>`data->>'applicationId'`, 'in', applications)] : []),
          ...(candidates.length > 0 ? [eb(sql<string>`data->>'candidateId'`, 'in', candidates)] : []),
        ]),
      )
      .orderBy('seq')
      .limit(10_000)
      .execute();
    return rows;
  },
};
