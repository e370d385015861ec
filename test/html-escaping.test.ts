import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

/**
 * Markup is made by html`…` templates only (src/lib/html.ts, docs/decisions.md "HTML escaped by
 * default"): outside that module no source escapes by hand, no string literal or untagged template
 * holds markup, and `unsafeRaw` is called only where the table below says (sanitised HTML).
 */

const SRC = path.resolve(import.meta.dirname, '../src');
const TEMPLATE_MODULE = 'lib/html.ts';
/** Files whose markup is data, not a page: the OpenAPI document's example job descriptions. */
const MARKUP_AS_DATA = new Set(['plugins/openapi-examples.ts']);

/** The only callers of unsafeRaw: file (under src/) → number of calls, each a sanitised document. */
const RAW_CALLERS: Record<string, number> = {
  // The job description, as sanitize-html left it (src/lib/sanitize.ts).
  'http/pages/job-page.ts': 1,
};

/** HTML's elements (and the sitemap's): `<name>` in a usage text is not markup, `<p>` is. */
const ELEMENTS =
  'a|abbr|article|aside|b|blockquote|body|br|button|caption|code|dd|del|details|div|dl|dt|em|fieldset|footer|form|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|label|legend|li|link|main|meta|nav|noscript|object|ol|option|p|pre|script|section|select|small|span|strong|style|summary|svg|table|tbody|td|template|textarea|tfoot|th|thead|time|title|tr|u|ul|urlset|url|loc|lastmod';
/** An element's tag (`<p>`, `</td`, `<input `), a doctype or a comment: markup. */
const MARKUP = new RegExp(`<\\/?(?:${ELEMENTS})(?=[\\s>/])|<!doctype|<!--|<\\?xml`, 'i');
/** Entities a hand-made escaper writes. */
const ENTITY = /&(?:lt|gt|quot|#39|#x27|amp);/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Inside html`…` (its literal parts): markup is allowed there. */
function isHtmlTemplate(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    parent !== undefined &&
    ts.isTaggedTemplateExpression(parent) &&
    parent.template === node &&
    ts.isIdentifier(parent.tag) &&
    parent.tag.text === 'html'
  );
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('{…}');
  return null;
}

export interface Finding {
  problems: string[];
  rawCalls: number;
}

/** What one file does against the rule: hand escaping, markup outside templates, unsafeRaw calls. */
export function inspect(file: string, text: string): Finding {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  let rawCalls = 0;
  const where = (node: ts.Node) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'escapeHtml') problems.push(`${where(node)} escapeHtml`);
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'unsafeRaw')
      rawCalls += 1;
    const literal = literalText(node);
    if (literal !== null && !isHtmlTemplate(node)) {
      if (MARKUP.test(literal))
        problems.push(`${where(node)} markup outside html\`…\`: ${literal.slice(0, 60)}`);
      else if (ENTITY.test(literal))
        problems.push(`${where(node)} an entity written by hand: ${literal.slice(0, 60)}`);
    }
    if (ts.isRegularExpressionLiteral(node) && MARKUP.test(node.text))
      problems.push(`${where(node)} markup read by a regular expression: ${node.text.slice(0, 60)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { problems, rawCalls };
}

describe('HTML is made by html`…` templates only', () => {
  test('the check finds hand escaping, markup in strings and untagged templates, and unsafeRaw calls', () => {
    // Lines: 1 escapeHtml; 2 markup in strings; 3 an untagged template; 4 an entity; 5 a template
    // (fine); 6 markup in a string inside a template; 7 unsafeRaw; 8 a regular expression; 9 fine.
    const sample = fs.readFileSync(
      path.join(import.meta.dirname, 'fixtures', 'markup-check-sample.txt'),
      'utf8',
    );
    const found = inspect('x.ts', sample);
    assert.equal(found.rawCalls, 1);
    assert.deepEqual(
      found.problems.map((p) => p.split(' ').slice(0, 2).join(' ')),
      [
        'x.ts:1 escapeHtml',
        'x.ts:2 markup',
        'x.ts:2 markup',
        'x.ts:3 markup',
        'x.ts:4 an',
        'x.ts:6 markup',
        'x.ts:8 markup',
      ],
    );
  });

  test('no source outside src/lib/html.ts escapes by hand or builds markup outside a template', () => {
    const problems: string[] = [];
    const raw: Record<string, number> = {};
    for (const full of sourceFiles(SRC)) {
      const file = path.relative(SRC, full);
      if (file === TEMPLATE_MODULE || MARKUP_AS_DATA.has(file)) continue;
      const found = inspect(file, fs.readFileSync(full, 'utf8'));
      problems.push(...found.problems);
      if (found.rawCalls > 0) raw[file] = found.rawCalls;
    }
    assert.deepEqual(problems, [], `${problems.length} places:\n${problems.join('\n')}`);
    assert.deepEqual(raw, RAW_CALLERS, 'unsafeRaw is called only where RAW_CALLERS says');
  });
});
