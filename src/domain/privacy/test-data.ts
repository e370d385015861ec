import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { notFound } from '../errors.ts';
import type { CvFileStore } from '../ports.ts';
import type { Seal } from '../seal.ts';
import type { Erasure } from './erasure.ts';
import { type TestDataCounts, testDataRepository } from './test-data-repository.ts';

/**
 * "Delete all test data" (extensions.md §8): everything the account's test keys made goes, in one
 * transaction; the keys and the webhook endpoints (held by the live account) stay, and the live
 * data is not read or written. Each test person is first erased by the one erasure routine (their
 * matches, notes, mail copies and files, as any erasure), then every row of the test twin is
 * deleted, so erased test jobs' pages answer 404. The files go once the transaction has committed.
 */
const NONE: TestDataCounts = { jobs: 0, applications: 0, candidates: 0, uploads: 0, events: 0 };

export function createTestDataEraser(deps: { db: Db; clock: Clock; files: CvFileStore; erasure: Erasure }) {
  const { db, clock, files, erasure } = deps;
  return {
    /** How much test data the account holds (the console shows it apart). */
    async counts(liveAccountId: string): Promise<TestDataCounts> {
      const twin = await accountRepository.twinOf(db, liveAccountId);
      return twin ? testDataRepository.counts(db, twin.id) : NONE;
    },

    /** `seal` runs in the deletion's transaction (the console's audit entry commits with it). */
    async eraseAll(liveAccountId: string, seal?: Seal<TestDataCounts>): Promise<TestDataCounts> {
      const live = await accountRepository.find(db, liveAccountId);
      if (!live?.livemode) throw notFound('Account');
      const twin = await accountRepository.twinOf(db, liveAccountId);
      if (!twin) return NONE;
      const { counts, blobs } = await db.transaction().execute(async (trx) => {
        await accountRepository.lock(trx, twin.id);
        const at = clock.now();
        const blobs = new Set<string>();
        const subjects = await testDataRepository.subjects(trx, twin.id);
        for (const [kind, ids] of [
          ['application', subjects.applications],
          ['candidate', subjects.candidates],
        ] as const) {
          for (const id of ids) {
            const erased = await erasure.eraseIn(trx, kind, id, { at, keepClaimedCv: false });
            for (const key of erased?.files ?? []) blobs.add(key);
          }
        }
        for (const id of await testDataRepository.uploadIds(trx, twin.id)) blobs.add(id);
        const counts = await testDataRepository.deleteAll(trx, twin.id);
        await seal?.(trx, counts);
        return { counts, blobs };
      });
      for (const key of blobs) await files.delete(key);
      return counts;
    },
  };
}

export type TestDataEraser = ReturnType<typeof createTestDataEraser>;
