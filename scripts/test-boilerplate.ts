// Counts the setup boilerplate of the test files: the lines a test file spends on getting an app,
// a browser or a helper rather than on what it tests. Run: node scripts/test-boilerplate.ts [--files]
//
// Counted, per test/*.test.ts file (each physical line once):
//   - import statements from the harness (./support/*)
//   - `let ctx` / `let browser` declarations, and `useTestApp(…)`/`useBrowser(…)` statements
//   - node:test hooks (before/after/beforeEach/afterEach): every top-level hook, and any nested hook
//     that starts or closes an app, a database or a browser
//   - local copies of shared helpers: assertError/errorOf/expectError-like functions, time constants
//     (SECOND, MINUTE, HOUR, DAY, WEEK), a Chromium path and its launch call
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const TEST_DIR = path.resolve(import.meta.dirname, '..', 'test');
const HOOKS = new Set(['before', 'after', 'beforeEach', 'afterEach']);
const TIME = /^(MS_|ONE_)?(SECOND|MINUTE|HOUR|DAY|WEEK)S?(_MS)?$/;
const ERROR_HELPERS = /^(assertError|errorOf|expectError|assertErrorBody|assertRefusal|errorCode)$/;
const LIFECYCLE = /startApp|startListeningApp|closeDatabase|chromium\.launch|\.close\(\)/;

export interface FileCount {
  file: string;
  lines: number;
  setup: number;
}

export function countFile(file: string, text: string): FileCount {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const counted = new Set<number>();
  const mark = (node: ts.Node) => {
    const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    for (let line = start; line <= end; line++) counted.add(line);
  };
  const hookName = (node: ts.Node): string | null => {
    if (!ts.isExpressionStatement(node) || !ts.isCallExpression(node.expression)) return null;
    const callee = node.expression.expression;
    return ts.isIdentifier(callee) && HOOKS.has(callee.text) ? callee.text : null;
  };
  const visit = (node: ts.Node, topLevel: boolean) => {
    if (ts.isImportDeclaration(node)) {
      const from = (node.moduleSpecifier as ts.StringLiteral).text;
      if (from.startsWith('./support/')) mark(node);
      return;
    }
    if (hookName(node) !== null) {
      if (topLevel || LIFECYCLE.test(node.getText(source))) mark(node);
      return;
    }
    if (ts.isFunctionDeclaration(node) && node.name) {
      if (ERROR_HELPERS.test(node.name.text) || node.name.text === 'launchChromium') return mark(node);
    }
    if (ts.isVariableStatement(node)) {
      const text = node.getText(source);
      for (const declaration of node.declarationList.declarations) {
        const name = ts.isIdentifier(declaration.name) ? declaration.name.text : '';
        const isLet = (node.declarationList.flags & ts.NodeFlags.Let) !== 0;
        if (
          (isLet && (name === 'ctx' || name === 'browser')) ||
          TIME.test(name) ||
          ERROR_HELPERS.test(name) ||
          /CHROMIUM/.test(name) ||
          (/^(SKIP|HAS_BROWSER)$/.test(name) && /CHROMIUM|chromium/.test(text)) ||
          /\buse(TestApp|Browser|ListeningApp)\(/.test(text)
        ) {
          mark(node);
          return;
        }
      }
    }
    if (ts.isCallExpression(node) && /^chromium\.launch$/.test(node.expression.getText(source))) {
      mark(node);
      return;
    }
    ts.forEachChild(node, (child) => visit(child, false));
  };
  for (const statement of source.statements) visit(statement, true);
  return { file, lines: text.split('\n').length, setup: counted.size };
}

export function countTests(dir = TEST_DIR): FileCount[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => countFile(name, fs.readFileSync(path.join(dir, name), 'utf8')));
}

if (import.meta.main) {
  const counts = countTests();
  if (process.argv.includes('--files')) {
    for (const c of [...counts].sort((a, b) => b.setup - a.setup)) console.log(`${c.setup}\t${c.file}`);
  }
  const setup = counts.reduce((n, c) => n + c.setup, 0);
  const lines = counts.reduce((n, c) => n + c.lines, 0);
  const support = fs
    .readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.startsWith('fixtures'));
  console.log(
    `${counts.length} test files, ${lines} lines; setup boilerplate ${setup} lines ` +
      `(${(setup / counts.length).toFixed(1)} per file); ${support.length} support files`,
  );
}
