import type { CandidateCreated, CandidateWrite } from '../../contract/intake.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { emailKey } from '../../lib/email.ts';
import { newId } from '../../lib/ids.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { type AccountRow, accountRepository } from '../accounts/account-repository.ts';
import { attestationRequired, badRequest, dailyCapReached, notFound, uploadInvalid } from '../errors.ts';
import type { CvFileStore } from '../ports.ts';
import type { Erasure } from '../privacy/erasure.ts';
import type { Seal } from '../seal.ts';
import { applicationRepository } from './application-repository.ts';
import { type CandidateRow, candidateRepository } from './candidate-repository.ts';
import { looksLikeCv } from './cv-likeness.ts';
import { utcDay } from './day-window.ts';
import { notACv } from './not-a-cv.ts';
import { outcomeOnDemand } from './outcomes-on-demand.ts';
import type { UploadRow } from './upload-repository.ts';
import type { UploadService } from './upload-service.ts';

type CandidateInsert = Parameters<typeof candidateRepository.insert>[1];
type Rejection = NonNullable<CandidateCreated['rejection']>;

type ImportOutcome =
  | { kind: 'suppressed' }
  | { kind: 'already_imported'; candidateId: string }
  | { kind: 'existing_account' }
  | { kind: 'rejected'; rejection: Rejection }
  | { kind: 'queued' };

const alreadyImported = (candidateId: string): CandidateCreated => ({
  candidateId,
  status: 'already_imported',
  cvStatus: 'none',
});

function createdAnswer(inserted: CandidateRow): CandidateCreated {
  const rejection = inserted.rejection as Rejection | null;
  return {
    candidateId: inserted.id,
    status: inserted.outcome,
    cvStatus: inserted.cv_status === 'processing' ? 'processing' : 'none',
    ...(rejection ? { rejection } : {}),
  };
}

/**
 * The row each outcome writes. Outcomes that hold nothing of the person (suppressed, rejected)
 * keep no address, name or file, so a rejected address can be imported again with a real CV.
 */
function candidateRows(accountId: string, input: CandidateWrite, now: Date) {
  const base = {
    id: newId('cand', now),
    account_id: accountId,
    locale: input.locale ?? 'en',
    send_claim_email: input.sendClaimEmail ?? true,
    rejection: null,
    claimed_at: null,
    created_at: now,
    updated_at: now,
  };
  const anonymous = {
    ...base,
    email_key: null,
    name: null,
    email: null,
    lawful_basis: null,
    cv_status: 'none' as const,
    blob_key: null,
  };
  const personal = {
    ...base,
    email_key: emailKey(input.email),
    name: input.name,
    email: input.email.trim(),
    lawful_basis: JSON.stringify(input.lawfulBasis),
  };
  return {
    suppressed: (): CandidateInsert => ({ ...anonymous, outcome: 'suppressed' }),
    rejected: (rejection: Rejection): CandidateInsert => ({
      ...anonymous,
      outcome: 'rejected',
      rejection: JSON.stringify(rejection),
    }),
    existingAccount: (): CandidateInsert => ({
      ...personal,
      outcome: 'existing_account',
      cv_status: 'none',
      blob_key: null,
    }),
    queued: (uploadId: string): CandidateInsert => ({
      ...personal,
      outcome: 'queued',
      cv_status: 'processing',
      blob_key: uploadId,
    }),
  };
}

export function createCandidateService(deps: {
  db: Db;
  clock: Clock;
  uploads: UploadService;
  files: CvFileStore;
  queue: TaskQueue;
  /** Matching forgets a suppressed address in the same transaction (issue 19). */
  matches?: { eraseAddress(trx: Db, emailKey: string): Promise<void> };
  /** The one erasure routine: a suppression erases every import of the address through it. */
  erasure: Erasure;
  /** Whether the account erased the address on request: a later import answers suppressed. */
  erasedOnRequest?: (on: Db, accountId: string, emailKey: string) => Promise<boolean>;
}) {
  const { db, clock, uploads, files, queue } = deps;

  async function budget(trx: Db, accountId: string, now: Date): Promise<AccountRow> {
    const account = await accountRepository.find(trx, accountId);
    if (!account) throw notFound('Account');
    const day = utcDay(now);
    if (
      (await candidateRepository.countSince(trx, accountId, day.start)) >= account.daily_candidate_imports
    ) {
      throw dailyCapReached('candidate imports', account.daily_candidate_imports, day);
    }
    return account;
  }

  /** Records an outcome that keeps nothing of the file; the upload is spent and its file erased. */
  async function settleWithoutFile(
    accountId: string,
    uploadId: string,
    row: CandidateInsert | null,
    answer: (inserted: CandidateRow | null) => CandidateCreated,
    seal?: Seal<CandidateCreated>,
  ): Promise<CandidateCreated> {
    const result = await db.transaction().execute(async (trx) => {
      const inserted = row ? await candidateRepository.insert(trx, row) : null;
      await uploads.spend(trx, accountId, uploadId);
      const out = answer(inserted);
      await seal?.(trx, out);
      return out;
    });
    await files.delete(uploadId);
    return result;
  }

  /**
   * The id the account already holds a CV under for this address: an earlier import, else an
   * application to one of its roles whose CV is being built, staged or claimed (the application's
   * id is also its candidate id). A deleted or failed CV is not held, so the person can be imported.
   */
  async function heldCvFor(on: Db, accountId: string, key: string): Promise<string | undefined> {
    const imported = await candidateRepository.findByAddress(on, accountId, key);
    if (imported) return imported.id;
    return (await applicationRepository.findHeldCv(on, accountId, key))?.id;
  }

  /**
   * The outcome the service decides for the person and the file, in the spec's order: suppressed,
   * already imported, an existing platform account, the CV checks (a refused file is 422
   * `cv_rejected` and is thrown from here), a file that passes them but does not read as a CV
   * (rejected), else queued. Reads only; nothing is written until the outcome is settled.
   */
  async function decide(
    accountId: string,
    upload: UploadRow,
    input: CandidateWrite,
    livemode: boolean,
  ): Promise<ImportOutcome> {
    // Test mode's outcomes on demand (docs/sandbox.md): an address ending +existing, +suppressed
    // or +rejected answers that status.
    const asked = livemode ? null : outcomeOnDemand(input.email);
    if (asked === 'suppressed') return { kind: 'suppressed' };
    if (asked === 'existing') return { kind: 'existing_account' };
    if (asked === 'rejected') return { kind: 'rejected', rejection: notACv(input.locale ?? 'en') };
    const key = emailKey(input.email);
    if (await candidateRepository.isSuppressed(db, key)) return { kind: 'suppressed' };
    if (await deps.erasedOnRequest?.(db, accountId, key)) return { kind: 'suppressed' };
    const already = await heldCvFor(db, accountId, key);
    if (already) return { kind: 'already_imported', candidateId: already };
    if (await candidateRepository.findPerson(db, key)) return { kind: 'existing_account' };
    // Its text decides whether it reads as a CV; the fonts matter only to the build task.
    const verdict = await uploads.inspect(upload, input.locale ?? 'en', undefined, 'plain');
    if (!looksLikeCv(verdict.text)) return { kind: 'rejected', rejection: notACv(input.locale ?? 'en') };
    return { kind: 'queued' };
  }

  /** What the import's outcome starts after it: the virtual CV's build, or the account holder's notice. */
  async function enqueueFollowUp(trx: Db, inserted: CandidateRow): Promise<void> {
    if (inserted.outcome === 'queued') {
      await queue.enqueue(
        trx,
        'build-cv',
        { kind: 'candidate', id: inserted.id },
        { key: `build-cv:candidate:${inserted.id}` },
      );
    } else if (inserted.outcome === 'existing_account') {
      await queue.enqueue(
        trx,
        'send-account-notice',
        { candidateId: inserted.id },
        { key: `send-account-notice:${inserted.id}` },
      );
    }
  }

  /**
   * The accepting transaction: the budget and the address re-checked under the account's row lock
   * (a racing import of the same address makes this one `already_imported`), the upload spent, the
   * row written and its follow-up enqueued. The file is kept only for a queued build.
   */
  async function accept(
    accountId: string,
    uploadId: string,
    row: CandidateInsert,
    seal?: Seal<CandidateCreated>,
  ): Promise<CandidateCreated> {
    const result = await db.transaction().execute(async (trx) => {
      await accountRepository.lock(trx, accountId);
      await budget(trx, accountId, clock.now());
      const raced = row.email_key ? await heldCvFor(trx, accountId, row.email_key) : undefined;
      if (raced) {
        const out = alreadyImported(raced);
        await uploads.spend(trx, accountId, uploadId);
        await seal?.(trx, out);
        return { out, keep: false };
      }
      if (!(await uploads.spend(trx, accountId, uploadId))) {
        throw uploadInvalid('another request used it meanwhile');
      }
      const inserted = await candidateRepository.insert(trx, row);
      await enqueueFollowUp(trx, inserted);
      const out = createdAnswer(inserted);
      await seal?.(trx, out);
      return { out, keep: inserted.outcome === 'queued' };
    });
    if (!result.keep) await files.delete(uploadId);
    return result.out;
  }

  return {
    /**
     * One row of a bulk import, in the order docs/decisions.md gives: attestation, the daily
     * budget, the upload, then the outcome (see `decide`), settled in one transaction.
     */
    async import(
      accountId: string,
      input: CandidateWrite,
      seal?: Seal<CandidateCreated>,
    ): Promise<CandidateCreated> {
      if (input.lawfulBasis.attested !== true) throw attestationRequired();
      const now = clock.now();
      const account = await budget(db, accountId, now);
      const upload = await uploads.usable(accountId, input.cv.uploadId, 'api');
      const outcome = await decide(accountId, upload, input, account.livemode);
      const rows = candidateRows(accountId, input, now);
      switch (outcome.kind) {
        case 'suppressed':
          return settleWithoutFile(
            accountId,
            upload.id,
            rows.suppressed(),
            (r) => ({ candidateId: r!.id, status: 'suppressed', cvStatus: 'none' }),
            seal,
          );
        case 'already_imported':
          return settleWithoutFile(
            accountId,
            upload.id,
            null,
            () => alreadyImported(outcome.candidateId),
            seal,
          );
        case 'existing_account':
          return accept(accountId, upload.id, rows.existingAccount(), seal);
        case 'rejected':
          return accept(accountId, upload.id, rows.rejected(outcome.rejection), seal);
        case 'queued':
          return accept(accountId, upload.id, rows.queued(upload.id), seal);
      }
    },

    /** The person asked not to be held: future imports answer suppressed, held copies are erased. */
    async suppress(input: { email: string }): Promise<{ createdAt: string; erased: number }> {
      const key = emailKey(input.email);
      if (key === '') throw badRequest('email is required.', { field: 'email' });
      const now = clock.now();
      const blobs = await db.transaction().execute(async (trx) => {
        await candidateRepository.addSuppression(trx, key, now);
        await deps.matches?.eraseAddress(trx, key);
        // Every import of the address, in every account, through the one erasure routine.
        const blobs: string[] = [];
        for (const id of await candidateRepository.idsByAddress(trx, key)) {
          const erased = await deps.erasure.eraseIn(trx, 'candidate', id, { at: now, keepClaimedCv: false });
          blobs.push(...(erased?.files ?? []));
        }
        return blobs;
      });
      for (const blob of blobs) await files.delete(blob);
      return { createdAt: now.toISOString(), erased: blobs.length };
    },
  };
}

export type CandidateService = ReturnType<typeof createCandidateService>;
