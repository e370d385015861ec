import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/**
 * The initialised PGlite data directories shipped in src/db/templates (scripts/pglite-template.ts
 * writes them for the installed PGlite version):
 * - `bare`: initdb's output, no migration (an in-memory database starts from it);
 * - `migrated`: the same after every migration of the day it was written, shut down cleanly (a new
 *   DATA_DIR starts from it: no initdb and no migration to run in WebAssembly, issue 14). A
 *   migration added later is applied on top by `migrate()` as on any existing database.
 */
export type TemplateKind = 'bare' | 'migrated';

let version: string | undefined;

/** The installed PGlite version (the package exports no package.json: found beside its entry). */
function pgliteVersion(): string {
  if (version !== undefined) return version;
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  version = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
  return version;
}

export function pgliteTemplateFile(kind: TemplateKind = 'bare'): string {
  const suffix = kind === 'migrated' ? '-migrated' : '';
  return fileURLToPath(new URL(`./templates/pglite-${pgliteVersion()}${suffix}.tar.gz`, import.meta.url));
}

interface TarEntry {
  name: string;
  directory: boolean;
  data: Buffer;
}

/** The entries of a ustar archive (regular files and directories; anything else is skipped). */
export function* tarEntries(tar: Buffer): Generator<TarEntry> {
  const text = (at: number, length: number) => {
    const field = tar.toString('utf8', at, at + length);
    const nul = field.indexOf('\0');
    return nul === -1 ? field : field.slice(0, nul);
  };
  for (let at = 0; at + 512 <= tar.length; ) {
    if (tar[at] === 0) return;
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156] ?? 0);
    const prefix = text(at + 345, 155);
    const name = (prefix ? `${prefix}/${text(at, 100)}` : text(at, 100)).replace(/^(\.?\/)+/, '');
    const data = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (name === '' || (type !== '0' && type !== '\0' && type !== '5')) continue;
    if (name.split('/').includes('..')) throw new Error(`template entry outside its directory: ${name}`);
    yield { name: name.replace(/\/$/, ''), directory: type === '5', data };
  }
}

const ZEROS = Buffer.alloc(65_536);

/** Where a file's content ends once whole blocks of trailing zeros are left out. */
function dataEnd(data: Buffer): number {
  let end = data.length;
  while (end >= ZEROS.length && data.subarray(end - ZEROS.length, end).equals(ZEROS)) end -= ZEROS.length;
  return end;
}

/**
 * Writes the template's data directory at `target` (which must not hold a database): unpacked into
 * a sibling directory first and renamed into place when complete, so that an interrupted start
 * never leaves half a database behind. False when no template is shipped for this PGlite version.
 */
export function unpackTemplate(kind: TemplateKind, target: string): boolean {
  let packed: Buffer;
  try {
    packed = fs.readFileSync(pgliteTemplateFile(kind));
  } catch {
    return false;
  }
  const staging = `${target}.unpacking-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    // The template lists each directory before what it holds: one mkdir per directory.
    const made = new Set([staging]);
    // gzip's trailer gives the unpacked size: one output buffer, no copying of 40 MB of chunks.
    const size = packed.readUInt32LE(packed.length - 4);
    const tar = zlib.gunzipSync(packed, { chunkSize: Math.max(size, 64 * 1024) });
    for (const entry of tarEntries(tar)) {
      const to = path.join(staging, entry.name);
      const parent = entry.directory ? to : path.dirname(to);
      if (!made.has(parent)) {
        fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
        made.add(parent);
      }
      if (entry.directory) continue;
      // Zeros at the end (most of the 16 MB WAL segment) are left as a hole: fewer bytes written.
      const end = dataEnd(entry.data);
      fs.writeFileSync(to, entry.data.subarray(0, end), { mode: 0o600 });
      if (end < entry.data.length) fs.truncateSync(to, entry.data.length);
    }
    // rename(2) replaces an empty directory (left by an earlier start) and refuses a non-empty one.
    fs.renameSync(staging, target);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return true;
}
