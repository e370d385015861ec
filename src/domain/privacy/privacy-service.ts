import type { Db } from '../../db/connect.ts';
import { addressDigest } from '../../lib/address-digest.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { emailKey } from '../../lib/email.ts';
import { newId } from '../../lib/ids.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { badRequest, notFound } from '../errors.ts';
import type { CvFileStore } from '../ports.ts';
import type { Seal } from '../seal.ts';
import type { Erased, Erasure } from './erasure.ts';
import { privacyRepository, type ReceiptRow } from './privacy-repository.ts';

/** Rows erased per transaction by the retention sweep. */
const SWEEP_BATCH = 100;
/** The sweep stops after this long and carries on at the next one (every minute). */
const SWEEP_BUDGET_MS = 20_000;

export interface ErasureReceipt {
  id: string;
  erasedAt: string;
  applications: number;
  candidates: number;
  matches: number;
  screenings: number;
  files: number;
}

function toReceipt(row: ReceiptRow): ErasureReceipt {
  return {
    id: row.id,
    erasedAt: row.erased_at.toISOString(),
    applications: row.applications,
    candidates: row.candidates,
    matches: row.matches,
    screenings: row.screenings,
    files: row.files,
  };
}

const iso = (at: Date | null | undefined) => (at ? at.toISOString() : null);

/**
 * Retention, erasure requests and access exports (issue 30, extensions.md §6). Every erasure goes
 * through the one routine (erasure.ts); this service decides what is due and keeps the receipts.
 */
export function createPrivacyService(deps: {
  db: Db;
  clock: Clock;
  files: CvFileStore;
  erasure: Erasure;
  /** The key of the receipts' address hash; outside the database (CLAIM_LINK_KEY). */
  addressKey: string;
  /** The pipeline's notes on these applications, for the access export. */
  notesFor?: (db: Db, applicationIds: string[]) => Promise<Map<string, unknown[]>>;
}) {
  const { db, clock, files, erasure } = deps;

  /** The receipts keep this keyed digest of the address: enough to recognise it, not to read it. */
  function addressHash(accountId: string, key: string): string {
    return addressDigest(deps.addressKey, 'erasure', accountId, key);
  }

  async function deleteFiles(erased: (Erased | null)[]): Promise<number> {
    let n = 0;
    for (const one of erased) {
      for (const key of one?.files ?? []) {
        await files.delete(key);
        n++;
      }
    }
    return n;
  }

  async function eraseBatch(kind: 'application' | 'candidate', ids: string[]): Promise<number> {
    const now = clock.now();
    const erased = await db.transaction().execute(async (trx) => {
      const out: (Erased | null)[] = [];
      for (const id of ids) out.push(await erasure.eraseIn(trx, kind, id, { at: now, keepClaimedCv: true }));
      return out;
    });
    await deleteFiles(erased);
    return erased.filter((e) => e !== null).length;
  }

  async function validAddress(email: unknown): Promise<string> {
    const key = typeof email === 'string' ? emailKey(email) : '';
    if (key === '' || !key.includes('@') || key.length > 254) {
      throw badRequest('email must be an email address.', { field: 'email' });
    }
    return key;
  }

  async function accountOrNotFound(accountId: string): Promise<void> {
    if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
  }

  return {
    addressHash,

    /** Whether the account erased this address on request (a later import answers suppressed). */
    async erasedOnRequest(on: Db, accountId: string, key: string): Promise<boolean> {
      return privacyRepository.erasedBefore(on, accountId, addressHash(accountId, key));
    },

    /**
     * The retention sweep: due applications and imports, erased in batches of SWEEP_BATCH, each
     * batch its own transaction, for at most SWEEP_BUDGET_MS; the rest waits for the next sweep.
     */
    async sweepRetention(
      kinds: readonly ('application' | 'candidate')[] = ['application', 'candidate'],
    ): Promise<{ applications: number; candidates: number }> {
      const started = performance.now();
      const done = { applications: 0, candidates: 0 };
      for (const kind of kinds) {
        for (;;) {
          if (performance.now() - started > SWEEP_BUDGET_MS) return done;
          const now = clock.now();
          const ids =
            kind === 'application'
              ? await privacyRepository.dueApplications(db, now, SWEEP_BATCH)
              : await privacyRepository.dueCandidates(db, now, SWEEP_BATCH);
          if (ids.length === 0) break;
          const n = await eraseBatch(kind, ids);
          done[kind === 'application' ? 'applications' : 'candidates'] += n;
          // Requests get the database between batches.
          await new Promise((resolve) => setImmediate(resolve));
          if (n === 0) break;
        }
      }
      return done;
    },

    /** An erasure request: everything the account holds of the address, erased at once, with a receipt. */
    async eraseAddress(
      accountId: string,
      email: unknown,
      seal?: Seal<ErasureReceipt>,
    ): Promise<ErasureReceipt> {
      const key = await validAddress(email);
      await accountOrNotFound(accountId);
      const now = clock.now();
      const { receipt, erased } = await db.transaction().execute(async (trx) => {
        await accountRepository.lock(trx, accountId);
        const held = await privacyRepository.heldFor(trx, accountId, key);
        const erased: (Erased | null)[] = [];
        for (const id of held.applications)
          erased.push(await erasure.eraseIn(trx, 'application', id, { at: now, keepClaimedCv: true }));
        for (const id of held.candidates)
          erased.push(await erasure.eraseIn(trx, 'candidate', id, { at: now, keepClaimedCv: true }));
        const done = erased.filter((e): e is Erased => e !== null);
        const row: ReceiptRow = {
          id: newId('era', now),
          account_id: accountId,
          address_hash: addressHash(accountId, key),
          applications: done.filter((e) => e.kind === 'application').length,
          candidates: done.filter((e) => e.kind === 'candidate').length,
          matches: done.reduce((n, e) => n + e.matches, 0),
          screenings: done.reduce((n, e) => n + e.screenings, 0),
          files: done.reduce((n, e) => n + e.files.length, 0),
          erased_at: now,
        };
        await privacyRepository.insertReceipt(trx, row);
        const receipt = toReceipt(row);
        await seal?.(trx, receipt);
        return { receipt, erased };
      });
      await deleteFiles(erased);
      return receipt;
    },

    async receipts(
      accountId: string,
      query: { cursor?: string; limit?: number } = {},
    ): Promise<{ receipts: ErasureReceipt[]; nextCursor: string | null }> {
      await accountOrNotFound(accountId);
      let before: { at: Date; id: string } | null = null;
      if (query.cursor !== undefined) {
        const decoded = decodeCursor(query.cursor);
        const [at, id] = decoded?.split('|') ?? [];
        const date = at ? new Date(at) : null;
        if (!date || Number.isNaN(date.getTime()) || !id)
          throw badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
        before = { at: date, id };
      }
      const limit = query.limit ?? 50;
      const rows = await privacyRepository.listReceipts(db, accountId, limit + 1, before);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        receipts: page.map(toReceipt),
        nextCursor:
          rows.length > limit && last ? encodeCursor(`${last.erased_at.toISOString()}|${last.id}`) : null,
      };
    },

    /** Art. 14: the account records that it told an imported person it holds their data. */
    async markInformed(accountId: string, candidateId: string, seal?: Seal<{ informedAt: string }>) {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        if (!(await privacyRepository.markInformed(trx, accountId, candidateId, now)))
          throw notFound('Candidate');
        const out = { informedAt: now.toISOString() };
        await seal?.(trx, out);
        return out;
      });
    },

    /** An access request: one document of everything the account holds about the address. */
    async exportAddress(accountId: string, email: unknown, seal?: Seal<{ addressHash: string }>) {
      const key = await validAddress(email);
      await accountOrNotFound(accountId);
      const held = await privacyRepository.heldFor(db, accountId, key);
      const applications = await privacyRepository.exportApplications(db, held.applications);
      const candidates = await privacyRepository.exportCandidates(db, held.candidates);
      const cvs = [
        ...(await privacyRepository.exportVirtualCvs(db, 'application', held.applications)),
        ...(await privacyRepository.exportVirtualCvs(db, 'candidate', held.candidates)),
      ];
      const screenings = [
        ...(await privacyRepository.exportScreenings(db, accountId, 'application', held.applications)),
        ...(await privacyRepository.exportScreenings(db, accountId, 'candidate', held.candidates)),
      ];
      const matches = [
        ...(await privacyRepository.exportMatches(db, accountId, 'application', held.applications)),
        ...(await privacyRepository.exportMatches(db, accountId, 'candidate', held.candidates)),
      ];
      const events = await privacyRepository.exportEventIds(
        db,
        accountId,
        held.applications,
        held.candidates,
      );
      const notes = await (deps.notesFor?.(db, held.applications) ?? Promise.resolve(new Map()));
      const document = {
        exportedAt: clock.now().toISOString(),
        email: key,
        applications: applications.map((a) => ({
          id: a.id,
          jobId: a.job_id,
          jobTitle: a.job_title,
          name: a.name,
          email: a.email,
          phone: a.phone,
          location: a.location,
          coverNote: a.cover_note,
          answers: a.answers ?? [],
          source: { route: a.source, ...(a.source_detail ?? {}) },
          stage: a.stage,
          status: a.status,
          cvStatus: a.cv_status,
          notes: notes.get(a.id) ?? [],
          consent: {
            receipt: a.consent_receipt,
            textId: a.consent_text_id,
            version: a.consent_version,
            locale: a.consent_locale,
            text: a.consent_text,
            lawfulBasis: a.lawful_basis,
          },
          claimedAt: iso(a.claimed_at),
          createdAt: iso(a.created_at),
          updatedAt: iso(a.updated_at),
        })),
        imports: candidates.map((c) => ({
          id: c.id,
          name: c.name,
          email: c.email,
          locale: c.locale,
          sendClaimEmail: c.send_claim_email,
          lawfulBasis: c.lawful_basis,
          status: c.outcome,
          cvStatus: c.cv_status,
          informedAt: iso(c.informed_at),
          claimedAt: iso(c.claimed_at),
          createdAt: iso(c.created_at),
        })),
        virtualCvs: cvs.map((cv) => ({
          of: { kind: cv.subject_kind, id: cv.subject_id },
          createdAt: iso(cv.created_at),
          document: cv.document,
        })),
        screenings: screenings.map((s) => ({
          id: s.id,
          jobId: s.job_id,
          candidate: { kind: s.candidate_kind, id: s.candidate_id },
          status: s.status,
          message: s.message,
          language: s.language,
          requestedAt: iso(s.requested_at),
          completeBy: iso(s.complete_by),
          completedAt: iso(s.completed_at),
          cancelledAt: iso(s.cancelled_at),
        })),
        matches: matches.map((m) => ({
          id: m.id,
          jobId: m.job_id,
          candidate: { kind: m.candidate_kind, id: m.candidate_id },
          score: m.score,
          reasons: m.reasons,
          createdAt: iso(m.created_at),
        })),
        events: events.map((e) => ({ id: e.id, type: e.type, createdAt: iso(e.created_at) })),
      };
      if (seal)
        await db.transaction().execute((trx) => seal(trx, { addressHash: addressHash(accountId, key) }));
      return document;
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
