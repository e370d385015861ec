/**
 * Writes src/db/templates/pglite-<version>.tar.gz: a freshly initialised PGlite data directory
 * (initdb's output, before any migration) for the installed PGlite version. A new DATA_DIR starts
 * from it instead of running initdb, which takes seconds in WebAssembly. Run it after upgrading
 * @electric-sql/pglite: `npm run db:template`. Migrations are not in it, so new migrations never
 * require a new template.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteTemplateFile } from '../src/db/connect.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
const pglite = await PGlite.create(path.join(dir, 'pgdata'));
const dump = await pglite.dumpDataDir('gzip');
await pglite.close();
const file = pgliteTemplateFile();
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
fs.rmSync(dir, { recursive: true, force: true });
console.log(`wrote ${path.relative(process.cwd(), file)} (${(dump.size / 1e6).toFixed(1)} MB)`);
