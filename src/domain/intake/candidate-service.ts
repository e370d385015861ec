import type { CandidateCreated, CandidateWrite } from '../../contract/intake.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import {
  attestationRequired,
  badRequest,
  conflict,
  dailyCapReached,
  notFound,
  uploadInvalid,
} from '../errors.ts';
import type { Seal } from '../seal.ts';
import { type CandidateRow, candidateRepository } from './candidate-repository.ts';
import { looksLikeCv } from './cv-likeness.ts';
import { emailKey, utcDay } from './day-window.ts';
import type { CvFileStore } from './ports.ts';
import type { UploadService } from './upload-service.ts';
import type { TaskQueue } from '../../tasks/queue.ts';

export function createCandidateService(deps: {
  db: Db;
  clock: Clock;
  uploads: UploadService;
  files: CvFileStore;
  queue: TaskQueue;
}) {
  const { db, clock, uploads, files, queue } = deps;

  async function budget(trx: Db, accountId: string, now: Date): Promise<void> {
    const account = await accountRepository.find(trx, accountId);
    if (!account) throw notFound('Account');
    const day = utcDay(now);
    if (
      (await candidateRepository.countSince(trx, accountId, day.start)) >= account.daily_candidate_imports
    ) {
      throw dailyCapReached('candidate imports', account.daily_candidate_imports, day);
    }
  }

  /** Records an outcome that keeps nothing of the file; the upload is spent and its file erased. */
  async function settleWithoutFile(
    accountId: string,
    uploadId: string,
    row: Parameters<typeof candidateRepository.insert>[1] | null,
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

  return {
    /**
     * One row of a bulk import. Order: attestation, the daily budget, the upload, then the
     * outcome: suppressed, already imported, an existing platform account, the CV checks, and a
     * file that passes them but does not read as a CV (rejected), else queued.
     */
    async import(
      accountId: string,
      input: CandidateWrite,
      seal?: Seal<CandidateCreated>,
    ): Promise<CandidateCreated> {
      if (input.lawfulBasis.attested !== true) throw attestationRequired();
      const now = clock.now();
      await budget(db, accountId, now);
      const upload = await uploads.usable(accountId, input.cv.uploadId);
      const key = emailKey(input.email);
      const locale = input.locale ?? 'en';
      const base = {
        id: newId('cand', now),
        account_id: accountId,
        locale,
        send_claim_email: input.sendClaimEmail ?? true,
        rejection: null,
        claimed_at: null,
        created_at: now,
        updated_at: now,
      };
      // Outcomes that hold nothing of the person: no address, no name, no file.
      const anonymous = {
        ...base,
        email_key: null,
        name: null,
        email: null,
        lawful_basis: null,
        cv_status: 'none' as const,
        blob_key: null,
      };

      if (await candidateRepository.isSuppressed(db, key)) {
        const row = { ...anonymous, outcome: 'suppressed' as const };
        return settleWithoutFile(
          accountId,
          upload.id,
          row,
          (r) => ({ candidateId: r!.id, status: 'suppressed', cvStatus: 'none' }),
          seal,
        );
      }
      const already = await candidateRepository.findByAddress(db, accountId, key);
      if (already) {
        return settleWithoutFile(
          accountId,
          upload.id,
          null,
          () => ({ candidateId: already.id, status: 'already_imported', cvStatus: 'none' }),
          seal,
        );
      }
      const personal = {
        email_key: key,
        name: input.name,
        email: input.email.trim(),
        lawful_basis: JSON.stringify(input.lawfulBasis),
      };
      if (await candidateRepository.findPerson(db, key)) {
        const row = {
          ...base,
          ...personal,
          outcome: 'existing_account' as const,
          cv_status: 'none' as const,
          blob_key: null,
        };
        return this.commit(accountId, upload.id, row, false, seal);
      }
      const verdict = await uploads.inspect(upload, locale);
      if (!looksLikeCv(verdict.text)) {
        const rejection = {
          reason: 'not_a_cv',
          detail:
            'The file is a readable PDF, but it does not read as a CV: no contact details, dates or CV sections were found.',
        };
        // A refused import keeps nothing personal, so the address can be imported again with a real CV.
        const row = { ...anonymous, outcome: 'rejected' as const, rejection: JSON.stringify(rejection) };
        return this.commit(accountId, upload.id, row, false, seal);
      }
      const row = {
        ...base,
        ...personal,
        outcome: 'queued' as const,
        cv_status: 'processing' as const,
        blob_key: upload.id,
      };
      return this.commit(accountId, upload.id, row, true, seal);
    },

    /** The accepting transaction: budget and address re-checked under the account's row lock. */
    async commit(
      accountId: string,
      uploadId: string,
      row: Parameters<typeof candidateRepository.insert>[1],
      keepFile: boolean,
      seal?: Seal<CandidateCreated>,
    ): Promise<CandidateCreated> {
      const result = await db.transaction().execute(async (trx) => {
        await accountRepository.findForUpdate(trx, accountId);
        const at = clock.now();
        await budget(trx, accountId, at);
        if (row.email_key) {
          const raced = await candidateRepository.findByAddress(trx, accountId, row.email_key);
          if (raced) {
            const out: CandidateCreated = {
              candidateId: raced.id,
              status: 'already_imported',
              cvStatus: 'none',
            };
            await uploads.spend(trx, accountId, uploadId);
            await seal?.(trx, out);
            return { out, keep: false };
          }
        }
        if (!(await uploads.spend(trx, accountId, uploadId))) {
          throw uploadInvalid('another request used it meanwhile');
        }
        const inserted = await candidateRepository.insert(trx, row);
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
        const rejection = row.rejection
          ? (JSON.parse(String(row.rejection)) as CandidateCreated['rejection'])
          : undefined;
        const out: CandidateCreated = {
          candidateId: inserted.id,
          status: inserted.outcome,
          cvStatus: inserted.cv_status === 'processing' ? 'processing' : 'none',
          ...(rejection ? { rejection } : {}),
        };
        await seal?.(trx, out);
        return { out, keep: keepFile };
      });
      if (!result.keep) await files.delete(uploadId);
      return result.out;
    },

    async addPerson(input: {
      email: string;
      name: string;
    }): Promise<{ id: string; email: string; name: string }> {
      const now = clock.now();
      const id = newId('per', now);
      const key = emailKey(input.email);
      if (
        !(await candidateRepository.insertPerson(db, {
          id,
          email_key: key,
          name: input.name,
          created_at: now,
        }))
      ) {
        throw conflict('A person with this email already holds an account.');
      }
      return { id, email: key, name: input.name };
    },

    /** The person asked not to be held: future imports answer suppressed, held copies are erased. */
    async suppress(input: { email: string }): Promise<{ createdAt: string; erased: number }> {
      const key = emailKey(input.email);
      if (key === '') throw badRequest('email is required.', { field: 'email' });
      const now = clock.now();
      const blobs = await db.transaction().execute(async (trx) => {
        await candidateRepository.addSuppression(trx, key, now);
        return candidateRepository.eraseByAddress(trx, key, now);
      });
      for (const blob of blobs) await files.delete(blob);
      return { createdAt: now.toISOString(), erased: blobs.length };
    },
  };
}

export type CandidateService = ReturnType<typeof createCandidateService>;
