import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { type TaskRow, taskRepository } from '../../tasks/task-repository.ts';
import { notFound } from '../errors.ts';

export interface TaskView {
  id: string;
  name: string;
  key: string;
  state: TaskRow['state'];
  attempts: number;
  maxAttempts: number;
  runAfter: string;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

function view(row: TaskRow): TaskView {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after.toISOString(),
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * What operators see of the queue (console): counts by state, the dead letters, and a way to retry
 * one. The queue itself (src/tasks) knows nothing of the console or of HTTP answers.
 */
export function createTaskAdminService(deps: { db: Db; clock: Clock }) {
  return {
    async list(state: TaskRow['state']): Promise<{ counts: Record<string, number>; tasks: TaskView[] }> {
      return {
        counts: await taskRepository.counts(deps.db),
        tasks: (await taskRepository.list(deps.db, state, 200)).map(view),
      };
    },
    async retry(id: string): Promise<void> {
      if (!(await taskRepository.retry(deps.db, id, deps.clock.now()))) throw notFound('Dead task');
    },
  };
}

export type TaskAdminService = ReturnType<typeof createTaskAdminService>;
