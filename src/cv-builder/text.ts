// Text helpers shared by the builder's stages. Matching is done on a "folded" form (lower case,
// no diacritics) so that "Expérience", "EXPERIENCE" and "experiencia" meet the same dictionary
// entries; the length-preserving fold lets a match found on folded text be cut from the original.

const COMBINING = /\p{M}/gu;

const FOLDED_CHARS = new Map<string, string>();

/** Lower case without diacritics, one output character per input UTF-16 unit where possible. */
export function fold(text: string): string {
  // Most CV text is ASCII; only other characters need the (slow) Unicode decomposition.
  if (/^[\t\n\r -~]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    let folded = FOLDED_CHARS.get(ch);
    if (folded === undefined) {
      const base = ch.normalize('NFD').replace(COMBINING, '').toLowerCase();
      const lower = ch.toLowerCase();
      // Keep the length so indices into the folded string are indices into the original.
      folded = base.length === ch.length ? base : lower.length === ch.length ? lower : ch;
      if (FOLDED_CHARS.size < 4096) FOLDED_CHARS.set(ch, folded);
    }
    out += folded;
  }
  return out;
}

/** Folded, punctuation reduced to spaces, whitespace collapsed: the key for equality tests. */
export function normKey(text: string): string {
  return fold(text)
    .replace(/[’'`´]/g, "'")
    .replace(/[^\p{L}\p{N}'+#]+/gu, ' ')
    .trim();
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** True when the text has at least three letters and none of them is lower case. */
export function isAllCaps(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  return letters.length >= 3 && letters.every((l) => l === l.toUpperCase() && l !== l.toLowerCase());
}

/** "J O H N  D O E" as some templates letter-space names and headings → "JOHN DOE". */
export function collapseLetterSpacing(text: string): string {
  if (!/^(?:[\p{L}\p{N}'’.-][ \u00a0]{1,3}){3,}[\p{L}\p{N}'’.-]$/u.test(text)) return text;
  if ((text.match(/\p{L}/gu)?.length ?? 0) < 3) return text;
  // Wider gaps separate words; single spaces separate letters.
  return text
    .split(/[ \u00a0]{2,}/)
    .map((w) => w.replace(/[ \u00a0]/g, ''))
    .join(' ');
}

const PARTICLES = new Set([
  'de',
  'del',
  'da',
  'das',
  'do',
  'dos',
  'di',
  'du',
  'des',
  'la',
  'le',
  'van',
  'von',
  'y',
  'e',
]);

/** Title case for a name printed in capitals, keeping particles ("del", "da", "van") lower. */
export function titleCaseName(text: string): string {
  return text
    .toLowerCase()
    .split(/(\s+|-|')/)
    .map((part, i) => {
      if (i > 0 && PARTICLES.has(part)) return part;
      return part.charAt(0).toUpperCase() + part.slice(1);
    })
    .join('');
}

// Private-use code points that Word's Symbol and Wingdings fonts use for list bullets.
const PRIVATE_BULLETS = /[\uf0b7\uf0a7\uf076\uf0d8\uf0fc\uf0a8\uf0a2\uf06e\uf0e0]/gu;

/**
 * Cleans a pdf.js run: soft hyphens out, odd spaces to plain spaces, whitespace collapsed.
 * Other private-use glyphs (icon fonts, groff's Symbol bars) carry no text but do separate
 * details on a contact line, so they become a bar.
 */
export function cleanRun(text: string): string {
  const spaced = text
    .normalize('NFC')
    .replace(PRIVATE_BULLETS, '•')
    .replace(/[\ue000-\uf8ff]+/gu, ' | ')
    .replace(/\u00ad/g, '')
    .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000\t]/g, ' ')
    .replace(/[\u200b-\u200d\ufeff]/g, '');
  // Letter spacing is undone before spaces collapse: the wider gaps are the word breaks.
  const core = collapseLetterSpacing(spaced.trim());
  const lead = /^\s/.test(spaced) ? ' ' : '';
  const tail = /\S\s+$/.test(spaced) ? ' ' : '';
  return (lead + core + tail).replace(/\s+/g, ' ');
}

const PUNCT_START = /[\s,;:|·•–—\-/()]/u;
const PUNCT_END = /[\s,;:|·•–—\-/(]/u;

/** Trims spaces and the separators a field can be left with after a cut. */
export function trimPunct(text: string): string {
  return trimWhile(text, PUNCT_START, PUNCT_END).trim();
}

/**
 * Cuts the leading characters `start` matches and the trailing ones `end` matches, each tested
 * alone. `/[…]+$/` does the same but retries at every character of a long run: quadratic.
 * Every class used here holds only single UTF-16 units.
 */
export function trimWhile(text: string, start: RegExp | null, end: RegExp | null): string {
  let from = 0;
  let to = text.length;
  if (start) while (from < to && start.test(text[from]!)) from++;
  if (end) while (to > from && end.test(text[to - 1]!)) to--;
  return text.slice(from, to);
}

export function clamp01(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A matcher for a word list: true when the text holds any entry as whole words. Built once per
 * list (entries folded into a set of n-grams), so a test costs a few set look-ups.
 */
export function phraseMatcher(list: readonly string[]): (text: string) => boolean {
  const set = new Set<string>();
  let longest = 1;
  for (const entry of list) {
    const k = normKey(entry);
    if (!k) continue;
    set.add(k);
    longest = Math.max(longest, k.split(' ').length);
  }
  return (text: string) => {
    const tokens = normKey(text).split(' ').filter(Boolean);
    for (let n = 1; n <= longest; n++) {
      for (let i = 0; i + n <= tokens.length; i++) {
        if (set.has(n === 1 ? tokens[i]! : tokens.slice(i, i + n).join(' '))) return true;
      }
    }
    return false;
  };
}
