import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

export interface EventRow {
  seq: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  txid: string;
  created_at: Date;
}

/** A feed position: the writing transaction's id, then the event's sequence number within it. */
export interface FeedPosition {
  txid: string;
  seq: string;
}

export const eventRepository = {
  /**
   * Inserts the event and, in the same statement, one delivery per webhook of the account that
   * subscribes to its type. With a dedupe key already used, nothing is inserted (false).
   */
  async insert(
    db: Db,
    row: {
      id: string;
      accountId: string;
      type: string;
      data: object;
      dedupeKey: string | null;
      createdAt: Date;
    },
  ): Promise<boolean> {
    const result = await sql<{ id: string }>`
      WITH e AS (
        INSERT INTO events (id, account_id, type, data, dedupe_key, created_at)
        VALUES (${row.id}, ${row.accountId}, ${row.type}, ${JSON.stringify(row.data)}::jsonb,
                ${row.dedupeKey}, ${row.createdAt})
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id
      ), d AS (
        INSERT INTO webhook_deliveries
          (id, webhook_id, event_id, account_id, state, next_attempt_at, created_at, updated_at)
        SELECT 'dlv_' || substr(md5(w.id || ':' || e.id), 1, 26), w.id, e.id, ${row.accountId}, 'queued',
               ${row.createdAt}, ${row.createdAt}, ${row.createdAt}
        FROM e, webhooks w
        WHERE (w.types IS NULL OR ${row.type} = ANY (w.types))
          -- Each endpoint receives its mode's events only: a live one its account's, a test one
          -- its account's test twin's (extensions.md §8).
          AND ((w.mode = 'live' AND w.account_id = ${row.accountId})
            OR (w.mode = 'test' AND w.account_id =
                  (SELECT live_account_id FROM accounts WHERE id = ${row.accountId})))
        ON CONFLICT (webhook_id, event_id) DO NOTHING
      )
      SELECT id FROM e`.execute(db);
    return result.rows.length > 0;
  },

  /**
   * A page of the feed after `after`, oldest first. Only events of transactions that ended before
   * every transaction still running are read: no event can later appear before the page's end.
   */
  async page(
    db: Db,
    query: { accountId: string; types: readonly string[]; after: FeedPosition | null; limit: number },
  ): Promise<{ rows: EventRow[]; horizon: string }> {
    const after = query.after ?? { txid: '0', seq: '0' };
    const result = await sql<EventRow & { horizon: string }>`
      WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
      SELECT e.seq::text AS seq, e.id, e.type, e.data, e.txid::text AS txid, e.created_at,
             h.xmin::text AS horizon
      FROM h LEFT JOIN LATERAL (
        SELECT * FROM events
        WHERE account_id = ${query.accountId}
          AND type = ANY (${sql.val(query.types)}::text[])
          AND (txid, seq) > (${after.txid}::xid8, ${after.seq}::bigint)
          AND txid < h.xmin
        ORDER BY txid, seq
        LIMIT ${query.limit}
      ) e ON true`.execute(db);
    const horizon = result.rows[0]?.horizon ?? '0';
    return { rows: result.rows.filter((row) => row.id !== null), horizon };
  },

  /**
   * The transaction id below which every cursor in clear was handed out: fixed by the first call
   * (the next transaction id then), the same ever after.
   */
  async clearCursorCutoff(db: Db): Promise<bigint> {
    const result = await sql<{ cutoff: string }>`
      WITH fixed AS (
        INSERT INTO event_sweeps (name, position_at, position_id)
        VALUES ('events.clear-cursors', now(), pg_snapshot_xmax(pg_current_snapshot())::text)
        ON CONFLICT (name) DO NOTHING
        RETURNING position_id
      )
      SELECT position_id AS cutoff FROM fixed
      UNION ALL
      SELECT position_id FROM event_sweeps WHERE name = 'events.clear-cursors'`.execute(db);
    return BigInt(result.rows[0]!.cutoff);
  },

  async find(db: Db, accountId: string, id: string): Promise<EventRow | undefined> {
    const result = await sql<EventRow>`
      SELECT seq::text AS seq, id, type, data, txid::text AS txid, created_at
      FROM events WHERE account_id = ${accountId} AND id = ${id}`.execute(db);
    return result.rows[0];
  },

  async byId(db: Db, id: string): Promise<(EventRow & { account_id: string }) | undefined> {
    const result = await sql<EventRow & { account_id: string }>`
      SELECT seq::text AS seq, id, account_id, type, data, txid::text AS txid, created_at
      FROM events WHERE id = ${id}`.execute(db);
    return result.rows[0];
  },

  async deleteOlderThan(db: Db, before: Date, limit: number): Promise<number> {
    const result = await sql`
      DELETE FROM events WHERE seq IN (
        SELECT seq FROM events WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit}
      )`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  },

  async sweepPosition(db: Db, name: string): Promise<{ at: Date; id: string } | undefined> {
    const row = await db
      .selectFrom('event_sweeps')
      .select(['position_at', 'position_id'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row && { at: row.position_at, id: row.position_id };
  },

  /** Moves a sweep's position forward only: two sweeps racing never move it back. */
  async saveSweepPosition(db: Db, name: string, at: Date, id: string): Promise<void> {
    await sql`
      INSERT INTO event_sweeps (name, position_at, position_id) VALUES (${name}, ${at}, ${id})
      ON CONFLICT (name) DO UPDATE SET position_at = excluded.position_at, position_id = excluded.position_id
      WHERE (event_sweeps.position_at, event_sweeps.position_id) < (excluded.position_at, excluded.position_id)`.execute(
      db,
    );
  },
};
