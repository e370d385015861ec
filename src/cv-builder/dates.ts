// Dates as CVs print them, in en/es/fr/pt: month names and abbreviations ("sept. 2017",
// "janvier 2020", "setembro de 2019"), numeric forms (03/2021, 2021-03, 2021-03-15, 15/03/2021),
// bare years, two-digit years ("Mar '19"), and open ends ("Present", "actualidad", "aujourd'hui",
// "Atual", "2020 –", "since 2020"). Output is a partial ISO date only as precise as the text.

import { MONTHS, PRESENT_WORDS } from './lexicon.ts';
import { fold } from './text.ts';
import type { PartialIsoDate } from './types.ts';

export interface DateRange {
  start?: PartialIsoDate;
  end?: PartialIsoDate;
  isCurrent: boolean;
  /** The matched text as printed. */
  raw: string;
  /** Offsets of `raw` in the input. */
  from: number;
  to: number;
  /** 'range' "A – B", 'open' "since A" / "A –", 'single' a lone date. */
  kind: 'range' | 'open' | 'single';
  /** True when at least one end carries a month. */
  hasMonth: boolean;
}

interface Token {
  from: number;
  to: number;
  date?: PartialIsoDate;
  present?: boolean;
}

const alternation = (list: string[]) =>
  [...list]
    .sort((a, b) => b.length - a.length)
    .map((w) =>
      w
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/ /g, '\\s+')
        .replace(/'/g, "['’ ]?"),
    )
    .join('|');

const MONTH = alternation(Object.keys(MONTHS));
const YEAR = '(?:19|20)\\d{2}';
const L = '\\p{L}';

// Order matters: the most specific forms claim their characters first.
const PATTERNS: { re: RegExp; make: (m: RegExpExecArray) => PartialIsoDate | undefined }[] = [
  {
    re: new RegExp(`(?<![\\d.])(${YEAR})[-/.](0[1-9]|1[0-2])[-/.](0[1-9]|[12]\\d|3[01])(?![\\d])`, 'gu'),
    make: (m) => `${m[1]}-${m[2]}-${m[3]}`,
  },
  {
    re: new RegExp(`(?<![\\d./])(0?[1-9]|[12]\\d|3[01])[/.](0?[1-9]|1[0-2])[/.](${YEAR})(?![\\d])`, 'gu'),
    make: (m) => ymd(m[3]!, m[2]!, m[1]!),
  },
  {
    re: new RegExp(
      `(?<!${L})(?:(\\d{1,2})(?:er|o|º)?\\s+(?:de\\s+)?)?(${MONTH})(?!${L})\\.?(?:\\s*(?:de|del|,|/|-)?\\s*)(?:(${YEAR})|['’](\\d{2}))(?!\\d)`,
      'gu',
    ),
    make: (m) => {
      const month = MONTHS[m[2]!.replace(/\s+/g, ' ')];
      const year = m[3] ?? (m[4] ? (Number(m[4]) > 50 ? `19${m[4]}` : `20${m[4]}`) : undefined);
      if (!month || !year) return undefined;
      return m[1] && Number(m[1]) <= 31 ? ymd(year, String(month), m[1]) : `${year}-${pad(month)}`;
    },
  },
  {
    re: new RegExp(`(?<![\\d./-])(${YEAR})[-/.](0[1-9]|1[0-2])(?![\\d]|[-/.]\\d)`, 'gu'),
    make: (m) => `${m[1]}-${m[2]}`,
  },
  {
    re: new RegExp(`(?<![\\d./-])(0?[1-9]|1[0-2])\\s?[-/.]\\s?(${YEAR})(?!\\d)`, 'gu'),
    make: (m) => `${m[2]}-${pad(Number(m[1]))}`,
  },
  {
    re: new RegExp(`(?<![\\d.,/-])(${YEAR})(?![\\d]|[.,]\\d)`, 'gu'),
    make: (m) => m[1],
  },
];

const PRESENT = new RegExp(`(?<!${L})(?:${alternation(PRESENT_WORDS)})(?!${L})`, 'gu');
const RANGE_GAP = /^\s*(?:-{1,2}|–|—|‒|―|~|→|>|\/|to|a|al|au|ate|hasta|until|till|jusqu'?a|a\s+ate)?\s*$/u;
const OPEN_BEFORE = /(?:since|desde|depuis|a partir de|from|des)\s*$/u;
const OPEN_AFTER = /^\s*(?:-|–|—|→)\s*(?:$|[|·•,;)])/u;
const RANGE_PREFIX = /(?:from|de|du|desde|entre|between)\s+$/u;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function ymd(year: string, month: string, day: string): PartialIsoDate | undefined {
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return `${year}-${pad(m)}-${pad(d)}`;
}

function tokens(folded: string): Token[] {
  const taken = new Array<boolean>(folded.length).fill(false);
  const found: Token[] = [];
  const claim = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) if (taken[i]) return false;
    for (let i = from; i < to; i++) taken[i] = true;
    return true;
  };
  for (const { re, make } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(folded); m; m = re.exec(folded)) {
      const date = make(m);
      if (date && claim(m.index, m.index + m[0].length))
        found.push({ from: m.index, to: m.index + m[0].length, date });
    }
  }
  PRESENT.lastIndex = 0;
  for (let m = PRESENT.exec(folded); m; m = PRESENT.exec(folded)) {
    if (claim(m.index, m.index + m[0].length))
      found.push({ from: m.index, to: m.index + m[0].length, present: true });
  }
  return found.sort((a, b) => a.from - b.from);
}

/** The date range (or lone date) a line carries, preferring a full range, then an open one. */
export function findDateRange(text: string): DateRange | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > 400) return undefined;
  const folded = fold(text);
  // The fold keeps lengths for Latin text; anything else is matched as is.
  const source = folded.length === text.length ? folded : text.toLowerCase();
  const found = tokens(source);
  const cut = (from: number, to: number) => text.slice(from, to);

  for (let i = 0; i + 1 < found.length; i++) {
    const a = found[i]!;
    const b = found[i + 1]!;
    if (!a.date || !RANGE_GAP.test(source.slice(a.to, b.from))) continue;
    if (b.date && b.date < a.date) continue;
    const prefix = RANGE_PREFIX.exec(source.slice(0, a.from));
    const from = prefix ? prefix.index : a.from;
    return {
      start: a.date,
      ...(b.date ? { end: b.date } : {}),
      isCurrent: b.present === true,
      raw: cut(from, b.to).trim(),
      from,
      to: b.to,
      kind: 'range',
      hasMonth: a.date.length > 4 || (b.date?.length ?? 0) > 4,
    };
  }
  for (const t of found) {
    if (!t.date) continue;
    const before = OPEN_BEFORE.exec(source.slice(0, t.from));
    const after = OPEN_AFTER.exec(source.slice(t.to));
    if (before || after) {
      const from = before ? before.index : t.from;
      const to = after ? t.to + after[0].replace(/[|·•,;)]$/u, '').length : t.to;
      return {
        start: t.date,
        isCurrent: true,
        raw: cut(from, to).trim(),
        from,
        to,
        kind: 'open',
        hasMonth: t.date.length > 4,
      };
    }
  }
  const single = found.find((t) => t.date);
  if (!single?.date) return undefined;
  return {
    end: single.date,
    isCurrent: false,
    raw: cut(single.from, single.to),
    from: single.from,
    to: single.to,
    kind: 'single',
    hasMonth: single.date.length > 4,
  };
}
