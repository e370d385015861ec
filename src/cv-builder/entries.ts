// Work and education entries, anchored on their dates. OpenResume splits a section into entries
// by line spacing and takes the first bold line as the company; that loses roles when spacing is
// even and confuses title and employer. Here an entry starts where a header follows a
// description, or after a wider gap; a run of headers holding several date lines is then cut so
// each date gets the lines around it, using where the date sat in the run's first entry.
// Title vs employer (and degree vs school) is decided per piece by lexicon scores, then by the
// style and order the CV used for the pieces that were clear.

import { type DateRange, findDateRange } from './dates.ts';
import { type Line, wrapsInto } from './layout.ts';
import {
  CITIES,
  COMPANY_WORDS,
  COUNTRIES,
  DEGREE_WORDS,
  INSTITUTION_WORDS,
  JOB_TITLE_WORDS,
  MONTHS,
  REGION_CODES,
  SENIORITY_WORDS,
} from './lexicon.ts';
import { clamp01, fold, median, normKey, phraseMatcher, trimPunct, words } from './text.ts';
import type { EducationField, FieldMeta, VirtualCvEducation, VirtualCvWork, WorkField } from './types.ts';

const BULLET = /^\s*(?:[•●▪■◦‣∙○◆◇►▸▹➢➤✓✔√★☐□⦁⚬\uf0b7\uf0a7\uf076\uf0d8\uf0fc]|[-–*>](?=\s))\s*/u;

type LineKind = 'bullet' | 'date' | 'desc' | 'head';

interface EntryLine {
  line: Line;
  kind: LineKind;
  text: string;
  glyph: boolean;
  date?: DateRange;
}

interface RawEntry {
  head: EntryLine[];
  body: EntryLine[];
}

interface Piece {
  text: string;
  bold: boolean;
  italic: boolean;
  order: number;
  /** Text that came after an "at"/"chez"/"@" marker, so an employer. */
  afterMarker: boolean;
}

const key = (text: string) => fold(text).replace(/[’`´]/g, "'");

const MATCHERS = new Map<readonly string[], (text: string) => boolean>();

function hasAnyWord(text: string, list: readonly string[]): boolean {
  let matcher = MATCHERS.get(list);
  if (!matcher) {
    matcher = phraseMatcher(list);
    MATCHERS.set(list, matcher);
  }
  return matcher(text);
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

function isPlace(text: string): boolean {
  const k = normKey(text);
  if (CITIES[k] || COUNTRIES[k]) return true;
  const parts = text.split(/\s*,\s*/);
  if (parts.length >= 2 && parts.slice(1).every((p) => REGION_CODES[p.trim()] || COUNTRIES[normKey(p)]))
    return true;
  return (
    parts.length >= 2 && parts.some((p) => CITIES[normKey(p)]) && parts.every((p) => words(p).length <= 3)
  );
}

/** Splits an entry's header lines into pieces at separators, dropping the date text. */
function pieces(head: EntryLine[]): { pieces: Piece[]; location?: string } {
  const out: Piece[] = [];
  const places: string[] = [];
  let order = 0;
  for (const entry of head) {
    for (const part of entry.line.parts) {
      let text = part.text.replace(BULLET, '');
      const date = entry.date && text.includes(entry.date.raw) ? entry.date : undefined;
      if (date) text = text.replace(date.raw, ' | ');
      else if (entry.date) {
        const own = findDateRange(text);
        if (own) text = text.slice(0, own.from) + ' | ' + text.slice(own.to);
      }
      const chunks = text.split(/\s+(?:\||·|•|—|–|-|\/\/)\s+|\s*[|·•—]\s*|\t/u);
      for (const chunk of chunks) {
        // "Data Engineer at Acme" / "Ingénieur chez Acme": the employer follows the marker.
        const marker = /^(.*?\S)\s+(?:at|@|chez|na|no|em)\s+(\p{Lu}.*)$/u.exec(chunk.trim());
        const halves = marker && hasAnyWord(marker[1]!, JOB_TITLE_WORDS) ? [marker[1]!, marker[2]!] : [chunk];
        for (const [h, half] of halves.entries()) {
          for (const piece of splitCommas(half)) {
            const text = trimPunct(piece);
            if (!text || !/\p{L}/u.test(text)) continue;
            if (isPlace(text)) {
              places.push(text);
              continue;
            }
            out.push({
              text,
              bold: part.boldShare >= 0.6,
              italic: part.italicShare >= 0.6,
              order: order++,
              afterMarker: halves.length === 2 && h === 1,
            });
          }
        }
      }
    }
  }
  return places.length > 0 ? { pieces: out, location: places.join(', ') } : { pieces: out };
}

/** "Title, Company" and "Company, City" split at the comma; "Caminos, Canales y Puertos" does not. */
function splitCommas(text: string): string[] {
  const fragments = text.split(/\s*,\s+/);
  if (fragments.length === 1) return fragments;
  const out: string[] = [];
  let current = fragments[0]!;
  for (const next of fragments.slice(1)) {
    const nextIsPlace = isPlace(next) || REGION_CODES[next.trim()] !== undefined;
    const titleThenOther =
      hasAnyWord(current, JOB_TITLE_WORDS) &&
      !hasAnyWord(next, JOB_TITLE_WORDS) &&
      !hasAnyWord(current, DEGREE_WORDS);
    const degreeThenSchool = hasAnyWord(current, DEGREE_WORDS) && hasAnyWord(next, INSTITUTION_WORDS);
    const companyThenTown =
      hasAnyWord(current, COMPANY_WORDS) &&
      words(next).length <= 3 &&
      /^\p{Lu}/u.test(next) &&
      !hasAnyWord(next, COMPANY_WORDS);
    if (nextIsPlace || titleThenOther || degreeThenSchool || companyThenTown) {
      out.push(current);
      current = next;
    } else current = `${current}, ${next}`;
  }
  out.push(current);
  // "Portland, OR" was split above; put region codes back with their town.
  const merged: string[] = [];
  for (const piece of out) {
    if (REGION_CODES[piece.trim()] && merged.length > 0) merged[merged.length - 1] += `, ${piece.trim()}`;
    else merged.push(piece);
  }
  return merged;
}

function titleScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, JOB_TITLE_WORDS)) score += 3;
  if (hasAnyWord(p.text, SENIORITY_WORDS)) score += 1;
  if (hasAnyWord(p.text, COMPANY_WORDS)) score -= 2;
  if (p.afterMarker) score -= 3;
  if (words(p.text).length > 8) score -= 2;
  return score;
}

function employerScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, COMPANY_WORDS)) score += 3;
  if (p.afterMarker) score += 3;
  if (hasAnyWord(p.text, JOB_TITLE_WORDS)) score -= 3;
  if (/^\p{Lu}/u.test(p.text)) score += 0.5;
  return score;
}

interface Assignment<T> {
  first?: Piece;
  second?: Piece;
  margin: number;
  rest: Piece[];
  entry: T;
}

/**
 * Picks the piece for each of two roles (title/employer, degree/school). Entries whose scores
 * leave it open follow the style (bold, italic) and order that the clear entries showed.
 */
function assign<T>(
  list: { pieces: Piece[]; entry: T }[],
  scoreFirst: (p: Piece) => number,
  scoreSecond: (p: Piece) => number,
): Assignment<T>[] {
  const results: Assignment<T>[] = list.map(({ pieces, entry }) => {
    if (pieces.length === 0) return { margin: 0, rest: [], entry };
    let best: Assignment<T> = { margin: -Infinity, rest: [], entry };
    for (const a of pieces) {
      for (const b of [...pieces.filter((p) => p !== a), undefined]) {
        // Leaving a piece unassigned costs a little: a header's second piece is usually the
        // other role even when its words are ambiguous ("Grupo Comercial Azteca").
        const unassigned = !b && pieces.length > 1 ? -1.5 : 0;
        const margin = scoreFirst(a) - scoreSecond(a) + (b ? scoreSecond(b) - scoreFirst(b) : unassigned);
        if (margin > best.margin) best = { first: a, second: b, margin, rest: [], entry };
      }
    }
    best.rest = pieces.filter((p) => p !== best.first && p !== best.second);
    return best;
  });

  // Learn how the clear entries set the first role: bold? italic? before the second?
  const clear = results.filter((r) => r.first && r.second && r.margin >= 3);
  const vote = (f: (r: Assignment<T>) => boolean) => clear.filter(f).length / (clear.length || 1);
  const boldFirst = vote((r) => r.first!.bold && !r.second!.bold);
  const italicSecond = vote((r) => r.second!.italic && !r.first!.italic);
  const firstBefore = clear.length ? vote((r) => r.first!.order < r.second!.order) : 1;
  for (const r of results) {
    if (r.margin >= 3 || !r.first) continue;
    const all = [r.first, ...(r.second ? [r.second] : []), ...r.rest];
    if (all.length < 2) continue;
    const styleScore = (p: Piece) =>
      (p.bold ? boldFirst : 0) +
      (p.italic ? -italicSecond : 0) +
      (firstBefore >= 0.5 ? -p.order : p.order) * 0.1;
    const ranked = [...all].sort(
      (a, b) =>
        styleScore(b) + scoreFirst(b) - scoreSecond(b) - (styleScore(a) + scoreFirst(a) - scoreSecond(a)),
    );
    r.first = ranked[0];
    r.second = ranked.find((p) => p !== r.first);
    r.rest = all.filter((p) => p !== r.first && p !== r.second);
    r.margin = Math.min(r.margin, 2);
  }
  return results;
}

/** Surer when the two roles' scores were far apart and the piece had evidence of its own. */
function pieceConfidence(margin: number, ownScore: number): number {
  return 0.55 + Math.min(0.4, Math.max(-0.3, margin * 0.05)) + (ownScore > 0 ? 0.05 : -0.1);
}

function meta(confidence: number, page: number, raw?: string): FieldMeta {
  return { confidence: clamp01(confidence), origin: 'text', page, ...(raw ? { raw } : {}) };
}

/** Joins wrapped bullet lines: a new bullet starts at a glyph, or at a line after one that did not wrap. */
function bodyText(body: EntryLine[]): { highlights: string[]; summary?: string } {
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

function dateFields(
  date: DateRange | undefined,
  single: 'both' | 'end',
): { startDate?: string; endDate?: string; isCurrent: boolean } {
  if (!date) return { isCurrent: false };
  if (date.kind === 'single') {
    return single === 'both'
      ? { startDate: date.end!, endDate: date.end!, isCurrent: false }
      : { endDate: date.end!, isCurrent: false };
  }
  return {
    ...(date.start ? { startDate: date.start } : {}),
    ...(date.end && !date.isCurrent ? { endDate: date.end } : {}),
    isCurrent: date.isCurrent,
  };
}

function dateConfidence(date: DateRange): number {
  return date.kind === 'range' ? (date.hasMonth ? 0.92 : 0.85) : date.kind === 'open' ? 0.75 : 0.65;
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

function prepare(lines: Line[]): { entries: RawEntry[] } {
  const usable = joinDateTails(lines.filter((l) => /\p{L}|\d/u.test(l.text)));
  if (usable.length === 0) return { entries: [] };
  return { entries: splitBlocks(joinWrappedHeads(classify(usable))) };
}

export function extractWork(lines: Line[]): VirtualCvWork[] {
  const { entries } = prepare(lines);
  const withPieces = entries.map((entry) => ({ ...pieces(entry.head), entry }));
  const assigned = assign(withPieces, titleScore, employerScore);
  const out: VirtualCvWork[] = [];
  for (const [i, a] of assigned.entries()) {
    const { entry } = a;
    const dateLine = entry.head.find((l) => l.date);
    const date = dateLine?.date;
    const page = entry.head[0]?.line.page ?? entry.body[0]?.line.page ?? 1;
    const body = bodyText(entry.body);
    // An entry with neither a date nor a title-like piece is leftover text, not a role.
    if (!date && !(a.first && titleScore(a.first) > 0)) {
      if (out.length > 0 && entry.body.length > 0) out.at(-1)!.highlights.push(...body.highlights);
      continue;
    }
    const fields: Partial<Record<WorkField, FieldMeta>> = {};
    const work: VirtualCvWork = { highlights: body.highlights, isCurrent: false, x: { fields } };
    if (a.first) {
      work.position = a.first.text;
      fields.position = meta(pieceConfidence(a.margin, titleScore(a.first)), page);
    }
    if (a.second) {
      work.name = a.second.text;
      fields.name = meta(pieceConfidence(a.margin, employerScore(a.second)), page);
    }
    const location = withPieces[i]!.location;
    if (location) {
      work.location = location;
      fields.location = meta(0.7, page);
    }
    const dates = dateFields(date, 'both');
    if (dates.startDate) {
      work.startDate = dates.startDate;
      fields.startDate = meta(dateConfidence(date!), page, date!.raw);
    }
    if (dates.endDate) {
      work.endDate = dates.endDate;
      fields.endDate = meta(dateConfidence(date!), page, date!.raw);
    }
    work.isCurrent = dates.isCurrent;
    if (body.summary) work.summary = body.summary;
    out.push(work);
  }
  return out;
}

const CONNECTOR = /^(?:of|in|on|en|em|de|del|da|do|des|du|in|:|-|–|—)\s+/iu;

/** "Bachelor of Information Technology" → studyType "Bachelor", area "Information Technology". */
export function splitQualification(text: string): { studyType?: string; area?: string } {
  const k = key(text);
  let best: string | undefined;
  for (const word of DEGREE_WORDS) {
    if (
      (k.startsWith(`${word} `) || k === word || k.startsWith(`${word}'`)) &&
      (!best || word.length > best.length)
    )
      best = word;
  }
  if (!best) return { studyType: text };
  const studyType = text.slice(0, best.length).trim();
  const area = trimPunct(
    text
      .slice(best.length)
      .trim()
      .replace(CONNECTOR, '')
      .replace(/^\((.*)\)$/, '$1'),
  );
  return area ? { studyType, area } : { studyType };
}

function degreeScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, DEGREE_WORDS)) score += 4;
  if (hasAnyWord(p.text, INSTITUTION_WORDS)) score -= 3;
  return score;
}

function schoolScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, INSTITUTION_WORDS)) score += 4;
  if (hasAnyWord(p.text, DEGREE_WORDS)) score -= 3;
  if (/^\p{Lu}/u.test(p.text)) score += 0.5;
  return score;
}

export function extractEducation(lines: Line[]): VirtualCvEducation[] {
  const { entries } = prepare(lines);
  const withPieces = entries.map((entry) => ({ ...pieces(entry.head), entry }));
  const assigned = assign(withPieces, degreeScore, schoolScore);
  const out: VirtualCvEducation[] = [];
  for (const a of assigned) {
    const { entry } = a;
    const date = entry.head.find((l) => l.date)?.date;
    const page = entry.head[0]?.line.page ?? 1;
    if (!date && !a.first) continue;
    if (!date && !(a.first && (degreeScore(a.first) > 0 || schoolScore(a.first) > 0))) continue;
    const fields: Partial<Record<EducationField, FieldMeta>> = {};
    const education: VirtualCvEducation = { isCurrent: false, x: { fields } };
    if (a.first) {
      const { studyType, area } = splitQualification(a.first.text);
      const c = meta(pieceConfidence(a.margin, degreeScore(a.first)), page, a.first.text);
      if (studyType) {
        education.studyType = studyType;
        fields.studyType = c;
      }
      if (area) {
        education.area = area;
        fields.area = c;
      }
    }
    if (a.second) {
      education.institution = a.second.text;
      fields.institution = meta(pieceConfidence(a.margin, schoolScore(a.second)), page);
    }
    const dates = dateFields(date, 'end');
    if (dates.startDate) {
      education.startDate = dates.startDate;
      fields.startDate = meta(dateConfidence(date!), page, date!.raw);
    }
    if (dates.endDate) {
      education.endDate = dates.endDate;
      fields.endDate = meta(dateConfidence(date!), page, date!.raw);
    }
    education.isCurrent = dates.isCurrent;
    out.push(education);
  }
  return out;
}
