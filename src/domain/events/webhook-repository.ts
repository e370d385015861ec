import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.ts';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** A claimed delivery with what sending it needs: the endpoint and the event (null once swept). */
export interface DueDelivery extends DeliveryRow {
  url: string;
  secret: string;
  event_type: string | null;
  mode: 'live' | 'test';
  event_data: Record<string, unknown> | null;
  event_created_at: Date | null;
}

export const webhookRepository = {
  async insert(db: Db, row: WebhookRow): Promise<WebhookRow> {
    return db.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async list(db: Db, accountId: string): Promise<WebhookRow[]> {
    return db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  },

  async find(db: Db, accountId: string, id: string): Promise<WebhookRow | undefined> {
    return db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async countForAccount(db: Db, accountId: string): Promise<number> {
    const row = await db
      .selectFrom('webhooks')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** Deletes the endpoint with its deliveries and their log. */
  async delete(db: Db, accountId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('webhooks')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** The delivery log of one endpoint, newest first. */
  async attempts(db: Db, webhookId: string, limit: number): Promise<AttemptRow[]> {
    return db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async attempt(db: Db, webhookId: string, attemptId: string): Promise<AttemptRow | undefined> {
    return db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('id', '=', attemptId)
      .executeTakeFirst();
  },

  /** Queues a delivery again, due now, with a fresh attempt budget; false if it is running now. */
  async retryDelivery(db: Db, deliveryId: string, now: Date): Promise<boolean> {
    const row = await db
      .updateTable('webhook_deliveries')
      .set({ state: 'queued', attempts: 0, next_attempt_at: now, locked_until: null, updated_at: now })
      .where('id', '=', deliveryId)
      .where((eb) => eb.or([eb('state', '!=', 'running'), eb('locked_until', '<=', now)]))
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Claims due deliveries, at most `perEndpoint` running at once per endpoint and `limit` in all,
   * each endpoint's oldest first and the endpoints in turn: one endpoint's backlog or slowness
   * never takes another's turn. A lease that ran out (its worker died) makes a delivery due again.
   */
  async claim(
    db: Db,
    options: { now: Date; leaseMs: number; perEndpoint: number; limit: number; exclude: readonly string[] },
  ): Promise<DueDelivery[]> {
    const { now, perEndpoint, limit } = options;
    const until = new Date(now.getTime() + options.leaseMs);
    const exclude = options.exclude.length > 0 ? options.exclude : [''];
    const result = await sql<DueDelivery>`
      WITH busy AS (
        SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries
        WHERE state = 'running' AND locked_until > ${now}
        GROUP BY webhook_id
      ), picked AS (
        SELECT d.id, d.event_id, d.turn FROM webhooks w
        LEFT JOIN busy b ON b.webhook_id = w.id
        CROSS JOIN LATERAL (
          SELECT id, event_id, row_number() OVER (ORDER BY next_attempt_at, id) AS turn
          FROM webhook_deliveries
          WHERE webhook_id = w.id
            AND ((state = 'queued' AND next_attempt_at <= ${now})
              OR (state = 'running' AND locked_until <= ${now}))
          ORDER BY next_attempt_at, id
          LIMIT greatest(0, ${perEndpoint} - coalesce(b.n, 0))
        ) d
        WHERE w.id <> ALL (${sql.val(exclude)}::text[])
        ORDER BY d.turn, d.id
        LIMIT ${limit}
      )
      UPDATE webhook_deliveries AS d
      SET state = 'running', attempts = d.attempts + 1, locked_until = ${until}, updated_at = ${now}
      FROM (picked p LEFT JOIN events e ON e.id = p.event_id), webhooks w
      WHERE d.id = p.id AND w.id = d.webhook_id
        AND ((d.state = 'queued' AND d.next_attempt_at <= ${now})
          OR (d.state = 'running' AND d.locked_until <= ${now}))
      RETURNING d.*, w.url, w.secret, w.mode, e.type AS event_type, e.data AS event_data,
                e.created_at AS event_created_at`.execute(db);
    return result.rows;
  },

  /** Records one attempt and moves the delivery on (done, failed, or queued for its next try). */
  async settle(
    db: Db,
    delivery: DeliveryRow,
    attempt: Omit<AttemptRow, 'delivery_id' | 'webhook_id' | 'event_id' | 'attempt'>,
    next: { state: 'succeeded' | 'failed' } | { state: 'queued'; at: Date },
  ): Promise<void> {
    // One statement: the attempt is logged only if this worker still held the delivery.
    await sql`
      WITH moved AS (
        UPDATE webhook_deliveries
        SET state = ${next.state},
            next_attempt_at = ${next.state === 'queued' ? next.at : delivery.next_attempt_at},
            locked_until = NULL, updated_at = ${attempt.at}
        WHERE id = ${delivery.id} AND state = 'running' AND attempts = ${delivery.attempts}
        RETURNING id
      )
      INSERT INTO webhook_attempts (id, delivery_id, webhook_id, event_id, attempt, status_code, error, at)
      SELECT ${attempt.id}, ${delivery.id}, ${delivery.webhook_id}, ${delivery.event_id}, ${delivery.attempts},
             ${attempt.status_code}, ${attempt.error}, ${attempt.at}
      FROM moved`.execute(db);
  },

  /**
   * The pending deliveries by bucket (ready: due and unclaimed or its lease ran out; delayed:
   * waiting for its retry; running), the oldest one's creation and the earliest due instant. One
   * grouped read of the pending deliveries only (the webhook_deliveries_due partial index's
   * predicate): delivered and failed ones are not read.
   */
  async backlog(
    db: Db,
    now: Date,
  ): Promise<{ bucket: 'ready' | 'delayed' | 'running'; n: number; oldest: Date; due: Date }[]> {
    const result = await sql<{ bucket: 'ready' | 'delayed' | 'running'; n: number; oldest: Date; due: Date }>`
      SELECT CASE WHEN state = 'running' AND locked_until > ${now} THEN 'running'
                  WHEN state = 'queued' AND next_attempt_at > ${now} THEN 'delayed'
                  ELSE 'ready' END AS bucket,
             count(*)::int AS n,
             min(created_at) AS oldest,
             min(CASE WHEN state = 'queued' THEN next_attempt_at ELSE locked_until END) AS due
      FROM webhook_deliveries
      WHERE state IN ('queued', 'running')
      GROUP BY 1`.execute(db);
    return result.rows.map((row) => ({ ...row, oldest: new Date(row.oldest), due: new Date(row.due) }));
  },

  async deleteFinished(db: Db, before: Date): Promise<number> {
    const result = await db
      .deleteFrom('webhook_deliveries')
      .where('state', 'in', ['succeeded', 'failed'])
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
