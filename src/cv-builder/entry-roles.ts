// An entry's header lines cut into pieces (at separators, commas that part two things, an
// "at"/"chez" marker; places set aside), and the two roles (title and employer, degree and
// school) given to pieces by lexicon scores, then by the style and order the clear entries used.

import { findDateRange } from './dates.ts';
import { BULLET, type EntryLine } from './entry-blocks.ts';
import {
  CITIES,
  COMPANY_WORDS,
  COUNTRIES,
  DEGREE_WORDS,
  INSTITUTION_WORDS,
  JOB_TITLE_WORDS,
  REGION_CODES,
} from './lexicon.ts';
import { normKey, phraseMatcher, trimPunct, words } from './text.ts';

export interface Piece {
  text: string;
  bold: boolean;
  italic: boolean;
  order: number;
  /** Text that came after an "at"/"chez"/"@" marker, so an employer. */
  afterMarker: boolean;
}

const MATCHERS = new Map<readonly string[], (text: string) => boolean>();

export function hasAnyWord(text: string, list: readonly string[]): boolean {
  let matcher = MATCHERS.get(list);
  if (!matcher) {
    matcher = phraseMatcher(list);
    MATCHERS.set(list, matcher);
  }
  return matcher(text);
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
export function pieces(head: EntryLine[]): { pieces: Piece[]; location?: string } {
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

export interface Assignment<T> {
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
export function assign<T>(
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
export function pieceConfidence(margin: number, ownScore: number): number {
  return 0.55 + Math.min(0.4, Math.max(-0.3, margin * 0.05)) + (ownScore > 0 ? 0.05 : -0.1);
}
