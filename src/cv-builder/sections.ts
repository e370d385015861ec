// Lines → sections. A heading is scored rather than ruled (OpenResume requires bold + capitals,
// or an English keyword): a dictionary hit in any of the four languages, backed by at least one
// typographic cue (capitals, bold, a larger size, space above, a trailing colon). Once the
// dictionary has shown what headings look like in this CV, other lines set in exactly that style
// are headings too ("PROJECTS", "Volunteering") even when the dictionary lacks the word.

import type { Line } from './layout.ts';
import { HEADINGS } from './lexicon.ts';
import { collapseLetterSpacing, fold, isAllCaps, median, normKey, trimWhile, words } from './text.ts';
import type { CvLanguage, SectionKind } from './types.ts';

export interface Section {
  kind: SectionKind;
  heading?: Line;
  headingText?: string;
  lines: Line[];
}

interface HeadingMatch {
  kind: Exclude<SectionKind, 'header' | 'other'>;
  languages: CvLanguage[];
  exact: boolean;
}

// Folded phrase (and its spaceless form, for letter-spaced headings) → kind and languages.
const PHRASES = new Map<string, { kind: HeadingMatch['kind']; languages: CvLanguage[] }>();
let LONGEST = 1;
for (const [kind, byLanguage] of Object.entries(HEADINGS) as [
  HeadingMatch['kind'],
  Partial<Record<CvLanguage, string[]>>,
][]) {
  for (const [language, phrases] of Object.entries(byLanguage) as [CvLanguage, string[]][]) {
    for (const raw of phrases) {
      const phrase = normKey(raw);
      for (const k of [phrase, phrase.replace(/ /g, '')]) {
        const entry = PHRASES.get(k);
        // The first kind listed for a phrase wins ("formation" is education, not anything else).
        if (entry && entry.kind !== kind) continue;
        if (entry) entry.languages.push(language);
        else PHRASES.set(k, { kind, languages: [language] });
      }
      LONGEST = Math.max(LONGEST, phrase.split(' ').length);
    }
  }
}

const HEADING_TAIL = /[\s:.\-–—|]/u;

/** Strips numbering, icons and trailing colons: "02. Expérience :" → "Expérience". */
export function headingCore(text: string): string {
  return trimWhile(collapseLetterSpacing(text.trim()).replace(/^[^\p{L}]+/u, ''), null, HEADING_TAIL).trim();
}

export function matchHeading(text: string): HeadingMatch | undefined {
  const core = headingCore(text);
  if (core.length === 0 || core.length > 48 || /[\d@/]/.test(core)) return undefined;
  const key = normKey(core);
  const tokens = words(key);
  if (tokens.length === 0 || tokens.length > 5) return undefined;
  const whole = PHRASES.get(key) ?? PHRASES.get(key.replace(/ /g, ''));
  if (whole) return { kind: whole.kind, languages: [...new Set(whole.languages)], exact: true };
  // A phrase plus at most two extra words ("Relevant Experience", "Expérience en France");
  // the longest phrase wins so "experiencia laboral" beats "experiencia".
  for (let n = Math.min(LONGEST, tokens.length); n >= 1; n--) {
    if (tokens.length - n > 2) break;
    for (let i = 0; i + n <= tokens.length; i++) {
      const hit = PHRASES.get(tokens.slice(i, i + n).join(' '));
      if (hit) return { kind: hit.kind, languages: [...new Set(hit.languages)], exact: false };
    }
  }
  return undefined;
}

interface Style {
  font: string;
  size: number;
  caps: boolean;
  bold: boolean;
}

function styleOf(line: Line): Style {
  return { font: line.fontName, size: line.size, caps: isAllCaps(line.text), bold: line.bold };
}

function sameStyle(a: Style, b: Style): boolean {
  return a.font === b.font && Math.abs(a.size - b.size) <= 0.3 && a.caps === b.caps && a.bold === b.bold;
}

export interface SectionResult {
  sections: Section[];
  language?: CvLanguage;
  bodySize: number;
}

/**
 * Cuts the lines into sections, in steps: the headings the dictionary knows (with their languages'
 * votes), the lines styled like them (headings of kinds not tracked), the cut itself, and the
 * CV's language by the votes.
 */
export function findSections(lines: Line[], fallbackLanguage?: CvLanguage): SectionResult {
  const bodySize = median(lines.flatMap((l) => l.parts.map((p) => p.size))) || 10;
  const { headingKinds, languageVotes } = knownHeadings(lines, bodySize);
  const otherHeadings = styledLikeHeadings(lines, headingKinds, bodySize);
  const sections = cut(lines, headingKinds, otherHeadings, bodySize);
  let language: CvLanguage | undefined;
  let best = 0;
  for (const [candidate, votes] of languageVotes) {
    if (votes > best || (votes === best && candidate === fallbackLanguage)) {
      language = candidate;
      best = votes;
    }
  }
  return {
    sections: sections.filter((s) => s.lines.length > 0 || s.heading),
    language: language ?? fallbackLanguage,
    bodySize,
  };
}

/** Lines that read as a heading of the dictionary and look like one (caps, bold, larger, a gap, a colon). */
function knownHeadings(lines: Line[], bodySize: number) {
  const typicalGap = median(lines.map((l) => l.gapAbove).filter((g) => g > 0)) || bodySize * 1.3;
  const letterParts = (line: Line) => line.parts.filter((p) => /\p{L}/u.test(p.text));
  const cues = (line: Line): number => {
    let score = 0;
    if (isAllCaps(line.text)) score += 1;
    if (line.bold) score += 1;
    if (line.size >= bodySize * 1.1) score += 1;
    if (line.gapAbove >= typicalGap * 1.5) score += 0.5;
    if (/:\s*$/.test(line.text)) score += 0.5;
    return score;
  };
  const headingKinds = new Map<Line, HeadingMatch>();
  const languageVotes = new Map<CvLanguage, number>();
  for (const line of lines) {
    if (letterParts(line).length !== 1) continue;
    const match = matchHeading(letterParts(line)[0]!.text);
    if (!match) continue;
    const score = cues(line);
    if (score < (match.exact ? 0.5 : 1.5)) continue;
    headingKinds.set(line, match);
    for (const language of match.languages)
      languageVotes.set(language, (languageVotes.get(language) ?? 0) + 1 / match.languages.length);
  }
  return { headingKinds, languageVotes };
}

/** Lines styled exactly like the dictionary's headings are headings of a kind we do not track. */
function styledLikeHeadings(
  lines: Line[],
  headingKinds: Map<Line, HeadingMatch>,
  bodySize: number,
): Set<Line> {
  const headingStyles = [...headingKinds.keys()]
    .map(styleOf)
    .filter((s) => s.caps || s.size >= bodySize * 1.05);
  const otherHeadings = new Set<Line>();
  if (headingStyles.length < 2) return otherHeadings;
  for (const line of lines) {
    if (headingKinds.has(line) || line.parts.length !== 1) continue;
    const text = line.text;
    if (words(text).length > 4 || /[\d@]/.test(text) || (text.match(/\p{L}/gu)?.length ?? 0) < 3) continue;
    const style = styleOf(line);
    if (headingStyles.some((s) => sameStyle(s, style))) otherHeadings.add(line);
  }
  return otherHeadings;
}

/** A section opens at each heading, and where a new column opens with header material. */
function cut(
  lines: Line[],
  headingKinds: Map<Line, HeadingMatch>,
  otherHeadings: Set<Line>,
  bodySize: number,
): Section[] {
  const sections: Section[] = [];
  let current: Section = { kind: 'header', lines: [] };
  sections.push(current);
  let previous: Line | undefined;
  for (const line of lines) {
    const match = headingKinds.get(line);
    if (match || otherHeadings.has(line)) {
      current = {
        kind: match ? match.kind : 'other',
        heading: line,
        headingText: headingCore(line.text),
        lines: [],
      };
      sections.push(current);
    } else if (previous && line.column !== previous.column && startsHeader(line, lines, bodySize)) {
      // A sidebar read first must not swallow the main column's top (name, headline, contact).
      current = { kind: 'header', lines: [] };
      sections.push(current);
    }
    if (current.heading !== line) current.lines.push(line);
    previous = line;
  }
  return sections;
}

const CONTACT_HINT = /@|\+?\d[\d\s().-]{7,}\d|https?:|www\.|linkedin|github/i;

/** True when a new column opens with header material: a large line, or contact details. */
function startsHeader(line: Line, lines: Line[], bodySize: number): boolean {
  if (line.page !== 1) return false;
  if (line.size >= bodySize * 1.3) return true;
  const following = lines.slice(line.index, line.index + 4).filter((l) => l.column === line.column);
  return following.some((l) => CONTACT_HINT.test(l.text)) && !fold(line.text).includes('.');
}
