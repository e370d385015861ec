/**
 * Writes src/db/templates/pglite-<version>.tar.gz (initdb's output, before any migration: an
 * in-memory database starts from it) and pglite-<version>-migrated.tar.gz (the same after every
 * migration: a new DATA_DIR starts from it), for the installed PGlite version. Both are data
 * directories of a cleanly shut down database, so opening one replays nothing. Run it after
 * upgrading @electric-sql/pglite or adding a migration: `npm run db:template` (a migrated template
 * that lacks a newer migration still works, the migration then runs at the first start). The bare
 * one is written only when missing, or with `-- --bare`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/connect.ts';
import { migrate } from '../src/db/migrate.ts';
import { pgliteTemplateFile } from '../src/db/pglite-template.ts';

/** A ustar archive of `dir`'s directories and regular files, in a stable order, without owners or times. */
function tarOf(dir: string): Buffer {
  const blocks: Buffer[] = [];
  const header = (name: string, size: number, directory: boolean) => {
    const block = Buffer.alloc(512);
    const put = (text: string, at: number, length: number) => block.write(text, at, length, 'utf8');
    const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');
    if (Buffer.byteLength(name) > 100) throw new Error(`name too long for the template: ${name}`);
    put(name, 0, 100);
    put(octal(directory ? 0o700 : 0o600, 8), 100, 8);
    put(octal(0, 8), 108, 8);
    put(octal(0, 8), 116, 8);
    put(octal(size, 12), 124, 12);
    put(octal(0, 12), 136, 12);
    put('        ', 148, 8);
    put(directory ? '5' : '0', 156, 1);
    put('ustar\u000000', 257, 8);
    let sum = 0;
    for (const byte of block) sum += byte;
    put(`${octal(sum, 7)}\0`, 148, 8);
    blocks.push(block);
  };
  const walk = (relative: string) => {
    for (const entry of fs
      .readdirSync(path.join(dir, relative), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        header(name, 0, true);
        walk(name);
      } else if (entry.isFile()) {
        const data = fs.readFileSync(path.join(dir, name));
        header(name, data.length, false);
        blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
      }
    }
  };
  walk('');
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function write(kind: 'bare' | 'migrated', pgdata: string): void {
  const file = pgliteTemplateFile(kind);
  const packed = zlib.gzipSync(tarOf(pgdata), { level: 9 });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, packed);
  console.log(`wrote ${path.relative(process.cwd(), file)} (${(packed.length / 1e6).toFixed(1)} MB)`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-template-'));
try {
  const pgdata = path.join(work, 'pgdata');
  // initdb, then a clean shutdown. The bare template depends on the PGlite version only: kept when
  // present (initdb's output differs byte for byte every time), unless --bare asks for a new one.
  await (await PGlite.create(pgdata)).close();
  if (process.argv.includes('--bare') || !fs.existsSync(pgliteTemplateFile('bare'))) write('bare', pgdata);
  // The service's own opening (same settings) on that directory, every migration, a clean shutdown.
  const handle = await openDatabase({ databaseUrl: null, dataDir: work });
  const applied = await migrate(handle);
  await handle.close();
  write('migrated', pgdata);
  console.log(`migrations in the migrated template: ${applied.join(', ')}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
