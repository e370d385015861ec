import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The service's sources, as the import tests read them. */
export const SRC = path.resolve(import.meta.dirname, '../../src');

export interface SourceFile {
  /** Path below src, with forward slashes (`domain/jobs/job-service.ts`). */
  file: string;
  text: string;
}

/** Every .ts file below `dir`, read. */
export function sourceFiles(dir: string): SourceFile[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({
      file: name.split(path.sep).join('/'),
      text: fs.readFileSync(path.join(dir, name), 'utf8'),
    }));
}

/** What a file imports: static, type-only, re-exported and dynamic imports alike. */
export function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** Resolves a relative specifier to a path below src, or null for a package. */
export function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
}
