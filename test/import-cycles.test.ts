import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolve, type SourceFile, SRC, sourceFiles, specifiers } from './support/sources.ts';

/**
 * No import circle in src: every file's relative imports (type-only and dynamic ones included) form
 * a graph whose strongly connected components are single files. A circle is how a layer rule gets
 * undone without any one import looking wrong (issue 26: the composition root, the app and HTTP
 * once formed a circle of 64 files).
 */

type Graph = Map<string, string[]>;

/** Each file and the files of src it imports (imports of files that do not exist are left out). */
export function importGraph(files: SourceFile[]): Graph {
  const known = new Set(files.map((f) => f.file));
  const graph: Graph = new Map();
  for (const { file, text } of files) {
    const targets = specifiers(text)
      .map((specifier) => resolve(file, specifier))
      .filter((target): target is string => target !== null && known.has(target));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
export function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One shortest way round a component, from its first file back to it (breadth first). */
export function shortestCycle(graph: Graph, component: string[]): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return component;
}

/**
 * The same graph between the domain's areas (`domain/jobs/…` → `jobs`), each edge kept with the
 * first file import that makes it; the domain's own top-level files (errors, ports) are no area.
 */
export function areaGraph(graph: Graph): { graph: Graph; because: Map<string, string> } {
  const areaOf = (file: string) => {
    const parts = file.split('/');
    return parts[0] === 'domain' && parts.length > 2 ? parts[1]! : null;
  };
  const areas: Graph = new Map();
  const because = new Map<string, string>();
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    if (from === null) continue;
    if (!areas.has(from)) areas.set(from, []);
    for (const target of targets) {
      const to = areaOf(target);
      if (to === null || to === from || because.has(`${from} → ${to}`)) continue;
      areas.get(from)!.push(to);
      because.set(`${from} → ${to}`, `${file} imports ${target}`);
    }
  }
  return { graph: areas, because };
}

function describeCircles(graph: Graph): string[] {
  return circles(graph).map(
    (component) =>
      `${component.length} files, e.g. ${shortestCycle(graph, component).join(' → ')}\n    all: ${component.join(', ')}`,
  );
}

describe('import cycles', () => {
  test('src: no two files import each other, directly or through others', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 100, `read only ${files.length} files`);
    const found = describeCircles(importGraph(files));
    assert.equal(found.length, 0, `import circles in src:\n  ${found.join('\n  ')}`);
  });

  test('src/domain: no two areas import each other, directly or through others', () => {
    const { graph, because } = areaGraph(importGraph(sourceFiles(SRC)));
    assert.ok(graph.size > 8, `read only ${graph.size} areas`);
    const found = circles(graph).map((component) => {
      const cycle = shortestCycle(graph, component);
      const steps = cycle.slice(1).map((to, i) => because.get(`${cycle[i]} → ${to}`));
      return `${cycle.join(' → ')}\n    ${steps.join('\n    ')}`;
    });
    assert.equal(found.length, 0, `areas of the domain in a circle:\n  ${found.join('\n  ')}`);
  });

  test('the check finds a circle, names its files and one way round it, and passes a tree', () => {
    const file = (name: string, ...imports: string[]): SourceFile => ({
      file: name,
      text: imports.map((i) => `import type { X } from '${i}';`).join('\n'),
    });
    const graph = importGraph([
      file('app.ts', './http/routes.ts', 'fastify'),
      file('http/routes.ts', './v1/get-job.ts'),
      file('http/v1/get-job.ts', '../types.ts', '../../domain/errors.ts'),
      file('http/types.ts', '../services.ts'),
      file('services.ts', './app.ts', './domain/errors.ts'),
      file('domain/errors.ts', './errors.ts'),
      file('main.ts', './services.ts'),
    ]);
    assert.deepEqual(circles(graph), [
      ['app.ts', 'http/routes.ts', 'http/types.ts', 'http/v1/get-job.ts', 'services.ts'],
    ]);
    assert.deepEqual(shortestCycle(graph, circles(graph)[0]!), [
      'app.ts',
      'http/routes.ts',
      'http/v1/get-job.ts',
      'http/types.ts',
      'services.ts',
      'app.ts',
    ]);
    graph.set('http/types.ts', []);
    assert.deepEqual(circles(graph), []);
    const areas = areaGraph(
      importGraph([
        file('domain/jobs/job-service.ts', '../events/event-log.ts', '../errors.ts'),
        file('domain/events/event-log.ts', '../jobs/job-repository.ts', '../errors.ts'),
        file('domain/jobs/job-repository.ts'),
        file('domain/errors.ts'),
      ]),
    );
    assert.deepEqual(circles(areas.graph), [['events', 'jobs']]);
    assert.equal(
      areas.because.get('events → jobs'),
      'domain/events/event-log.ts imports domain/jobs/job-repository.ts',
    );
  });
});
