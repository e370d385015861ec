// An entries section (work, education) read into entries: each line classed as a header, a date,
// a bullet or description text; lines cut by a narrow cell or the column's edge joined back; the
// lines cut into entries where a header follows a description or a wider gap opens; and an
// entry's body joined into highlights and a summary.

import { type DateRange, findDateRange } from './dates.ts';
import { type Line, wrapsInto } from './layout.ts';
import { MONTHS } from './lexicon.ts';
import { fold, median, words } from './text.ts';

export const BULLET = /^\s*(?:[•●▪■◦‣∙○◆◇►▸▹➢➤✓✔√★☐□⦁⚬\uf0b7\uf0a7\uf076\uf0d8\uf0fc]|[-–*>](?=\s))\s*/u;

type LineKind = 'bullet' | 'date' | 'desc' | 'head';

export interface EntryLine {
  line: Line;
  kind: LineKind;
  text: string;
  glyph: boolean;
  date?: DateRange;
}

export interface RawEntry {
  head: EntryLine[];
  body: EntryLine[];
}

// "S.A.", "Inc.", "Lda." end a company name, not a sentence.
const ABBREVIATION = /(?:\b\p{L}\.|\b(?:inc|ltd|lda|ltda|co|corp|jr|sr|st|dept|univ|s\.?a|s\.?l)\.)$/iu;

function endsSentence(text: string): boolean {
  return /[.!;]$/.test(text) && !ABBREVIATION.test(text);
}

// Headers put the title or employer in bold; descriptions are set in the body font.
function partlyBold(line: Line): boolean {
  return line.parts.some((p) => p.boldShare >= 0.3) && words(line.text).length < 16;
}

/**
 * Where a line's text starts, skipping a leading cell that holds only a date: in a dates-left
 * table ("2018 – 2021 | Engineer, Acme" over "Acme's description") both lines start at the
 * right cell, and the description is not indented.
 */
function textX(line: Line): number {
  const first = line.parts[0]!;
  const second = line.parts[1];
  const dateOnly = second && findDateRange(first.text)?.raw === first.text.trim();
  return dateOnly ? second.x : line.x;
}

function classify(lines: Line[]): EntryLine[] {
  // Indentation is measured within one column of one page: newspaper columns restart at the left.
  const lefts = new Map<string, number>();
  const where = (l: Line) => `${l.page}:${l.column}`;
  for (const line of lines) lefts.set(where(line), Math.min(lefts.get(where(line)) ?? Infinity, textX(line)));
  const out: EntryLine[] = [];
  for (const line of lines) {
    const glyph = BULLET.test(line.text);
    const text = line.text.replace(BULLET, '').trim();
    const n = words(text).length;
    const indented = textX(line) - lefts.get(where(line))! >= 0.8 * line.size;
    const date = findDateRange(text);
    const previous = out.at(-1);
    const inBody = previous?.kind === 'bullet' || previous?.kind === 'desc';
    let kind: LineKind;
    const remainder = date ? words(text.slice(0, date.from) + text.slice(date.to)).length : n;
    const sentence = remainder >= 10 && endsSentence(text) && !partlyBold(line);
    // A lone date in a cell or tab stop of its own dates the line however long the rest is.
    const ownPart = date !== undefined && line.parts.some((p) => p.text.trim() === date.raw);
    const limit = date?.kind === 'single' && !ownPart ? 6 : 20;
    if (date && !glyph && !sentence && remainder <= limit) kind = 'date';
    else if (glyph || (indented && !line.bold && (n >= 3 || previous?.kind === 'bullet'))) kind = 'bullet';
    else if (!partlyBold(line) && (n >= 10 || (n >= 6 && endsSentence(text)))) kind = 'desc';
    // The tail of a wrapped sentence ("of daily.") stays with the text it ends.
    else if (inBody && /^\p{Ll}/u.test(text)) kind = previous!.kind;
    else kind = 'head';
    const entry: EntryLine = { line, kind, text, glyph };
    if (kind === 'date' && date) entry.date = date;
    out.push(entry);
  }
  return out;
}

function splitBlocks(lines: EntryLine[]): RawEntry[] {
  const gaps = lines.map((l) => l.line.gapAbove).filter((g) => g > 0);
  const typicalGap = median(gaps) || 12;
  const blocks: EntryLine[][] = [];
  let current: EntryLine[] = [];
  let previous: EntryLine | undefined;
  for (const entry of lines) {
    const isHead = entry.kind === 'head' || entry.kind === 'date';
    const afterBody = previous !== undefined && (previous.kind === 'bullet' || previous.kind === 'desc');
    const columnBreak =
      previous !== undefined &&
      (previous.line.page !== entry.line.page || previous.line.column !== entry.line.column);
    const wideGap =
      !columnBreak && entry.line.gapAbove > typicalGap * 1.35 && entry.line.gapAbove - typicalGap > 2;
    if (current.length > 0 && isHead && (afterBody || wideGap)) {
      blocks.push(current);
      current = [];
    }
    current.push(entry);
    previous = entry;
  }
  if (current.length > 0) blocks.push(current);

  const entries: RawEntry[] = [];
  for (const block of blocks) {
    const bodyStart = block.findIndex((l) => l.kind === 'bullet' || l.kind === 'desc');
    const head = bodyStart < 0 ? block : block.slice(0, bodyStart);
    const body = bodyStart < 0 ? [] : block.slice(bodyStart);
    const dateAt = head.flatMap((l, i) => (l.kind === 'date' ? [i] : []));
    if (dateAt.length <= 1) {
      if (head.length === 0 && entries.length > 0) entries.at(-1)!.body.push(...body);
      else entries.push({ head, body });
      continue;
    }
    // Several dated entries without descriptions between them: each starts as many lines before
    // its date as the first one did.
    const lead = dateAt[0]!;
    const starts = dateAt.map((at, i) => Math.max(at - lead, i === 0 ? 0 : dateAt[i - 1]! + 1));
    for (const [i, start] of starts.entries()) {
      const end = starts[i + 1] ?? head.length;
      entries.push({ head: head.slice(start, end), body: i === starts.length - 1 ? body : [] });
    }
  }
  return entries;
}

/** Joins wrapped bullet lines: a new bullet starts at a glyph, or at a line after one that did not wrap. */
export function bodyText(body: EntryLine[]): { highlights: string[]; summary?: string } {
  const highlights: string[] = [];
  const paragraphs: string[] = [];
  const glyphs = body.some((l) => l.glyph);
  let previous: EntryLine | undefined;
  for (const entry of body) {
    const sameColumn = previous?.line.page === entry.line.page && previous?.line.column === entry.line.column;
    const wrapped =
      previous !== undefined &&
      wrapsInto(previous.line, entry.line, entry.text) &&
      !/[.!?;:]$/.test(previous.text);
    const continues = sameColumn && (/^\p{Ll}/u.test(entry.text) || wrapped);
    const extendHighlight = () => {
      if (highlights.length > 0) highlights[highlights.length - 1] += ` ${entry.text}`;
      else highlights.push(entry.text);
    };
    if (entry.kind === 'bullet') {
      // With glyphs, only a glyph opens a bullet; without them (lists drawn by CSS), a line that
      // does not continue a wrapped one does.
      if (entry.glyph || (!glyphs && !continues)) highlights.push(entry.text);
      else extendHighlight();
    } else if (previous?.kind === 'bullet' && continues) extendHighlight();
    else if (previous && previous.kind !== 'bullet' && paragraphs.length > 0 && continues) {
      paragraphs[paragraphs.length - 1] += ` ${entry.text}`;
    } else paragraphs.push(entry.text);
    previous = entry;
  }
  const joined = paragraphs.join(' ').trim();
  return joined ? { highlights, summary: joined } : { highlights };
}

const MONTH_WORD = new RegExp(`(?:^|\\s)(?:${Object.keys(MONTHS).join('|')})\\.?$`, 'u');
const DANGLING = /(?:[-–—]|\bto|\ba|\bau|\bate)\s*$/u;

/**
 * A date cut by a narrow cell or box ("Sept. 2016 – Août" over "2018") is put back together:
 * a short next line holding only a year, under the part that ends on a month or a dash, joins it.
 */
function joinDateTails(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const previous = out.at(-1);
    const tail = line.text.trim();
    if (
      previous &&
      line.parts.length === 1 &&
      /^(?:19|20)\d\d$/.test(tail) &&
      previous.page === line.page &&
      previous.column === line.column
    ) {
      const at = previous.parts.findIndex(
        (p) =>
          line.x >= p.x - 2 &&
          line.x <= p.right + 2 &&
          (MONTH_WORD.test(fold(p.text)) || DANGLING.test(fold(p.text))),
      );
      if (at >= 0 && previous.y - line.y <= 1.6 * line.size) {
        const parts = previous.parts.map((p, i) => (i === at ? { ...p, text: `${p.text} ${tail}` } : p));
        out[out.length - 1] = { ...previous, parts, text: parts.map((p) => p.text).join(' | ') };
        continue;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * A header line that ran into the column's edge ("Grupo Azteca | Gerente de Marketing" over
 * "Digital") continues on the next line: the tail joins the last part instead of becoming a
 * piece of its own.
 */
function joinWrappedHeads(lines: EntryLine[]): EntryLine[] {
  const out: EntryLine[] = [];
  for (const entry of lines) {
    const previous = out.at(-1);
    if (
      previous &&
      (previous.kind === 'head' || previous.kind === 'date') &&
      entry.kind === 'head' &&
      entry.line.parts.length === 1 &&
      previous.line.page === entry.line.page &&
      previous.line.column === entry.line.column &&
      wrapsInto(previous.line, entry.line, entry.text) &&
      !/[,.;:|]$/.test(previous.text)
    ) {
      const parts = previous.line.parts.map((p, i, all) =>
        i === all.length - 1 ? { ...p, text: `${p.text} ${entry.text}` } : p,
      );
      const text = parts.map((p) => p.text).join(' | ');
      out[out.length - 1] = { ...previous, text, line: { ...previous.line, parts, text } };
      continue;
    }
    out.push(entry);
  }
  return out;
}

export function prepare(lines: Line[]): { entries: RawEntry[] } {
  const usable = joinDateTails(lines.filter((l) => /\p{L}|\d/u.test(l.text)));
  if (usable.length === 0) return { entries: [] };
  return { entries: splitBlocks(joinWrappedHeads(classify(usable))) };
}
