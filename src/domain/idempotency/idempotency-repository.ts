import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { IdempotencyRecordsTable } from '../../db/schema.ts';

export type IdempotencyRow = Selectable<IdempotencyRecordsTable>;
export interface RecordKey {
  accountId: string;
  route: string;
  key: string;
}

/** A claim this process holds: the record's key and its owner mark ("<instance> <token>"). */
export interface ClaimedRecord extends RecordKey {
  owner: string;
}

/** What a claim writes, whether the record is new or started afresh. */
export interface FreshClaim {
  requestHash: string;
  now: Date;
  lockedUntil: Date;
  expiresAt: Date;
  owner: string;
}

/** A claimed record's columns: held by `owner` until `lockedUntil`, no answer yet. */
function claimColumns(c: FreshClaim) {
  return {
    request_hash: c.requestHash,
    locked_until: c.lockedUntil,
    status_code: null,
    response_body: null,
    created_at: c.now,
    expires_at: c.expiresAt,
    owner: c.owner,
  };
}

export const idempotencyRepository = {
  async insertClaim(db: Db, k: RecordKey, claim: FreshClaim): Promise<boolean> {
    const row = await db
      .insertInto('idempotency_records')
      .values({ account_id: k.accountId, route: k.route, key: k.key, ...claimColumns(claim) })
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
  async reclaim(db: Db, k: RecordKey, claim: FreshClaim): Promise<void> {
    await db
      .updateTable('idempotency_records')
      .set(claimColumns(claim))
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .execute();
  },

  async complete(db: Db, k: RecordKey, statusCode: number, body: string): Promise<void> {
    await db
      .updateTable('idempotency_records')
      .set({ status_code: statusCode, response_body: body, locked_until: null, owner: null })
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .execute();
  },

  /** Deletes the unfinished claim `k.owner` holds (never another request's claim of the same key). */
  async releaseUnfinished(db: Db, k: ClaimedRecord): Promise<void> {
    await db
      .deleteFrom('idempotency_records')
      .where('account_id', '=', k.accountId)
      .where('route', '=', k.route)
      .where('key', '=', k.key)
      .where('status_code', 'is', null)
      .where('owner', '=', k.owner)
      .execute();
  },

  /** Whether the process named first in `owner` sent a heartbeat within `withinMs` (database time). */
  async ownerAlive(db: Db, owner: string, withinMs: number): Promise<boolean> {
    const instance = owner.split(' ')[0]!;
    const row = await db
      .selectFrom('service_instances')
      .select('id')
      .where('id', '=', instance)
      .where('seen_at', '>', sql<Date>`now() - make_interval(secs => ${withinMs / 1000})`)
      .executeTakeFirst();
    return row !== undefined;
  },

  async heartbeat(db: Db, instance: string): Promise<void> {
    await db
      .insertInto('service_instances')
      .values({ id: instance, seen_at: sql<Date>`now()` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: sql<Date>`now()` }))
      .execute();
  },

  async forgetInstance(db: Db, instance: string): Promise<void> {
    await db.deleteFrom('service_instances').where('id', '=', instance).execute();
  },

  async deleteSilentInstances(db: Db, olderThanMs: number): Promise<number> {
    const result = await db
      .deleteFrom('service_instances')
      .where('seen_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async deleteExpired(db: Db, now: Date): Promise<number> {
    const result = await db
      .deleteFrom('idempotency_records')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
