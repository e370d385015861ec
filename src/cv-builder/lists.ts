// Skills and languages: list sections written as one item per line, as comma/bullet-separated
// runs, or as "Category: a, b, c". Lines that wrapped are joined before splitting so an item cut
// by the margin ("domain-driven / design") stays whole.

import { type Line, wrapsInto } from './layout.ts';
import { LANGUAGE_NAMES } from './lexicon.ts';
import { clamp01, normKey, trimPunct, words } from './text.ts';
import type { VirtualCvLanguage, VirtualCvSkill } from './types.ts';

const BULLET = /^\s*(?:[•●▪■◦‣∙○◆►▸➢➤✓✔√★⦁⚬\uf0b7\uf0a7]|[-–*](?=\s))\s*/u;

/** The section's text as logical lines: wrapped lines joined, bullets stripped. */
function logicalLines(lines: Line[]): string[] {
  const out: string[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    const text = line.text.replace(BULLET, '').trim();
    if (!text) continue;
    const last = out.at(-1) ?? '';
    const opensItem = BULLET.test(line.text) || CATEGORY.test(text);
    const wrapped = previous !== undefined && wrapsInto(previous, line, text) && !/[,;·•|]$/.test(last);
    const dangling = previous !== undefined && /[,;]$/.test(last);
    if (out.length > 0 && !opensItem && (wrapped || dangling)) out[out.length - 1] += ` ${text}`;
    else out.push(text);
    previous = line;
  }
  return out;
}

/** Splits at commas, semicolons, bullets and bars, but never inside parentheses. */
export function splitItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    if (depth === 0 && /[,;·•|∙●▪]/u.test(ch)) {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items.map((i) => trimPunct(i.replace(/\.$/, ''))).filter((i) => i.length > 0);
}

const CATEGORY = /^([^:]{2,40}):\s*(.+)$/u;

export function extractSkills(lines: Line[]): VirtualCvSkill[] {
  const skills: VirtualCvSkill[] = [];
  const seen = new Set<string>();
  const add = (skill: VirtualCvSkill) => {
    const k = normKey(skill.name);
    if (!k || seen.has(k)) return;
    seen.add(k);
    skills.push(skill);
  };
  for (const text of logicalLines(lines.flatMap(splitParts))) {
    const category = CATEGORY.exec(text);
    if (category && words(category[1]!).length <= 4) {
      const keywords = splitItems(category[2]!).filter((k) => words(k).length <= 6);
      if (keywords.length > 0) {
        add({ name: trimPunct(category[1]!), keywords, x: { confidence: 0.8 } });
        continue;
      }
    }
    for (const item of splitItems(text)) {
      const n = words(item).length;
      // Long phrases are sentences about skills, not skills.
      if (n > 6) continue;
      const level = /^(.*?)\s*[(:–—-]\s*([^()]+?)\)?$/u.exec(item);
      const name = level && FLUENCY_OR_LEVEL.test(level[2]!) ? level[1]! : item;
      add({
        name: trimPunct(name),
        ...(level && FLUENCY_OR_LEVEL.test(level[2]!) ? { level: trimPunct(level[2]!) } : {}),
        x: { confidence: clamp01(n <= 3 ? 0.8 : 0.6) },
      });
    }
  }
  return skills;
}

const FLUENCY_OR_LEVEL =
  /^(?:expert|advanced|intermediate|basic|beginner|proficient|avanzado|intermedio|b[aá]sico|experto|avanc[ée]|interm[ée]diaire|d[ée]butant|expert|avan[cç]ado|intermedi[aá]rio|\d(?:\/\d+)?|\d+\s*(?:years?|a[ñn]os|ans|anos)|[abc][12])$/iu;

// Parts of one line (wide gaps) are separate items in a list section.
function splitParts(line: Line): Line[] {
  if (line.parts.length <= 1) return [line];
  return line.parts.map((p) => ({ ...line, text: p.text, x: p.x, right: p.right, parts: [p] }));
}

const CEFR = /\b([ABC][12])\b/;
const NATIVE =
  /\b(?:native|mother tongue|nativ[oa]|lengua materna|natif|native|langue maternelle|l[ií]ngua materna|materna)\b/iu;

const MAX_LANGUAGE_ITEM = 120;

/** "English (native)", "Inglés: C1", "Français – courant", "Português — nativo". */
export function parseLanguage(item: string): VirtualCvLanguage | undefined {
  // A language and its level fit in a few words; a longer item is a sentence, and the patterns
  // below cost the square of its length.
  if (item.length > MAX_LANGUAGE_ITEM) return undefined;
  const m = /^([\p{L}][\p{L}\s'’-]*?)\s*(?:([(:–—-])\s*(.*))?$/u.exec(item.trim());
  if (!m) return undefined;
  let name = m[1]!.trim();
  let fluency = m[2] === '(' ? m[3]?.replace(/\)\s*$/, '').trim() : m[3]?.trim();
  // "English native" without punctuation: the known language is the head.
  const tokens = words(name);
  if (!fluency && tokens.length >= 2) {
    for (let cut = tokens.length - 1; cut >= 1; cut--) {
      const head = tokens.slice(0, cut).join(' ');
      if (LANGUAGE_NAMES[normKey(head)]) {
        name = head;
        fluency = tokens.slice(cut).join(' ');
        break;
      }
    }
  }
  const code = LANGUAGE_NAMES[normKey(name)];
  if (!code && (words(name).length > 3 || !/^\p{Lu}/u.test(name))) return undefined;
  const language: VirtualCvLanguage = { language: name, x: { confidence: code ? 0.9 : 0.5 } };
  if (code) language.x.code = code;
  if (fluency) {
    language.fluency = trimPunct(fluency);
    const cefr = CEFR.exec(fluency)?.[1] as VirtualCvLanguage['x']['cefr'] | undefined;
    if (cefr) language.x.cefr = cefr;
    else if (NATIVE.test(fluency)) language.x.cefr = 'native';
  }
  return language;
}

export function extractLanguages(lines: Line[]): VirtualCvLanguage[] {
  const out: VirtualCvLanguage[] = [];
  const seen = new Set<string>();
  for (const text of logicalLines(lines.flatMap(splitParts))) {
    for (const item of splitItems(text)) {
      const language = parseLanguage(item);
      if (!language) continue;
      const k = normKey(language.language);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(language);
    }
  }
  return out;
}

/** True when every item of a list is a known natural language (a "Languages:" skills line). */
export function allLanguages(items: string[]): boolean {
  return (
    items.length > 0 &&
    items.every((i) => {
      const parsed = parseLanguage(i);
      return parsed?.x.code !== undefined;
    })
  );
}
