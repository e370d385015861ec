import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { TestContext } from './app.ts';

/** Every row of every table of the database, as JSON text (one line per row). */
export async function dumpDatabase(c: Pick<TestContext, 'handle'>): Promise<string> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(c.handle.db);
  const lines: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<{
      row: string;
    }>`SELECT row_to_json(t)::text AS row FROM ${sql.table(name)} t`.execute(c.handle.db);
    for (const { row } of rows.rows) lines.push(`${name}: ${row}`);
  }
  return lines.join('\n');
}

/** Fails naming the first of `traces` the dump still holds (compared case-insensitively). */
export function assertNoTrace(dump: string, traces: Record<string, string>): void {
  const lower = dump.toLowerCase();
  for (const [what, value] of Object.entries(traces)) {
    const at = lower.indexOf(value.toLowerCase());
    assert.equal(
      at,
      -1,
      `the ${what} (${value}) is still held: …${dump.slice(Math.max(0, at - 200), at + 80)}…`,
    );
  }
}
