import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { CandidatesTable, ClaimLinksTable } from '../../db/schema.ts';
import { jobPagePath } from '../jobs/job-view.ts';

export type SubjectKind = 'application' | 'candidate';
export type ClaimLinkRow = Selectable<ClaimLinksTable>;

/** The part of an application or an import the CV lifecycle reads and changes. */
export interface CvSubject {
  kind: SubjectKind;
  id: string;
  accountId: string;
  jobId: string | null;
  name: string | null;
  email: string | null;
  locale: string;
  blobKey: string | null;
  cvStatus: string;
  /** Imports only: whether the person asked to be emailed (applications always are). */
  sendClaimEmail: boolean;
  /** Imports only: the import outcome. */
  outcome: CandidatesTable['outcome'] | null;
  stagedAt: Date | null;
  createdAt: Date;
}

export const cvRepository = {
  async subject(db: Db, kind: SubjectKind, id: string): Promise<CvSubject | undefined> {
    if (kind === 'application') {
      const row = await db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
      return (
        row && {
          kind,
          id: row.id,
          accountId: row.account_id,
          jobId: row.job_id,
          name: row.name,
          email: row.email,
          locale: row.consent_locale,
          blobKey: row.blob_key,
          cvStatus: row.cv_status,
          sendClaimEmail: true,
          outcome: null,
          stagedAt: row.staged_at,
          createdAt: row.created_at,
        }
      );
    }
    const row = await db.selectFrom('candidates').selectAll().where('id', '=', id).executeTakeFirst();
    return (
      row && {
        kind,
        id: row.id,
        accountId: row.account_id,
        jobId: null,
        name: row.name,
        email: row.email,
        locale: row.locale,
        blobKey: row.blob_key,
        cvStatus: row.cv_status,
        sendClaimEmail: row.send_claim_email,
        outcome: row.outcome,
        stagedAt: row.staged_at,
        createdAt: row.created_at,
      }
    );
  },

  /** Moves the CV status from one value to another; false when it was no longer `from`. */
  async moveStatus(
    db: Db,
    kind: SubjectKind,
    id: string,
    from: string,
    to: string,
    at: Date,
    extra: { staged_at?: Date; claimed_at?: Date } = {},
  ): Promise<boolean> {
    const table = kind === 'application' ? 'applications' : 'candidates';
    const row = await db
      .updateTable(table)
      .set({ cv_status: to as never, updated_at: at, ...extra })
      .where('id', '=', id)
      .where('cv_status', '=', from as never)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async markUnreadable(db: Db, kind: SubjectKind, id: string, at: Date): Promise<boolean> {
    if (kind === 'application') {
      const row = await db
        .updateTable('applications')
        .set({
          status: 'withdrawn',
          reason: 'cv_unreadable',
          cv_status: 'failed',
          blob_key: null,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('cv_status', '=', 'processing')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    }
    const row = await db
      .updateTable('candidates')
      .set({ cv_status: 'failed', blob_key: null, updated_at: at })
      .where('id', '=', id)
      .where('cv_status', '=', 'processing')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async insertVirtualCv(
    db: Db,
    row: {
      id: string;
      account_id: string;
      subject_kind: SubjectKind;
      subject_id: string;
      document: unknown;
      created_at: Date;
    },
  ): Promise<void> {
    await db
      .insertInto('virtual_cvs')
      .values({ ...row, document: JSON.stringify(row.document) })
      .onConflict((oc) => oc.columns(['subject_kind', 'subject_id']).doNothing())
      .execute();
  },

  async virtualCv(db: Db, kind: SubjectKind, id: string): Promise<Record<string, unknown> | undefined> {
    const row = await db
      .selectFrom('virtual_cvs')
      .select('document')
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', id)
      .executeTakeFirst();
    return row?.document;
  },

  async ensureLink(db: Db, row: Omit<ClaimLinkRow, 'used_at'>): Promise<void> {
    await db
      .insertInto('claim_links')
      .values({ ...row, used_at: null })
      .onConflict((oc) => oc.columns(['subject_kind', 'subject_id']).doNothing())
      .execute();
    // A link made under an earlier key (the key moved out of the database, or was replaced): the
    // mail about to be sent carries the current key's token, so the row answers to it from now on.
    await db
      .updateTable('claim_links')
      .set({ token_hash: row.token_hash })
      .where('subject_kind', '=', row.subject_kind)
      .where('subject_id', '=', row.subject_id)
      .where('token_hash', '<>', row.token_hash)
      .execute();
  },

  async link(db: Db, tokenHash: string, forUpdate = false): Promise<ClaimLinkRow | undefined> {
    let query = db.selectFrom('claim_links').selectAll().where('token_hash', '=', tokenHash);
    if (forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  async useLink(db: Db, tokenHash: string, at: Date): Promise<boolean> {
    const row = await db
      .updateTable('claim_links')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .returning('token_hash')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Staged CVs whose lifetime ended unclaimed. */
  async expiredStaged(db: Db, before: Date, limit: number): Promise<{ kind: SubjectKind; id: string }[]> {
    const apps = await db
      .selectFrom('applications')
      .select('id')
      .where('cv_status', '=', 'staged')
      .where('staged_at', '<=', before)
      .limit(limit)
      .execute();
    const cands = await db
      .selectFrom('candidates')
      .select('id')
      .where('cv_status', '=', 'staged')
      .where('staged_at', '<=', before)
      .limit(limit)
      .execute();
    return [
      ...apps.map((row) => ({ kind: 'application' as const, id: row.id })),
      ...cands.map((row) => ({ kind: 'candidate' as const, id: row.id })),
    ];
  },

  async context(
    db: Db,
    accountId: string,
    jobId: string | null,
    now: Date,
  ): Promise<{ company: string; role: string | null; jobPath: string | null; livemode: boolean }> {
    const account = await db
      .selectFrom('accounts')
      .select(['name', 'company_name', 'company_address', 'livemode'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    let role: string | null = null;
    let jobPath: string | null = null;
    if (jobId) {
      const job = await db
        .selectFrom('jobs')
        .select(['content', 'status', 'slug', 'expires_at'])
        .where('id', '=', jobId)
        .executeTakeFirst();
      role = typeof job?.content.title === 'string' ? job.content.title : null;
      const live = job?.status === 'published' && (job.expires_at === null || job.expires_at > now);
      if (live && job.slug && account.company_address)
        jobPath = jobPagePath(account.company_address, job.slug);
    }
    return { company: account.company_name ?? account.name, role, jobPath, livemode: account.livemode };
  },
};
