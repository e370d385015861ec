import {
  EVENT_TYPE_NAMES,
  type EventInput,
  type EventType,
  isEventType,
  scopeOfEventType,
} from '../../contract/events.ts';
import type { Scope } from '../../contract/vocabulary.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { type CursorSealer, cursorSealer, decodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import { badRequest } from '../errors.ts';
import { type EventRow, eventRepository, type FeedPosition } from './event-repository.ts';

/** Events are kept at least 30 days (extensions.md §3); one more day covers a late sweep. */
export const EVENTS_KEPT_MS = 31 * 86_400_000;
const EXPIRY_SWEEP = 'job.expired';
/** On its first run, the expiry sweep reports expiries of the last day, not every one ever. */
const FIRST_EXPIRY_LOOKBACK_MS = 86_400_000;
const SWEEP_BATCH = 200;

export interface FeedEvent {
  id: string;
  type: EventType;
  createdAt: string;
  /** False for an event of test data (extensions.md §8): the mode of the account it happened in. */
  livemode: boolean;
  data: Record<string, unknown>;
}

/** What the other areas need of the event log: record an event in their own transaction. */
export interface EventRecorder {
  record(trx: Db, accountId: string, event: EventInput, options?: { dedupeKey?: string }): Promise<boolean>;
}

export function toFeedEvent(
  row: Pick<EventRow, 'id' | 'type' | 'data' | 'created_at'>,
  livemode: boolean,
): FeedEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    createdAt: row.created_at.toISOString(),
    livemode,
    data: row.data,
  };
}

const START: FeedPosition = { txid: '0', seq: '0' };
const notACursor = () => badRequest('after is not a cursor this API handed out.', { field: 'after' });

/** A feed position as 16 bytes (transaction id, then sequence number), sealed for its account. */
function sealPosition(sealer: CursorSealer, accountId: string, p: FeedPosition): string {
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64BE(BigInt(p.txid), 0);
  bytes.writeBigUInt64BE(BigInt(p.seq), 8);
  return sealer.seal(accountId, bytes);
}

function openPosition(sealer: CursorSealer, accountId: string, cursor: string): FeedPosition | null {
  const bytes = sealer.open(accountId, cursor);
  if (bytes?.length !== 16) return null;
  return { txid: bytes.readBigUInt64BE(0).toString(), seq: bytes.readBigUInt64BE(8).toString() };
}

/** A cursor of the first release, the position in clear (`v1:txid.seq`), or null. */
function clearPosition(cursor: string): FeedPosition | null {
  const text = decodeCursor(cursor);
  const match = text === null ? null : /^(\d{1,20})\.(\d{1,19})$/.exec(text);
  return match ? { txid: match[1]!, seq: match[2]! } : null;
}

/**
 * Published jobs whose expiry passed after `after` (expires_at, id) and by `now`, in that order:
 * the jobs area's read (jobRepository.listExpiredAfter), given by the composition root so that the
 * event log does not import the area that records events through it.
 */
export type ExpiredJobs = (
  db: Db,
  after: { at: Date; id: string },
  now: Date,
  limit: number,
) => Promise<{ id: string; account_id: string; expires_at: Date }[]>;

/**
 * The event log. `cursorKey` is the server secret the feed's cursors are sealed under (derived for
 * that purpose alone): a cursor tells its holder nothing of the platform's other writes.
 */
export function createEventLog(deps: { db: Db; clock: Clock; cursorKey: string; expiredJobs: ExpiredJobs }) {
  const { db, clock, expiredJobs } = deps;
  const sealer = cursorSealer(deps.cursorKey, 'events feed');
  let clearCutoff: Promise<bigint> | null = null;

  /**
   * Where `after` points. A cursor in clear is one the first release handed out: it is taken only
   * below the cut-off fixed at this release's first read, so a made-up one cannot probe where
   * later transactions stand.
   */
  async function positionAfter(accountId: string, after: string | undefined): Promise<FeedPosition> {
    if (after === undefined) return START;
    const sealed = openPosition(sealer, accountId, after);
    if (sealed) return sealed;
    const clear = clearPosition(after);
    if (!clear || BigInt(clear.txid) >= (await cutoff())) throw notACursor();
    return clear;
  }

  function cutoff(): Promise<bigint> {
    clearCutoff ??= eventRepository.clearCursorCutoff(db).catch((error) => {
      clearCutoff = null;
      throw error;
    });
    return clearCutoff;
  }

  return {
    /**
     * Records an event in the caller's transaction, with one delivery per subscribed webhook: the
     * event exists exactly when the change it reports commits. A used dedupe key records nothing.
     */
    async record(
      trx: Db,
      accountId: string,
      event: EventInput,
      options: { dedupeKey?: string } = {},
    ): Promise<boolean> {
      const now = clock.now();
      return eventRepository.insert(trx, {
        id: newId('evt', now),
        accountId,
        type: event.type,
        data: event.data,
        dedupeKey: options.dedupeKey ?? null,
        createdAt: now,
      });
    },

    /** The feed: the events of the types the key's scopes cover, oldest first. */
    async feed(
      accountId: string,
      scopes: ReadonlySet<Scope>,
      query: { after?: string; types?: string; limit?: number },
      /** The key's mode: the mode of every event of `accountId`. */
      livemode: boolean,
    ): Promise<{ events: FeedEvent[]; nextCursor: string }> {
      let types = EVENT_TYPE_NAMES;
      if (query.types !== undefined) {
        const asked = new Set<EventType>();
        for (const part of query.types.split(',')) {
          const type = part.trim();
          if (!isEventType(type)) {
            throw badRequest(
              `types must be a comma-separated list of ${EVENT_TYPE_NAMES.join(', ')}; "${type}" is not one.`,
              {
                field: 'types',
              },
            );
          }
          asked.add(type);
        }
        types = [...asked];
      }
      const visible = types.filter((type) => scopes.has(scopeOfEventType(type)));
      await cutoff();
      const after = await positionAfter(accountId, query.after);
      const limit = query.limit ?? 50;
      const cursor = (p: FeedPosition) => sealPosition(sealer, accountId, p);
      if (visible.length === 0) return { events: [], nextCursor: cursor(after) };
      const { rows, horizon } = await eventRepository.page(db, { accountId, types: visible, after, limit });
      let next: FeedPosition = after;
      if (rows.length > 0) next = { txid: rows.at(-1)!.txid, seq: rows.at(-1)!.seq };
      // A short page read everything before the horizon: the next poll starts there.
      if (rows.length < limit && BigInt(horizon) > BigInt(next.txid)) next = { txid: horizon, seq: '0' };
      return { events: rows.map((row) => toFeedEvent(row, livemode)), nextCursor: cursor(next) };
    },

    /**
     * `job.expired` once per job and expiry instant, for published jobs whose `expiresAt` passed
     * since the last sweep. Writes nothing to the job: its `updatedAt` does not move.
     */
    async sweepExpiredJobs(): Promise<number> {
      const now = clock.now();
      const saved = await eventRepository.sweepPosition(db, EXPIRY_SWEEP);
      const from = saved ?? { at: new Date(now.getTime() - FIRST_EXPIRY_LOOKBACK_MS), id: '' };
      let emitted = 0;
      let position = from;
      for (;;) {
        const due = await expiredJobs(db, position, now, SWEEP_BATCH);
        if (due.length === 0) break;
        // A transaction may run again (src/db/retry.ts): count what the run that committed recorded.
        emitted += await db.transaction().execute(async (trx) => {
          let recordedNow = 0;
          for (const job of due) {
            const recorded = await this.record(
              trx,
              job.account_id,
              { type: 'job.expired', data: { jobId: job.id, status: 'expired' } },
              { dedupeKey: `job.expired:${job.id}:${job.expires_at.toISOString()}` },
            );
            if (recorded) recordedNow++;
          }
          const last = due.at(-1)!;
          position = { at: last.expires_at, id: last.id };
          await eventRepository.saveSweepPosition(trx, EXPIRY_SWEEP, position.at, position.id);
          return recordedNow;
        });
        if (due.length < SWEEP_BATCH) break;
      }
      if (!saved && position === from)
        await eventRepository.saveSweepPosition(db, EXPIRY_SWEEP, from.at, from.id);
      return emitted;
    },

    /** Retention: events older than EVENTS_KEPT_MS go, in batches. */
    async sweepOld(): Promise<number> {
      const before = new Date(clock.now().getTime() - EVENTS_KEPT_MS);
      let total = 0;
      for (let round = 0; round < 50; round++) {
        const n = await eventRepository.deleteOlderThan(db, before, 1000);
        total += n;
        if (n < 1000) break;
      }
      return total;
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
