import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { TasksTable } from '../db/schema.ts';

export type TaskRow = Selectable<TasksTable>;
/** Where an open task stands: due and unclaimed, waiting for its retry, or in a worker's hands. */
export type QueueBucket = 'ready' | 'delayed' | 'running';

export const taskRepository = {
  /** Whether a task of `name` for this job waits to run (queued, not yet started). */
  async queuedForJob(db: Db, name: string, jobId: string): Promise<boolean> {
    const row = await db
      .selectFrom('tasks')
      .select('id')
      .where('name', '=', name)
      .where('state', '=', 'queued')
      .where(sql`payload ->> 'jobId'`, '=', jobId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Inserts a task unless one with the same key exists; true when this call created it. */
  async insert(
    db: Db,
    row: {
      id: string;
      name: string;
      key: string;
      payload: unknown;
      maxAttempts: number;
      runAfter: Date;
      now: Date;
    },
  ): Promise<boolean> {
    const created = await db
      .insertInto('tasks')
      .values({
        id: row.id,
        name: row.name,
        key: row.key,
        payload: JSON.stringify(row.payload),
        state: 'queued',
        max_attempts: row.maxAttempts,
        run_after: row.runAfter,
        locked_until: null,
        locked_by: null,
        last_error: null,
        created_at: row.now,
        updated_at: row.now,
        finished_at: null,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return created !== undefined;
  },

  /**
   * Claims up to `limit` tasks that are due, or running under a lease that ran out (their worker
   * died). SKIP LOCKED lets several workers claim side by side without taking the same task.
   */
  async claim(db: Db, workerId: string, now: Date, leaseMs: number, limit: number): Promise<TaskRow[]> {
    return db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('tasks')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', now)]),
            eb.and([eb('state', '=', 'running'), eb('locked_until', '<=', now)]),
          ]),
        )
        .orderBy('run_after')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      return trx
        .updateTable('tasks')
        .set({
          state: 'running',
          attempts: sql`attempts + 1`,
          locked_until: new Date(now.getTime() + leaseMs),
          locked_by: workerId,
          updated_at: now,
        })
        .where(
          'id',
          'in',
          due.map((row) => row.id),
        )
        .returningAll()
        .execute();
    });
  },

  /** Finishes a task this worker still holds; false when its lease was lost to another worker. */
  async complete(db: Db, id: string, workerId: string, now: Date): Promise<boolean> {
    const row = await db
      .updateTable('tasks')
      .set({ state: 'done', locked_until: null, finished_at: now, updated_at: now, last_error: null })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('locked_by', '=', workerId)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async fail(
    db: Db,
    id: string,
    workerId: string,
    now: Date,
    error: string,
    retryAt: Date | null,
  ): Promise<void> {
    await db
      .updateTable('tasks')
      .set({
        state: retryAt === null ? 'dead' : 'queued',
        run_after: retryAt ?? now,
        locked_until: null,
        last_error: error.slice(0, 2000),
        updated_at: now,
        finished_at: retryAt === null ? now : null,
      })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('locked_by', '=', workerId)
      .execute();
  },

  /**
   * Hands back tasks this worker holds but will not finish (it is stopping, or what the task needs
   * is busy): queued again, at once or at `runAfter`, the attempt not counted, so another worker
   * takes them without waiting for the lease.
   */
  async release(db: Db, ids: string[], workerId: string, now: Date, runAfter: Date = now): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await db
      .updateTable('tasks')
      .set({
        state: 'queued',
        run_after: runAfter,
        locked_until: null,
        locked_by: null,
        attempts: sql`greatest(attempts - 1, 0)`,
        updated_at: now,
      })
      .where('id', 'in', ids)
      .where('state', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  async list(db: Db, state: TaskRow['state'], limit: number): Promise<TaskRow[]> {
    return db
      .selectFrom('tasks')
      .selectAll()
      .where('state', '=', state)
      .orderBy('updated_at', 'desc')
      .limit(limit)
      .execute();
  },

  async retry(db: Db, id: string, now: Date): Promise<boolean> {
    const row = await db
      .updateTable('tasks')
      .set({ state: 'queued', run_after: now, attempts: 0, finished_at: null, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'dead')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async deleteFinished(db: Db, before: Date): Promise<number> {
    const result = await db
      .deleteFrom('tasks')
      .where('state', '=', 'done')
      .where('finished_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /**
   * The open queue by task name and bucket (ready: due and unclaimed, or its lease ran out;
   * delayed: waiting for its retry; running), with the earliest instant a bucket's tasks fell due.
   * One grouped read of the open tasks only (the tasks_ready partial index's predicate): finished
   * tasks, however many, are not read.
   */
  async backlog(db: Db, now: Date): Promise<{ name: string; bucket: QueueBucket; n: number; due: Date }[]> {
    const result = await sql<{ name: string; bucket: QueueBucket; n: number; due: Date }>`
      SELECT name,
             CASE WHEN state = 'running' AND locked_until > ${now} THEN 'running'
                  WHEN state = 'queued' AND run_after > ${now} THEN 'delayed'
                  ELSE 'ready' END AS bucket,
             count(*)::int AS n,
             min(CASE WHEN state = 'queued' THEN run_after ELSE locked_until END) AS due
      FROM tasks
      WHERE state IN ('queued', 'running')
      GROUP BY 1, 2`.execute(db);
    return result.rows.map((row) => ({ ...row, due: new Date(row.due) }));
  },

  /** Dead tasks by name: one grouped read of the tasks_dead partial index (migration 136). */
  async deadByName(db: Db): Promise<{ name: string; n: number }[]> {
    return db
      .selectFrom('tasks')
      .select(['name', sql<number>`count(*)::int`.as('n')])
      .where('state', '=', 'dead')
      .groupBy('name')
      .execute();
  },

  async counts(db: Db): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('tasks')
      .select(['state', sql<number>`count(*)::int`.as('n')])
      .groupBy('state')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.state, row.n]));
  },
};
