import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { type QueueBucket, taskRepository } from '../../tasks/task-repository.ts';
import { webhookRepository } from '../events/webhook-repository.ts';

/** The open work in the database, as /metrics reports it: read at scrape time, two grouped reads. */
export interface Backlog {
  tasks: { name: string; bucket: QueueBucket; count: number; dueSeconds: number }[];
  /** Dead tasks by name. */
  dead: { name: string; count: number }[];
  webhooks: { bucket: QueueBucket; count: number; oldestSeconds: number; dueSeconds: number }[];
}

/** One sweep of the minute's maintenance: when it last ran, for how long, what it removed. */
export interface SweepRecord {
  name: string;
  lastRunAt: number;
  lastDurationMs: number;
  lastRows: number;
  runs: number;
  rowsTotal: number;
  failures: number;
}

/**
 * What /metrics reads of the queues (the database, with bounded grouped queries over the open
 * rows only) and of the sweeps this process ran (in memory). No id, key or personal data.
 */
export function createOpsStatsService(deps: { db: Db; clock: Clock }) {
  const sweeps = new Map<string, SweepRecord>();
  const age = (now: Date, at: Date) => Math.max(0, (now.getTime() - at.getTime()) / 1000);
  return {
    async backlog(): Promise<Backlog> {
      const now = deps.clock.now();
      // One at a time: a scrape holds at most one pooled connection.
      const tasks = await taskRepository.backlog(deps.db, now);
      const dead = await taskRepository.deadByName(deps.db);
      const webhooks = await webhookRepository.backlog(deps.db, now);
      return {
        tasks: tasks.map((t) => ({
          name: t.name,
          bucket: t.bucket,
          count: t.n,
          dueSeconds: age(now, t.due),
        })),
        dead: dead.map((d) => ({ name: d.name, count: d.n })),
        webhooks: webhooks.map((w) => ({
          bucket: w.bucket,
          count: w.n,
          oldestSeconds: age(now, w.oldest),
          dueSeconds: age(now, w.due),
        })),
      };
    },
    /**
     * Runs one sweep and records it; a failure is recorded and thrown on. Durations are wall time
     * (performance.now()), not the services' clock, which tests move by hand.
     */
    async sweep(name: string, run: () => Promise<number> | number): Promise<number> {
      const record = sweeps.get(name) ?? {
        name,
        lastRunAt: 0,
        lastDurationMs: 0,
        lastRows: 0,
        runs: 0,
        rowsTotal: 0,
        failures: 0,
      };
      sweeps.set(name, record);
      const started = performance.now();
      try {
        const rows = await run();
        record.lastRows = rows;
        record.rowsTotal += rows;
        return rows;
      } catch (error) {
        record.failures += 1;
        throw error;
      } finally {
        record.runs += 1;
        record.lastRunAt = Date.now();
        record.lastDurationMs = performance.now() - started;
      }
    },
    sweeps(): SweepRecord[] {
      return [...sweeps.values()].map((record) => ({ ...record }));
    },
  };
}

export type OpsStatsService = ReturnType<typeof createOpsStatsService>;
