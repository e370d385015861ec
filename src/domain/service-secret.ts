import type { Db } from '../db/connect.ts';
import { randomToken } from '../lib/ids.ts';

/** A secret shared by every instance through the database, created by whichever asks first. */
export async function serviceSecret(db: Db, name: string, now: Date): Promise<string> {
  await db
    .insertInto('service_secrets')
    .values({ name, value: randomToken(32), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('service_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
