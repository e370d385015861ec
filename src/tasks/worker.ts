import { hostname } from 'node:os';
import type { Db } from '../db/connect.ts';
import type { Clock } from '../lib/clock.ts';
import { randomToken } from '../lib/ids.ts';
import { scrubPersonalData } from '../lib/scrub.ts';
import type { TaskName, TaskPayloads } from './queue.ts';
import { type TaskRow, taskRepository } from './task-repository.ts';

export type TaskHandler<N extends TaskName> = (payload: TaskPayloads[N], task: TaskRow) => Promise<void>;
export type TaskHandlers = { [N in TaskName]: TaskHandler<N> };

export interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  handlers: TaskHandlers;
  log: WorkerLog;
  concurrency?: number;
  pollMs?: number;
  /** A task not finished within its lease is taken to have died with its worker and runs again. */
  leaseMs?: number;
}

/**
 * An error that says "busy, try later" (the CV checker's queue is full): the task is queued again
 * after `retryAfterSeconds` (within 1–30 s) and the attempt is not counted, so a burst never
 * dead-letters work that only had to wait. Infrastructure marks such errors with `busy: true`.
 */
export function busyDelayMs(error: unknown): number | null {
  if (typeof error !== 'object' || error === null || (error as { busy?: unknown }).busy !== true) return null;
  const seconds = Number((error as { retryAfterSeconds?: unknown }).retryAfterSeconds);
  return Math.round(Math.min(30, Math.max(1, Number.isFinite(seconds) ? seconds : 1)) * 1000);
}

/** Exponential backoff with jitter: 5 s, 10 s, 20 s … capped at one hour. */
export function backoffMs(attempt: number): number {
  const base = Math.min(3_600_000, 5_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** What one task attempt came to, for the worker's counters (/metrics). */
export type TaskOutcome = 'completed' | 'failed' | 'dead' | 'deferred';

/** The task worker's state for the probes and counters for /metrics: read at scrape time. */
export interface WorkerStats {
  /** Started and not stopping: the poll loop runs. */
  running: boolean;
  /** When the last poll began (epoch ms); null before the first. */
  lastPollAt: number | null;
  /** Whether that poll is still running (it waits for the tasks it claimed). */
  polling: boolean;
  inHand: number;
  concurrency: number;
  pollMs: number;
  /** Attempts since start, by task name and outcome. */
  outcomes: Record<string, Record<TaskOutcome, number>>;
}

export function createWorker(options: WorkerOptions) {
  const { db, clock, handlers, log } = options;
  const concurrency = options.concurrency ?? 2;
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? 120_000;
  const workerId = `${hostname()}:${process.pid}:${randomToken(6)}`;
  const running = new Set<Promise<void>>();
  /** The tasks in hand, by id, for a release on shutdown. */
  const inHand = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  /** The poll loop runs between start() and stop() (drain() runs without it). */
  let started = false;
  let lastPollAt: number | null = null;
  let polling = false;
  const outcomes: WorkerStats['outcomes'] = {};
  const count = (name: string, outcome: TaskOutcome) => {
    outcomes[name] ??= { completed: 0, failed: 0, dead: 0, deferred: 0 };
    outcomes[name][outcome] += 1;
  };

  async function run(task: TaskRow): Promise<void> {
    const handler = handlers[task.name as TaskName] as TaskHandler<TaskName> | undefined;
    try {
      if (!handler) throw new Error(`no handler for task "${task.name}"`);
      await handler(task.payload as never, task);
      count(task.name, 'completed');
      if (!(await taskRepository.complete(db, task.id, workerId, clock.now()))) {
        log.warn({ taskId: task.id, task: task.name }, 'task lease lost before completion');
      }
    } catch (error) {
      const busy = busyDelayMs(error);
      if (busy !== null) {
        count(task.name, 'deferred');
        return defer(task, busy);
      }
      // Kept as the task's last error and shown in the console: no recipient's address in it.
      const message = scrubPersonalData(error instanceof Error ? error.message : String(error));
      const last = task.attempts >= task.max_attempts;
      count(task.name, last ? 'dead' : 'failed');
      const now = clock.now();
      await taskRepository
        .fail(
          db,
          task.id,
          workerId,
          now,
          message,
          last ? null : new Date(now.getTime() + backoffMs(task.attempts)),
        )
        .catch((err: unknown) => log.error({ err, taskId: task.id }, 'could not record task failure'));
      // Called on the logger, not detached from it: pino's methods need their `this`.
      log[last ? 'error' : 'warn'](
        { taskId: task.id, task: task.name, attempt: task.attempts, err: message },
        last ? 'task dead-lettered' : 'task failed; will retry',
      );
    }
  }

  /** Queues a task again after `delayMs`, its attempt not counted: what it needed was busy. */
  async function defer(task: TaskRow, delayMs: number): Promise<void> {
    const now = clock.now();
    await taskRepository
      .release(db, [task.id], workerId, now, new Date(now.getTime() + delayMs))
      .catch((err: unknown) => log.error({ err, taskId: task.id }, 'could not defer busy task'));
    log.info({ taskId: task.id, task: task.name, delayMs }, 'task deferred: busy, not counted as an attempt');
  }

  /** Claims what is due and runs it; resolves when those tasks are done. Returns how many ran. */
  async function tick(): Promise<number> {
    const free = concurrency - running.size;
    if (free <= 0 || stopping) return 0;
    const tasks = await taskRepository.claim(db, workerId, clock.now(), leaseMs, free);
    const batch = tasks.map((task) => {
      const p = run(task).finally(() => {
        running.delete(p);
        inHand.delete(task.id);
      });
      running.add(p);
      inHand.set(task.id, p);
      return p;
    });
    await Promise.all(batch);
    return tasks.length;
  }

  function schedule(delay: number): void {
    if (stopping) return;
    timer = setTimeout(async () => {
      let ran = 0;
      lastPollAt = Date.now();
      polling = true;
      try {
        ran = await tick();
      } catch (err) {
        log.error({ err }, 'task poll failed');
      } finally {
        polling = false;
      }
      schedule(ran > 0 ? 0 : pollMs);
    }, delay);
  }

  return {
    id: workerId,
    start(): void {
      stopping = false;
      started = true;
      schedule(0);
    },
    stats(): WorkerStats {
      return {
        running: started && !stopping,
        lastPollAt,
        polling,
        inHand: inHand.size,
        concurrency,
        pollMs,
        outcomes: structuredClone(outcomes),
      };
    },
    /** Runs due tasks until none is left (tests and one-off runs). */
    async drain(maxRounds = 100): Promise<number> {
      let total = 0;
      for (let i = 0; i < maxRounds; i++) {
        const ran = await tick();
        total += ran;
        if (ran === 0 && running.size === 0) break;
      }
      return total;
    },
    /**
     * Stops claiming, then waits for the tasks in hand to finish; with `budgetMs`, those still
     * running after it are released (queued again, attempt not counted) for another worker.
     * Answers how many were released.
     */
    async stop(budgetMs?: number): Promise<number> {
      stopping = true;
      if (timer) clearTimeout(timer);
      if (budgetMs === undefined) {
        await Promise.allSettled([...running]);
        return 0;
      }
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((resolve) => {
          wait = setTimeout(resolve, Math.max(0, budgetMs));
        }),
      ]);
      clearTimeout(wait);
      const left = [...inHand.keys()];
      if (left.length === 0) return 0;
      const released = await taskRepository.release(db, left, workerId, clock.now());
      log.warn({ released, tasks: left.length }, 'stopping: tasks not finished in time were released');
      return released;
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
