// Lists the functions in src/ longer than N lines (default 60), longest first, so issue 13's
// "long functions are named steps" can be measured again. Run: node scripts/function-length.ts [N] [--all]
//
// A function is a declaration, a method, a constructor, an accessor, a function expression or an
// arrow function; its length runs from the line it starts on to the line it ends on, both counted.
// Service factories are left out unless --all is given: a function named create… whose body ends in
// `return { … }` with only methods and functions in it (its length is the methods', each measured
// on its own).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(import.meta.dirname, '..', 'src');

export interface LongFunction {
  /** Path below src, with forward slashes. */
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The name a function is known by: its own, or that of the variable, property or class member it is. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${classNameOf(node)}.constructor`;
  if (node.name) {
    const own = node.name.getText(source);
    return ts.isClassLike(node.parent) ? `${classNameOf(node)}.${own}` : own;
  }
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

function classNameOf(node: ts.Node): string {
  const owner = node.parent;
  return ts.isClassLike(owner) && owner.name ? owner.name.text : '(class)';
}

/**
 * A service factory: `create…` whose body returns an object of methods and functions at its top
 * level (function declarations may follow the return: they are hoisted helpers).
 */
function isServiceFactory(node: ts.FunctionLikeDeclaration, name: string): boolean {
  if (!/^create[A-Z]/.test(name) || !node.body || !ts.isBlock(node.body)) return false;
  const statements = node.body.statements;
  const at = statements.findLastIndex((statement) => !ts.isFunctionDeclaration(statement));
  const last = statements[at];
  if (!last || !ts.isReturnStatement(last) || !last.expression) return false;
  const returned = last.expression;
  if (!ts.isObjectLiteralExpression(returned)) return false;
  return returned.properties.every(
    (p) =>
      ts.isMethodDeclaration(p) ||
      ts.isShorthandPropertyAssignment(p) ||
      ts.isSpreadAssignment(p) ||
      (ts.isPropertyAssignment(p) &&
        (ts.isArrowFunction(p.initializer) ||
          ts.isFunctionExpression(p.initializer) ||
          ts.isIdentifier(p.initializer) ||
          ts.isPropertyAccessExpression(p.initializer))),
  );
}

/** Every function of one file longer than `limit` lines. */
export function longFunctions(file: string, text: string, limit: number, all = false): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = end - start + 1;
      const name = nameOf(fn, source);
      if (lines > limit && (all || !isServiceFactory(fn, name))) {
        found.push({ file, name, line: start + 1, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const limit = Number(args.find((a) => /^\d+$/.test(a)) ?? 60);
  const all = args.includes('--all');
  const rows = sourceFiles(SRC)
    .flatMap((file) => longFunctions(file, fs.readFileSync(path.join(SRC, file), 'utf8'), limit, all))
    .sort((a, b) => b.lines - a.lines);
  for (const row of rows)
    console.log(`${String(row.lines).padStart(4)}  ${row.file}:${row.line}  ${row.name}`);
  console.log(
    `${rows.length} function(s) over ${limit} lines in src/${all ? '' : ' (service factories left out)'}`,
  );
}
