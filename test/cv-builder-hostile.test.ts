// Issue 11, item 1: every function of the CV builder (and of the PDF text check) that reads text
// from a CV must cost time linear in its input. Each one is fed 100,000-character lines shaped to
// hit the usual traps (long runs that a pattern retries from every start, a run of a trailing
// class that is not at the end, a label followed by a long gap) and must answer within a bound
// that a linear pass meets with a wide margin and a quadratic one misses by two orders.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as contact from '../src/cv-builder/contact.ts';
import * as dates from '../src/cv-builder/dates.ts';
import * as entries from '../src/cv-builder/entries.ts';
import { buildVirtualCv } from '../src/cv-builder/index.ts';
import * as lists from '../src/cv-builder/lists.ts';
import * as sections from '../src/cv-builder/sections.ts';
import * as text from '../src/cv-builder/text.ts';
import type { PdfPage, PdfTextItem } from '../src/pdf/cv-check.ts';
import * as textLayer from '../src/pdf/text-layer.ts';

const N = 100_000;
// A linear pass over 100k characters takes well under 100 ms even on a loaded machine; the
// quadratic patterns this replaced took 20–45 s at this length.
const BOUND_MS = 2_000;

let seed = 7;
function random(alphabet: string, length = N): string {
  let out = '';
  while (out.length < length) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[(seed >>> 16) % alphabet.length];
  }
  return out;
}

const INPUTS: Record<string, string> = {
  letters: random('abcdefghijklmnopqrstuvwxyz'),
  capitals: random('ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
  digits: random('0123456789'),
  phoneChars: random('0123456789 -./()+'),
  words: random('abcdefgh     '),
  mixed: random('aA1 .,-/@:|()+'),
  dotted: random('ab.'),
  at: random('a@.'),
  spaceRun: `a${' '.repeat(N)}b`,
  tabRun: `a${'\t'.repeat(N)}b`,
  dotRun: `a${'.'.repeat(N)}b`,
  dashRun: `a${'-'.repeat(N)}b`,
  slashRun: `a${'/'.repeat(N)}b`,
  parenRun: '('.repeat(N),
  digitRun: '1'.repeat(N),
  labels: 'a.'.repeat(N / 2),
  domainRuns: `${'a'.repeat(298)}. `.repeat(N / 300),
  letterSpaced: 'a '.repeat(N / 2),
  capitalWords: 'Ab '.repeat(N / 3),
  commaList: 'ab, '.repeat(N / 4),
  phoneLabelGap: `tel${' '.repeat(N)}x +44 20 7946 0018`,
  phones: 'tel:   +44 20 7946 0018 '.repeat(N / 24),
  sinceGap: `since${' '.repeat(N)}x 2020`,
  colonGap: `:${' '.repeat(N)}x`,
  emails: 'a@b.'.repeat(N / 4),
  schemes: 'http://'.repeat(N / 7),
  months: 'Jan 2020 – '.repeat(N / 11),
};

type TextFunction = (input: string) => unknown;

const FUNCTIONS: Record<string, TextFunction> = {
  'contact.findEmails': contact.findEmails,
  'contact.findPhones': contact.findPhones,
  'contact.findLinks': contact.findLinks,
  'contact.linkKey': contact.linkKey,
  'contact.parseLocation': contact.parseLocation,
  'contact.contactPieces': contact.contactPieces,
  'dates.findDateRange': dates.findDateRange,
  'entries.splitQualification': entries.splitQualification,
  'lists.splitItems': lists.splitItems,
  'lists.parseLanguage': lists.parseLanguage,
  'lists.allLanguages': (s) => lists.allLanguages([s]),
  'sections.headingCore': sections.headingCore,
  'sections.matchHeading': sections.matchHeading,
  'text.fold': text.fold,
  'text.normKey': text.normKey,
  'text.words': text.words,
  'text.isAllCaps': text.isAllCaps,
  'text.collapseLetterSpacing': text.collapseLetterSpacing,
  'text.titleCaseName': text.titleCaseName,
  'text.cleanRun': text.cleanRun,
  'text.trimPunct': text.trimPunct,
  'text.phraseMatcher': text.phraseMatcher(['software engineer', 'data']),
  'textLayer.addText': (s) => textLayer.addText(textLayer.emptyStats(), s),
};

function timed(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

describe('every text function is linear in its input', () => {
  for (const [name, fn] of Object.entries(FUNCTIONS)) {
    test(name, () => {
      const slow: string[] = [];
      for (const [shape, input] of Object.entries(INPUTS)) {
        const ms = timed(() => fn(input));
        if (ms > BOUND_MS) slow.push(`${shape}: ${Math.round(ms)} ms`);
      }
      assert.deepEqual(slow, [], `${name} on 100k-character inputs`);
    });
  }
});

function item(str: string, x: number, y: number, size = 10, bold = false): PdfTextItem {
  return {
    str,
    x,
    y,
    width: Math.min(500, str.length * size * 0.5),
    height: size,
    fontName: bold ? 'Helvetica-Bold' : 'Helvetica',
    bold,
    italic: false,
  };
}

// The same hostile line in every place the builder reads differently: the header's contact zone,
// and the body of each kind of section.
function pageWith(line: string): PdfPage {
  const items: PdfTextItem[] = [item('Jordan Example', 40, 800, 18, true), item(line, 40, 780, 1)];
  let y = 740;
  for (const heading of ['Experience', 'Education', 'Skills', 'Languages', 'Summary']) {
    items.push(item(heading, 40, y, 12, true));
    items.push(item(line, 40, y - 12, 1));
    items.push(item('March 2020 – Present', 40, y - 24));
    items.push(item(line, 300, y - 24, 1));
    y -= 60;
  }
  return { width: 595, height: 842, items };
}

describe('the whole build is linear in its input', () => {
  for (const [shape, input] of Object.entries(INPUTS)) {
    test(`a page carrying the "${shape}" line 11 times`, () => {
      const ms = timed(() => buildVirtualCv([pageWith(input)], {}));
      assert.ok(ms < BOUND_MS * 3, `${Math.round(ms)} ms`);
    });
  }
});
