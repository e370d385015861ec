import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

/**
 * No source file over 400 lines (issue 13): a file that grows past it is split by meaning, so a
 * reader finds one subject per file.
 */

const SRC = path.resolve(import.meta.dirname, '../src');
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(?:ts|js)$/.test(entry.name) ? [full] : [];
  });
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files over the limit, with their length, longest first. */
export function oversized(files: { file: string; text: string }[], max = MAX_LINES): string[] {
  return files
    .map(({ file, text }) => ({ file, lines: lineCount(text) }))
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines)
    .map((f) => `${f.file}: ${f.lines} lines`);
}

describe('source size', () => {
  test('the check counts lines as wc -l does, and names a file one line over', () => {
    assert.equal(lineCount(''), 0);
    assert.equal(lineCount('a\n'), 1);
    assert.equal(lineCount('a\nb'), 2);
    const at = `${'x\n'.repeat(MAX_LINES)}`;
    const over = `${at}y\n`;
    assert.deepEqual(oversized([{ file: 'at.ts', text: at }]), []);
    assert.deepEqual(oversized([{ file: 'over.ts', text: over }]), [`over.ts: ${MAX_LINES + 1} lines`]);
  });

  test(`no file under src is over ${MAX_LINES} lines`, () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 100, `read ${files.length} files under src`);
    const found = oversized(
      files.map((f) => ({ file: path.relative(SRC, f), text: fs.readFileSync(f, 'utf8') })),
    );
    assert.deepEqual(found, [], `split these by meaning:\n${found.join('\n')}`);
  });
});
