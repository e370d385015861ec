import type { Db } from '../db/connect.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { taskRepository } from './task-repository.ts';

/** The tasks the service knows, by name, with their payloads. */
export interface TaskPayloads {
  'build-cv': { kind: 'application' | 'candidate'; id: string };
  'send-claim-mail': { kind: 'application' | 'candidate'; id: string };
  'send-account-notice': { candidateId: string };
  'send-screening-invite': { screeningId: string };
  'stand-on-account-cv': { applicationId: string };
  /** Generate a managed role's matches (issue 19); keyed by the role's state, so a change runs it again. */
  'generate-matches': { accountId: string; jobId: string };
  /**
   * New profiles arrived in an account's pool (null: the platform's, in every account's pool): look
   * again at the managed roles (batched).
   */
  'refresh-matches': { accountId: string | null };
  /** Build a platform person's virtual CV from their upload (issue 19). */
  'build-person-cv': { personId: string };
}
export type TaskName = keyof TaskPayloads;

export interface TaskOptions {
  /** One task per key, ever: enqueueing it again does nothing. Defaults to name + payload. */
  key?: string;
  maxAttempts?: number;
  runAfter?: Date;
}

export const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * Enqueues with the caller's transaction, so a task exists exactly when the write that causes it
 * commits.
 */
export function createTaskQueue(deps: { clock: Clock }) {
  return {
    /** Whether a task of `name` for this job is queued and not yet started (it will read what is current). */
    waitingForJob(trx: Db, name: TaskName, jobId: string): Promise<boolean> {
      return taskRepository.queuedForJob(trx, name, jobId);
    },

    async enqueue<N extends TaskName>(
      trx: Db,
      name: N,
      payload: TaskPayloads[N],
      options: TaskOptions = {},
    ): Promise<boolean> {
      const now = deps.clock.now();
      return taskRepository.insert(trx, {
        id: newId('tsk', now),
        name,
        key: options.key ?? `${name}:${JSON.stringify(payload)}`,
        payload,
        maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        runAfter: options.runAfter ?? now,
        now,
      });
    },
  };
}

export type TaskQueue = ReturnType<typeof createTaskQueue>;
