import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { IdempotencyRecordsTable } from '../../db/schema.ts';

export type IdempotencyRow = Selectable<IdempotencyRecordsTable>;
export interface RecordKey {
  accountId: string;
  route: string;
  key: string;
}

export const idempotencyRepository = {
  async insertClaim(
    db: Db,
    k: RecordKey,
    requestHash: string,
    now: Date,
    lockedUntil: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    const row = await db
      .insertInto('idempotency_records')
      .values({
        account_id: k.accountId,
        route: k.route,
        key: k.key,
        request_hash: requestHash,
        locked_until: lockedUntil,
        status_code: null,
        response_body: null,
        created_at: now,
        expires_at: expiresAt,
      })
      .onConflict((oc) => oc.columns(['account_id', 'route', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  },

  async findForUpdate(db: Db, k: RecordKey): Promise<IdempotencyRow | undefined> {
    return db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .forUpdate()
      .executeTakeFirst();
  },

  /** Starts the record afresh: an expired record, or a claim whose holder died mid-request. */
  async reclaim(
    db: Db,
    k: RecordKey,
    requestHash: string,
    now: Date,
    lockedUntil: Date,
    expiresAt: Date,
  ): Promise<void> {
    await db
      .updateTable('idempotency_records')
      .set({
        request_hash: requestHash,
        locked_until: lockedUntil,
        status_code: null,
        response_body: null,
        created_at: now,
        expires_at: expiresAt,
      })
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .execute();
  },

  async complete(db: Db, k: RecordKey, statusCode: number, body: string): Promise<void> {
    await db
      .updateTable('idempotency_records')
      .set({ status_code: statusCode, response_body: body, locked_until: null })
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .execute();
  },

  async releaseUnfinished(db: Db, k: RecordKey): Promise<void> {
    await db
      .deleteFrom('idempotency_records')
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .where('status_code', 'is', null)
      .execute();
  },

  async deleteExpired(db: Db, now: Date): Promise<number> {
    const result = await db
      .deleteFrom('idempotency_records')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
