// A new embedded DATA_DIR starts from the shipped initialised PGlite directory, not from initdb
// (issue 14 item 4); `npm run bench` measures the first answer after start.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase, pgliteTemplateFile } from '../src/db/connect.ts';
import { migrate, migrationFiles } from '../src/db/migrate.ts';

test('the template for the installed PGlite version is shipped (else: npm run db:template)', () => {
  const file = pgliteTemplateFile();
  assert.ok(fs.existsSync(file), `${path.basename(file)} is missing: run npm run db:template and commit it`);
  assert.ok(fs.statSync(file).size > 1_000_000);
});

test('an empty DATA_DIR is created from it, migrates, and opens again as it was left', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  try {
    const first = await openDatabase({ databaseUrl: null, dataDir });
    assert.ok(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION')));
    assert.equal((await migrate(first)).length, migrationFiles().length);
    await first.close();
    const again = await openDatabase({ databaseUrl: null, dataDir });
    assert.deepEqual(await migrate(again), []);
    const rows = await again.withSession((exec) => exec('SELECT count(*)::int AS n FROM accounts'));
    assert.equal(rows[0]?.n, 0);
    await again.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
