// Issue 14, the job list's p99 on PostgreSQL: with pg's promise form every query result outlived two
// young-generation collections and was promoted (~14 MB a scavenge, ~8 ms pauses). The service sends
// statements through pg's callback form; this holds it there, on the real server, in a process
// traced by V8 (bench/pg-survival.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { measure, scratchDatabase } from '../bench/pg-survival.ts';
import { testConfig } from './support/app.ts';

const skip = testConfig.databaseUrl === null ? 'needs DATABASE_URL (PostgreSQL)' : false;

describe('query results die young on PostgreSQL', { skip }, () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  before(async () => {
    db = await scratchDatabase(testConfig.databaseUrl!);
  });
  after(async () => {
    await db?.drop();
  });

  test("the service's statements leave next to nothing for the scavenger to copy; pg's promise form does not", () => {
    const service = measure('service', db.url, 2);
    const promise = measure('promise', db.url, 2);
    assert.ok(service.scavenges >= 5, `too few collections to judge: ${JSON.stringify(service)}`);
    assert.ok(service.survivedMb < 1.5, `service: ${JSON.stringify(service)}`);
    // The probe sees the defect it guards against: the promise form keeps whole pages alive.
    assert.ok(
      promise.survivedMb > 4 * service.survivedMb,
      `promise ${JSON.stringify(promise)} vs service ${JSON.stringify(service)}`,
    );
  });
});
