// Items → segments → columns → lines, i.e. reading order from positions rather than from the
// order a producer happened to emit its runs (OpenResume trusts emission order, which interleaves
// two-column CVs).
//
// A segment is a horizontal run of items on one baseline whose gaps are no wider than about a
// word space; a wide gap (a tab stop, a right-aligned date, a column gutter) starts a new segment.
// A page has two columns when a vertical strip in its middle stays empty across the rows where
// both sides carry text: the left side is then read before the right one, and full-width rows
// above or below (a header, a footer) keep their place.

import type { PdfPage, PdfTextItem } from '../pdf/types.ts';
import { cleanRun, median } from './text.ts';

export interface Segment {
  page: number;
  x: number;
  right: number;
  /** Baseline, PDF points from the bottom of the page (y grows upwards). */
  y: number;
  /** Font size in points (the size carrying the most characters). */
  size: number;
  text: string;
  /** Share of the characters set in a bold / italic font. */
  boldShare: number;
  italicShare: number;
  fontName: string;
}

/** Where a line sits: 0 full width (or a one-column page), 1 left column, 2 right column. */
export type ColumnTag = 0 | 1 | 2;

export interface Line {
  page: number;
  column: ColumnTag;
  /** Position in reading order over the whole document. */
  index: number;
  x: number;
  right: number;
  y: number;
  size: number;
  bold: boolean;
  italic: boolean;
  fontName: string;
  /** Parts left to right; more than one when the row has wide gaps (tab stops, right-aligned dates). */
  parts: Segment[];
  /** Parts joined with " | " so a later split on separators sees the gaps. */
  text: string;
  /** Distance from the previous line's baseline in the same column and page; 0 for the first. */
  gapAbove: number;
  /** Right edge of the widest line in the same page and column: where text wraps. */
  columnRight: number;
}

/**
 * True when `next` continues `previous` because the text wrapped: the first word of `next` would
 * not have fitted at the end of `previous`, and the text reads on (a lower-case start, or a long
 * line before). Narrow one-item-per-line lists ("Wound care" under "Medication management") are
 * not taken for wrapped text.
 */
export function wrapsInto(previous: Line, next: Line, nextText = next.text): boolean {
  const firstWord = /^\S+/.exec(nextText)?.[0] ?? '';
  const charWidth = nextText.length > 0 ? (next.right - next.x) / nextText.length : next.size * 0.5;
  const noRoom = previous.right + (firstWord.length + 1) * charWidth > previous.columnRight - 1;
  if (!noRoom) return false;
  return /^\p{Ll}/u.test(nextText) || previous.text.split(/\s+/).length >= 4;
}

export interface PageLayout {
  columns: 1 | 2;
  lines: Line[];
}

interface Run {
  x: number;
  right: number;
  y: number;
  size: number;
  text: string;
  bold: boolean;
  italic: boolean;
  fontName: string;
}

// Guards against pathological input. A dense CV page has ~1,500 runs of < 200 characters; more
// is cut rather than parsed, so the cost of a page stays bounded.
const MAX_ITEMS_PER_PAGE = 5_000;
const MAX_RUN_CHARS = 1_000;

export function layoutPages(pages: readonly PdfPage[]): PageLayout[] {
  const widthPerPoint = charWidthRatio(pages);
  const layouts: PageLayout[] = [];
  for (const [pageIndex, page] of pages.entries()) {
    const runs = toRuns(Array.isArray(page?.items) ? page.items : []);
    const segments = toSegments(runs, pageIndex + 1, widthPerPoint);
    layouts.push(orderPage(segments));
  }
  let index = 0;
  for (const layout of layouts) for (const line of layout.lines) line.index = index++;
  return layouts;
}

/** Average glyph width per point of font size: the yardstick for "a word space" and "a gutter". */
function charWidthRatio(pages: readonly PdfPage[]): number {
  const ratios: number[] = [];
  for (const page of pages) {
    const items = Array.isArray(page?.items) ? page.items.slice(0, 2000) : [];
    for (const item of items) {
      const chars = typeof item?.str === 'string' ? item.str.trim().length : 0;
      if (chars >= 3 && item.height > 0 && item.width > 0) ratios.push(item.width / chars / item.height);
    }
  }
  const ratio = median(ratios);
  return ratio > 0.2 && ratio < 1.2 ? ratio : 0.5;
}

function toRuns(items: readonly PdfTextItem[]): Run[] {
  const runs: Run[] = [];
  for (const item of items.slice(0, MAX_ITEMS_PER_PAGE)) {
    if (!item || typeof item.str !== 'string') continue;
    const text = cleanRun(item.str.slice(0, MAX_RUN_CHARS));
    if (text.trim() === '') continue;
    const x = Number(item.x);
    const y = Number(item.y);
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const size = Number.isFinite(item.height) && item.height > 0.5 && item.height < 500 ? item.height : 10;
    const width = Number.isFinite(item.width) ? Math.min(Math.abs(item.width), 5_000) : 0;
    runs.push({
      x,
      right: x + width,
      y,
      size,
      text,
      bold: item.bold === true,
      italic: item.italic === true,
      fontName: typeof item.fontName === 'string' ? item.fontName : '',
    });
  }
  return runs;
}

function toSegments(runs: Run[], page: number, widthPerPoint: number): Segment[] {
  // Rows: runs whose baselines lie within a fraction of the font size of each other.
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Run[][] = [];
  for (const run of sorted) {
    const row = rows.at(-1);
    const first = row?.[0];
    if (row && first && Math.abs(first.y - run.y) <= 0.4 * Math.min(first.size, run.size)) row.push(run);
    else rows.push([run]);
  }

  const segments: Segment[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x);
    let current: Run[] = [];
    for (const run of row) {
      const last = current.at(-1);
      const gapLimit = 1.8 * widthPerPoint * Math.max(last?.size ?? run.size, run.size);
      if (last && run.x - last.right > gapLimit) {
        segments.push(joinRuns(current, page, widthPerPoint));
        current = [];
      }
      current.push(run);
    }
    if (current.length > 0) segments.push(joinRuns(current, page, widthPerPoint));
  }
  return segments;
}

function joinRuns(runs: Run[], page: number, widthPerPoint: number): Segment {
  let text = '';
  let chars = 0;
  let bold = 0;
  let italic = 0;
  const sizeChars = new Map<number, number>();
  const fontChars = new Map<string, number>();
  let previous: Run | undefined;
  for (const run of runs) {
    if (previous) {
      const gap = run.x - previous.right;
      const needsSpace =
        gap > 0.3 * widthPerPoint * run.size && !text.endsWith(' ') && !run.text.startsWith(' ');
      if (needsSpace) text += ' ';
    }
    text += run.text;
    const n = run.text.replace(/\s/g, '').length;
    chars += n;
    if (run.bold) bold += n;
    if (run.italic) italic += n;
    const size = Math.round(run.size * 2) / 2;
    sizeChars.set(size, (sizeChars.get(size) ?? 0) + n);
    fontChars.set(run.fontName, (fontChars.get(run.fontName) ?? 0) + n);
    previous = run;
  }
  return {
    page,
    x: runs[0]!.x,
    right: Math.max(...runs.map((r) => r.right)),
    y: runs[0]!.y,
    size: mostCommon(sizeChars) ?? runs[0]!.size,
    text: text.trim(),
    boldShare: chars ? bold / chars : 0,
    italicShare: chars ? italic / chars : 0,
    fontName: mostCommon(fontChars) ?? '',
  };
}

function mostCommon<K>(counts: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

interface Gutter {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function orderPage(segments: Segment[]): PageLayout {
  const gutter = findGutter(segments);
  if (!gutter) return { columns: 1, lines: toLines(segments, 0) };

  const above: Segment[] = [];
  const below: Segment[] = [];
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const s of segments) {
    if (s.right <= gutter.left + 1) left.push(s);
    else if (s.x >= gutter.right - 1) right.push(s);
    else if (s.y > gutter.top) above.push(s);
    else if (s.y < gutter.bottom) below.push(s);
    // A run crossing the gutter inside the two-column band is rare (findGutter allows very few);
    // reading it with the left column keeps it near its neighbours.
    else left.push(s);
  }
  return {
    columns: 2,
    lines: [...toLines(above, 0), ...toLines(left, 1), ...toLines(right, 2), ...toLines(below, 0)],
  };
}

/**
 * The widest empty vertical strip in the middle 70 % of the text's extent with enough text on both
 * sides over a shared band of rows; undefined for one-column pages.
 */
function findGutter(segments: Segment[]): Gutter | undefined {
  if (segments.length < 8) return undefined;
  const minX = Math.min(...segments.map((s) => s.x));
  const maxX = Math.max(...segments.map((s) => s.right));
  const width = maxX - minX;
  if (!(width > 100)) return undefined;

  const bin = 2;
  const bins = Math.ceil(width / bin) + 1;
  const cover = new Array<number>(bins).fill(0);
  for (const s of segments) {
    const from = Math.max(0, Math.floor((s.x - minX) / bin));
    const to = Math.min(bins - 1, Math.ceil((s.right - minX) / bin));
    for (let i = from; i <= to; i++) cover[i]!++;
  }

  const bodySize = median(segments.map((s) => s.size));
  const allowed = Math.max(1, Math.floor(segments.length * 0.04));
  const lo = Math.floor((0.15 * width) / bin);
  const hi = Math.ceil((0.85 * width) / bin);
  let best: Gutter | undefined;
  let bestScore = 0;
  for (let i = lo; i <= hi; i++) {
    if (cover[i]! > allowed) continue;
    let j = i;
    while (j + 1 <= hi && cover[j + 1]! <= allowed) j++;
    const g0 = minX + i * bin;
    const g1 = minX + (j + 1) * bin;
    i = j;
    if (g1 - g0 < Math.max(8, 0.9 * bodySize)) continue;
    const candidate = checkSides(segments, g0, g1);
    if (candidate && g1 - g0 > bestScore) {
      best = candidate;
      bestScore = g1 - g0;
    }
  }
  return best;
}

function checkSides(segments: Segment[], g0: number, g1: number): Gutter | undefined {
  const left = segments.filter((s) => s.right <= g0 + 1);
  const right = segments.filter((s) => s.x >= g1 - 1);
  if (left.length < 4 || right.length < 4) return undefined;
  const top = Math.min(Math.max(...left.map((s) => s.y)), Math.max(...right.map((s) => s.y)));
  const bottom = Math.max(Math.min(...left.map((s) => s.y)), Math.min(...right.map((s) => s.y)));
  if (top - bottom < 40) return undefined;
  const inBand = (s: Segment) => s.y <= top + 1 && s.y >= bottom - 1;
  const leftIn = left.filter(inBand);
  const rightIn = right.filter(inBand);
  if (leftIn.length < 3 || rightIn.length < 3) return undefined;
  const crossing = segments.filter((s) => s.right > g0 + 1 && s.x < g1 - 1 && inBand(s));
  if (crossing.length > Math.max(1, 0.03 * (leftIn.length + rightIn.length))) return undefined;

  // A narrow side made mostly of dates or labels that sit on the same rows as the other side is
  // a table (dates left of roles, "Email" left of the address), to be read row by row.
  for (const [narrow, wide] of [
    [leftIn, rightIn],
    [rightIn, leftIn],
  ] as const) {
    const sameRow = narrow.filter((s) => wide.some((w) => Math.abs(w.y - s.y) <= 0.4 * s.size)).length;
    const datey = narrow.filter((s) => /\b(?:19|20)\d\d\b/.test(s.text) && s.text.length <= 40).length;
    if (sameRow / narrow.length > 0.6 && datey / narrow.length > 0.5) return undefined;
  }
  return { left: g0, right: g1, top, bottom };
}

/** Groups a column's segments into lines (segments on one baseline), top to bottom. */
function toLines(segments: Segment[], column: ColumnTag): Line[] {
  const sorted = [...segments].sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: Segment[][] = [];
  for (const s of sorted) {
    const row = rows.at(-1);
    const first = row?.[0];
    if (row && first && Math.abs(first.y - s.y) <= 0.4 * Math.min(first.size, s.size)) row.push(s);
    else rows.push([s]);
  }
  const lines: Line[] = [];
  let previousY: number | undefined;
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x);
    const chars = row.reduce((n, s) => n + s.text.length, 0) || 1;
    const share = (f: (s: Segment) => number) => row.reduce((n, s) => n + f(s) * s.text.length, 0) / chars;
    const main = row.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    lines.push({
      page: row[0]!.page,
      column,
      index: 0,
      x: row[0]!.x,
      right: Math.max(...row.map((s) => s.right)),
      y: row[0]!.y,
      size: Math.max(...row.map((s) => s.size)),
      bold: share((s) => s.boldShare) >= 0.6,
      italic: share((s) => s.italicShare) >= 0.6,
      fontName: main.fontName,
      parts: row,
      text: row.map((s) => s.text).join(' | '),
      gapAbove: previousY === undefined ? 0 : previousY - row[0]!.y,
      columnRight: 0,
    });
    previousY = row[0]!.y;
  }
  const columnRight = Math.max(0, ...lines.map((l) => l.right));
  for (const line of lines) line.columnRight = columnRight;
  return lines;
}
