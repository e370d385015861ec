import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { type PageKind, pageViewRepository, type ViewCount } from './page-view-repository.ts';

/** How long views wait in memory before they are written (one upsert per job, day and page). */
export const PAGE_VIEW_FLUSH_MS = 5_000;
/** Distinct (job, day, page) keys held before a flush is started at once. */
const MAX_PENDING_KEYS = 1_000;

export interface PageViewCounter {
  /** Counts one view; never throws, never waits on the database. */
  record(jobId: string, kind: PageKind): void;
  /** Writes what is pending (the timer's job; also at close, and in tests). */
  flush(): Promise<void>;
  /** Where a failed write is reported (the app's log, set when the app is built). */
  logTo(log: (error: unknown) => void): void;
}

/**
 * Page views, counted per job, UTC day and page without anything about the visitor: the page
 * only adds one to a number in memory, and a timer writes the sums every few seconds in one
 * statement (docs/decisions.md, "Home, counts and the job form"). A busy ad thus costs one write
 * per instance and interval, not one row lock per visit; a failed write is logged and its counts
 * dropped (page views are a trend, not a ledger); a crash loses at most one interval.
 */
export function createPageViewCounter(deps: {
  db: Db;
  clock: Clock;
  log?: (error: unknown) => void;
  flushMs?: number;
}): PageViewCounter {
  const { db, clock } = deps;
  let log = deps.log ?? ((error: unknown) => console.error('page views not written', error));
  let pending = new Map<string, ViewCount>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    const counts = [...pending.values()];
    pending = new Map();
    // One flush after another: a count is never written twice, and flush() waits for the last.
    writing = writing.then(async () => {
      try {
        await pageViewRepository.add(db, counts);
      } catch (error) {
        log(error);
      }
    });
    return writing;
  }

  return {
    record(jobId, kind) {
      const day = clock.now().toISOString().slice(0, 10);
      const key = `${jobId}\u0000${day}\u0000${kind}`;
      const current = pending.get(key);
      if (current) current.count += 1;
      else pending.set(key, { jobId, day, kind, count: 1 });
      if (pending.size >= MAX_PENDING_KEYS) void flush();
      else if (timer === null) {
        timer = setTimeout(() => void flush(), deps.flushMs ?? PAGE_VIEW_FLUSH_MS);
        timer.unref();
      }
    },
    flush,
    logTo(next) {
      log = next;
    },
  };
}
