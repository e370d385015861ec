import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DbHandle } from './connect.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
// Any constant works; it only has to be the same in every process of the service.
const MIGRATION_LOCK = 727_274_001;

export function migrationFiles(dir = MIGRATIONS_DIR): { version: string; file: string }[] {
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: name.replace(/\.sql$/, ''), file: path.join(dir, name) }));
}

/**
 * Applies pending forward-only migrations. A session-level advisory lock makes two processes that
 * start together take turns: the second finds the work done.
 */
export async function migrate(handle: DbHandle, dir = MIGRATIONS_DIR): Promise<string[]> {
  // The usual start: every migration is recorded. One read, no lock and no DDL (issue 14).
  if (await current(handle, dir)) return [];
  return handle.withSession(async (exec) => {
    await exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await exec('SELECT version FROM schema_migrations')).map((row) => String(row.version)),
      );
      const applied: string[] = [];
      for (const migration of migrationFiles(dir)) {
        if (done.has(migration.version)) continue;
        const body = fs.readFileSync(migration.file, 'utf8');
        const version = migration.version.replace(/'/g, "''");
        await exec(
          `BEGIN;\n${body}\n;INSERT INTO schema_migrations (version) VALUES ('${version}');\nCOMMIT;`,
        ).catch(async (error: unknown) => {
          await exec('ROLLBACK').catch(() => undefined);
          throw new Error(`Migration ${migration.version} failed: ${(error as Error).message}`);
        });
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  });
}

/** True when every migration file is recorded as applied (the readiness probe asks). */
export async function migrationsCurrent(handle: DbHandle): Promise<boolean> {
  const rows = await handle.withSession((exec) => exec('SELECT version FROM schema_migrations'));
  const done = new Set(rows.map((row) => String(row.version)));
  return migrationFiles().every((migration) => done.has(migration.version));
}

/** Like migrationsCurrent, and false (not an error) on a database without the table yet. */
async function current(handle: DbHandle, dir: string): Promise<boolean> {
  const rows = await handle
    .withSession((exec) => exec('SELECT version FROM schema_migrations'))
    .catch(() => null);
  if (rows === null) return false;
  const done = new Set(rows.map((row) => String(row.version)));
  return migrationFiles(dir).every((migration) => done.has(migration.version));
}
