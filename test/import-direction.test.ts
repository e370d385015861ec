import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolve, type SourceFile, SRC, sourceFiles, specifiers } from './support/sources.ts';

/**
 * Imports point one way (docs/architecture.md): the contract imports nothing of ours;
 * infrastructure never imports the domain, HTTP, plugins or Fastify; the domain never imports HTTP,
 * plugins, the root or Fastify; HTTP and the plugins never import the root (the types they name
 * live beside what they describe); only the runtime imports the app; and an area writes another
 * area's tables only through that area's service, never through its repository. That no import
 * goes round in a circle is test/import-cycles.test.ts's.
 */

const INFRASTRUCTURE = new Set([
  'db',
  'blob-store',
  'mail',
  'pdf',
  'tasks',
  'rate-limit',
  'lib',
  'cv-builder',
  'webhooks',
]);
/**
 * The root: the composition root (services.ts), the app (app.ts), the runtime that wires the two
 * (runtime.ts) and the process entry point (main.ts). They import the layers; no layer imports them.
 */
const ROOT = new Set(['app', 'services', 'runtime', 'main']);
/** Packages the contract may use: the schema library and nothing else. */
const CONTRACT_PACKAGES = new Set(['typebox']);
/** A repository method that writes starts with one of these verbs. */
const WRITE_VERB =
  /^(insert|update|upsert|delete|remove|cancel|mark|erase|complete|add|retire|reclaim|move|ensure|use|touch|revoke|spend|set|create|save|claim|release|fail|retry)/;

/** `domain/jobs/x.ts` → `domain`; `app.ts` → `app`. */
function layerOf(file: string): string {
  const [first] = file.split('/');
  return first!.replace(/\.ts$/, '');
}

/** `domain/jobs/x.ts` → `jobs`; null outside the domain. */
function areaOf(file: string): string | null {
  const parts = file.split('/');
  return parts[0] === 'domain' && parts.length > 2 ? parts[1]! : null;
}

/** Why `file` may not import `target` (both below src), or null when it may. */
function wrongTurn(file: string, target: string): string | null {
  const layer = layerOf(file);
  const targetLayer = layerOf(target);
  if (layer === 'contract' && targetLayer !== 'contract') return 'the contract imports nothing of ours';
  if (INFRASTRUCTURE.has(layer) && ['domain', 'http', 'plugins', ...ROOT].includes(targetLayer)) {
    return `infrastructure never imports ${targetLayer}`;
  }
  if (layer === 'domain' && ['http', 'plugins', ...ROOT].includes(targetLayer)) {
    return `the domain never imports ${targetLayer}`;
  }
  if ((layer === 'http' || layer === 'plugins') && ROOT.has(targetLayer)) {
    return `${layer} never imports the root (${target}); a type it names lives beside what it describes`;
  }
  if (target === 'app.ts' && file !== 'runtime.ts') return 'only runtime.ts imports the app';
  return null;
}

/** Every import that points the wrong way, and every write into another area's repository. */
export function violations(files: SourceFile[]): string[] {
  const found: string[] = [];
  const repositoryArea = new Map<string, string>();
  for (const { file } of files) {
    const area = areaOf(file);
    const match = /([a-z-]+)-repository\.ts$/.exec(file);
    if (area && match) {
      const name = match[1]!.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
      repositoryArea.set(`${name}Repository`, area);
    }
  }
  for (const { file, text } of files) {
    const layer = layerOf(file);
    for (const specifier of specifiers(text)) {
      const target = resolve(file, specifier);
      const where = `${file} imports ${specifier}`;
      if (target === null) {
        const pkg = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0]!;
        if (layer === 'contract' && !CONTRACT_PACKAGES.has(pkg))
          found.push(`${where}: the contract uses only typebox`);
        if (
          (layer === 'domain' || INFRASTRUCTURE.has(layer)) &&
          (pkg === 'fastify' || pkg.startsWith('@fastify/'))
        ) {
          found.push(`${where}: only HTTP code imports Fastify`);
        }
        continue;
      }
      if (target.startsWith('..')) {
        found.push(`${where}: outside src`);
        continue;
      }
      const wrong = wrongTurn(file, target);
      if (wrong !== null) found.push(`${where}: ${wrong}`);
    }
    const area = areaOf(file);
    if (area === null) continue;
    for (const call of text.matchAll(/\b([a-z][A-Za-z]*Repository)\.([A-Za-z]+)\s*\(/g)) {
      const [, repository, method] = call as unknown as [string, string, string];
      const owner = repositoryArea.get(repository);
      if (owner && owner !== area && WRITE_VERB.test(method)) {
        found.push(`${file} calls ${repository}.${method}: writes go through the ${owner} area's service`);
      }
    }
  }
  return found;
}

describe('import direction', () => {
  test('src: every import points the right way, and no area writes through another area’s repository', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 100, `read only ${files.length} files`);
    assert.deepEqual(violations(files), []);
  });

  test('the check finds each kind of wrong turn', () => {
    const file = (name: string, text: string): SourceFile => ({ file: name, text });
    const found = violations([
      file('contract/job.ts', "import { x } from '../domain/jobs/job-view.ts';\nimport { z } from 'zod';"),
      file('contract/ok.ts', "import { Type } from 'typebox';\nimport { y } from './vocabulary.ts';"),
      file('blob-store/local-store.ts', "import { AppError } from '../domain/errors.ts';"),
      file('tasks/worker.ts', "export { x } from '../http/types.ts';"),
      file('lib/time.ts', "const m = await import('../plugins/guard.ts');"),
      file('blob-store/upload-route.ts', "import type { FastifyInstance } from 'fastify';"),
      file('domain/jobs/job-service.ts', "import type { FastifyReply } from 'fastify';"),
      file('domain/jobs/job-view.ts', "import { principalOf } from '../../plugins/guard.ts';"),
      file('domain/intake/x.ts', "import { routes } from '../../http/routes.ts';"),
      file('domain/cv/y.ts', "import { createServices } from '../../services.ts';"),
      file('domain/screening/screening-repository.ts', 'export const screeningRepository = {};'),
      file('domain/jobs/close.ts', 'await screeningRepository.cancelOpenForJob(trx, id, now);'),
      file('domain/screening/own.ts', 'await screeningRepository.cancelOpenForJob(trx, id, now);'),
      file('domain/intake/read.ts', 'await screeningRepository.openFor(trx, id, c, now);'),
      file('http/v1/ok.ts', "import { x } from '../../domain/errors.ts';"),
      file('http/types.ts', "import type { Services } from '../services.ts';"),
      file('http/pages/page.ts', "import type { Runtime } from '../../runtime.ts';"),
      file('plugins/guard.ts', "const { main } = await import('../main.ts');"),
      file('http/ops/probes.ts', "import { MAX_HEADER_BYTES } from '../../app.ts';"),
      file('main.ts', "const { buildApp } = await import('./app.ts');"),
      file(
        'runtime.ts',
        "import { buildApp } from './app.ts';\nimport { createServices } from './services.ts';",
      ),
      file('http/context.ts', "import type { Services } from '../domain/services.ts';"),
    ]);
    const files = found.map((line) => line.split(' ')[0]);
    assert.deepEqual(files, [
      'contract/job.ts',
      'contract/job.ts',
      'blob-store/local-store.ts',
      'tasks/worker.ts',
      'lib/time.ts',
      'blob-store/upload-route.ts',
      'domain/jobs/job-service.ts',
      'domain/jobs/job-view.ts',
      'domain/intake/x.ts',
      'domain/cv/y.ts',
      'domain/jobs/close.ts',
      'http/types.ts',
      'http/pages/page.ts',
      'plugins/guard.ts',
      'http/ops/probes.ts',
      'main.ts',
    ]);
  });
});
