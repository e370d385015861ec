import { isDeepStrictEqual } from 'node:util';
import type { JobEdit } from '../../contract/job.ts';
import { expiredNeedsPublish, managedAdLocked } from '../errors.ts';
import type { JobChanges, JobRow } from './job-repository.ts';
import { isManaged, type JobStatus } from './job-view.ts';
import { lockedChanges, mergeWords, type Words } from './job-words.ts';

/**
 * What an edit changes on a job's row (spec: PATCH /v1/jobs/{id}). On a draft the words change at
 * once. On a published, closed or expired ad they are staged (the live words stay) until promoted,
 * or promoted now with `publishEdits`; a managed ad refuses changes to its locked fields. expiresAt
 * and maxMatches always apply at once, except that an expired ad comes back only by publishing.
 */
export function planEdit(
  row: JobRow,
  status: JobStatus,
  sent: Words,
  input: JobEdit,
  expiresAt: Date | null | undefined,
  now: Date,
): JobChanges {
  const changes: JobChanges =
    status === 'draft' ? draftWords(row, sent) : stagedWords(row, status, sent, input, now);
  if (expiresAt !== undefined && expiresAt?.getTime() !== row.expires_at?.getTime()) {
    // expired → published only by POST publish (the publish conditions, back unmanaged).
    if (status === 'expired') throw expiredNeedsPublish();
    changes.expires_at = expiresAt;
  }
  if (input.maxMatches !== undefined && input.maxMatches !== row.max_matches)
    changes.max_matches = input.maxMatches;
  return changes;
}

function draftWords(row: JobRow, sent: Words): JobChanges {
  const live = row.content as Words;
  const words = mergeWords(live, sent);
  return isDeepStrictEqual(words, live) ? {} : { content: words };
}

function stagedWords(row: JobRow, status: JobStatus, sent: Words, input: JobEdit, now: Date): JobChanges {
  const changes: JobChanges = {};
  const live = row.content as Words;
  let staged: Words | null = mergeWords((row.staged as Words | null) ?? live, sent);
  if (isDeepStrictEqual(staged, live)) staged = null;
  const promote = input.publishEdits === true;
  if (isManaged(row, now)) {
    const fields = lockedChanges(live, sent, promote ? (staged ?? live) : null);
    if (fields.length > 0) throw managedAdLocked(fields);
  }
  if (promote && staged !== null) {
    changes.content = staged;
    changes.staged = null;
  } else if (!isDeepStrictEqual(staged, row.staged)) {
    changes.staged = staged;
  }
  // An expired ad's slot was freed when it expired; extending its expiry does not retake it.
  if (status === 'expired' && row.managed_since !== null) changes.managed_since = null;
  return changes;
}
