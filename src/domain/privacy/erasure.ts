import type { Db } from '../../db/connect.ts';
import type { EventRecorder } from '../events/event-log.ts';
import { type ErasableKind, type ErasableRow, erasureRepository } from './erasure-repository.ts';

/**
 * The one erasure routine (issue 30, extensions.md §6). Every path that erases a person's data runs
 * it: the retention sweep, an erasure request, the candidate's delete through the claim link, the
 * staged CV's expiry and a suppression. So "erased" means the same everywhere: the personal fields,
 * the upload's name and address, the virtual CV and the file (unless the candidate claimed it and
 * keeps it), matches, notes, screening messages and mail copies; ids, statuses, dates and the
 * consent text's id and version stay, and `erased_at` says when.
 */

export interface ErasurePorts {
  events: EventRecorder;
  /** Matching forgets the subject's profile and matches. */
  matches?: { erase(trx: Db, kind: ErasableKind, id: string): Promise<void> };
  /** Other rooms' rows about the subject (the pipeline's notes, …), erased in the same transaction. */
  also?: ((trx: Db, kind: ErasableKind, id: string) => Promise<void>)[];
}

export interface Erased {
  kind: ErasableKind;
  id: string;
  accountId: string;
  /** Object-store keys to delete once the transaction has committed. */
  files: string[];
  matches: number;
  screenings: number;
  /** The CV status moved to deleted (a claimed CV the candidate keeps does not). */
  cvDeleted: boolean;
}

export interface EraseOptions {
  at: Date;
  /** Erase only from one of these CV statuses (a racing claim then erases nothing). */
  from?: readonly string[];
  /**
   * A CV the candidate claimed is theirs: the account's erasure (retention, a request) leaves its
   * file and virtual CV to them. The candidate's own delete erases it too.
   */
  keepClaimedCv: boolean;
}

const NO_CV = ['failed', 'deleted'];

export function createErasure(ports: ErasurePorts) {
  async function announce(trx: Db, row: ErasableRow, cvDeleted: boolean): Promise<void> {
    if (row.kind === 'candidate') {
      const status = row.status as 'queued' | 'existing_account' | 'suppressed' | 'rejected';
      if (cvDeleted) {
        await ports.events.record(trx, row.accountId, {
          type: 'candidate.cv_status_changed',
          data: { candidateId: row.id, status, cvStatus: 'deleted' },
        });
      }
      await ports.events.record(trx, row.accountId, {
        type: 'candidate.erased',
        data: { candidateId: row.id },
      });
      return;
    }
    const jobId = row.jobId ?? '';
    if (cvDeleted) {
      await ports.events.record(trx, row.accountId, {
        type: 'application.cv_status_changed',
        data: {
          applicationId: row.id,
          jobId,
          status: row.status as 'received' | 'withdrawn',
          cvStatus: 'deleted',
        },
      });
    }
    await ports.events.record(trx, row.accountId, {
      type: 'application.erased',
      data: { applicationId: row.id, jobId },
    });
  }

  return {
    /**
     * Erases one application or import in the caller's transaction; null when there is nothing to
     * erase (unknown, already erased, or its CV no longer in `from`). Delete `files` after commit.
     */
    async eraseIn(trx: Db, kind: ErasableKind, id: string, options: EraseOptions): Promise<Erased | null> {
      const row = await erasureRepository.lock(trx, kind, id);
      if (!row || row.erasedAt) return null;
      if (options.from && !options.from.includes(row.cvStatus)) return null;
      const keepCv = options.keepClaimedCv && row.cvStatus === 'claimed';
      const cvDeleted = !keepCv && !NO_CV.includes(row.cvStatus);
      const matches = await erasureRepository.countMatches(trx, row);
      await ports.matches?.erase(trx, kind, id);
      for (const erase of ports.also ?? []) await erase(trx, kind, id);
      const screenings = await erasureRepository.eraseScreeningMessages(trx, row);
      // The files of the application's file answers (§5) are the account's copies: they always go.
      const answerFiles = kind === 'application' ? await erasureRepository.answerFiles(trx, id) : [];
      await erasureRepository.erasePersonal(trx, row, { keepCv, cvDeleted }, options.at);
      await erasureRepository.deleteUploads(trx, answerFiles);
      await announce(trx, row, cvDeleted);
      return {
        kind,
        id,
        accountId: row.accountId,
        files: [...(!keepCv && row.blobKey ? [row.blobKey] : []), ...answerFiles],
        matches,
        screenings,
        cvDeleted,
      };
    },
  };
}

export type Erasure = ReturnType<typeof createErasure>;
