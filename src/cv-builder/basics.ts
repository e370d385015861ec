// The CV's basics (name, email, phone, links, place, headline, summary), found in the lines of
// the header and the whole text, with the application's name and email as a prior.

import {
  contactPieces,
  EMAIL_RE,
  findEmails,
  findLinks,
  findPhones,
  type LinkCandidate,
  type LocationCandidate,
  linkKey,
  parseLocation,
} from './contact.ts';
import type { Line } from './layout.ts';
import { JOB_TITLE_WORDS } from './lexicon.ts';
import { matchHeading, type Section } from './sections.ts';
import {
  clamp01,
  collapseLetterSpacing,
  isAllCaps,
  normKey,
  phraseMatcher,
  titleCaseName,
  words,
} from './text.ts';
import type { CvPrior, FieldMeta, VirtualCvBasics, VirtualCvProfile } from './types.ts';

function field(
  confidence: number,
  page?: number,
  raw?: string,
  origin: FieldMeta['origin'] = 'text',
): FieldMeta {
  return { confidence: clamp01(confidence), origin, ...(page ? { page } : {}), ...(raw ? { raw } : {}) };
}

export function fillFromPrior(basics: VirtualCvBasics, prior: CvPrior, warnings: string[]): void {
  if (!basics.name && prior.name) {
    basics.name = prior.name;
    basics.x.fields.name = field(0.5, undefined, undefined, 'prior');
    warnings.push('name_from_application');
  }
  if (!basics.email && prior.email) {
    basics.email = prior.email;
    basics.x.fields.email = field(0.5, undefined, undefined, 'prior');
    warnings.push('email_from_application');
  }
}

export function extractBasics(
  basics: VirtualCvBasics,
  lines: Line[],
  headerLines: Line[],
  summarySections: Section[],
  prior: CvPrior,
  warnings: string[],
): void {
  const inHeader = new Set(headerLines);
  const nameLine = findName(basics, lines, prior, warnings);
  findEmail(basics, lines, inHeader, prior, warnings);
  findPhone(basics, lines, inHeader);
  findLinksInto(basics, lines, inHeader);
  findLocation(basics, headerLines, nameLine);
  findLabel(basics, lines, nameLine);
  findSummary(basics, summarySections, headerLines);
  fillFromPrior(basics, prior, warnings);
}

const isJobTitle = phraseMatcher(JOB_TITLE_WORDS);

// Document titles that sit where the name usually does.
const NOT_A_NAME = /^(?:curriculum vitae|curriculum|vitae|cv|resume|curriculo|hoja de vida|lebenslauf)$/;

const NAME_TOKEN = /^[\p{L}][\p{L}'’.-]*$/u;

function findName(
  basics: VirtualCvBasics,
  lines: Line[],
  prior: CvPrior,
  warnings: string[],
): Line | undefined {
  const page1 = lines.filter((l) => l.page === 1);
  if (page1.length === 0) return undefined;
  const top = [...page1].sort((a, b) => b.y - a.y).slice(0, 12);
  const early = page1.slice(0, 15);
  const candidates = [...new Set([...top, ...early])];
  const maxSize = Math.max(...page1.map((l) => l.size));
  const bodySize = [...page1.map((l) => l.size)].sort((a, b) => a - b)[page1.length >> 1] ?? 10;
  const priorTokens = prior.name ? words(normKey(prior.name)) : [];

  let best: { line: Line; text: string; score: number; priorMatch: boolean } | undefined;
  for (const line of candidates) {
    for (const part of line.parts) {
      const text = collapseLetterSpacing(part.text.trim()).replace(/[,;:]$/, '');
      const tokens = words(text);
      if (tokens.length === 0 || tokens.length > 5 || text.length > 70) continue;
      if (!tokens.every((t) => NAME_TOKEN.test(t) && t.length <= 30)) continue;
      if (matchHeading(text) || NOT_A_NAME.test(normKey(text))) continue;
      let score = tokens.length >= 2 ? 3 : 0.5;
      if (part.size >= maxSize - 0.1) score += 4;
      else if (part.size >= bodySize * 1.25) score += 2;
      if (part.boldShare >= 0.6) score += 1;
      if (isAllCaps(text)) score += 0.5;
      if (isJobTitle(text)) score -= 3;
      if (
        tokens.filter(
          (t) => /^\p{Ll}/u.test(t) && !/^(?:de|del|da|das|do|dos|di|du|des|la|le|van|von|y|e)$/u.test(t),
        ).length > 0
      )
        score -= 2;
      if (parseLocation(text)) score -= 3;
      let priorMatch = false;
      if (priorTokens.length > 0) {
        const candidateTokens = words(normKey(text));
        const overlap = candidateTokens.filter((t) => priorTokens.includes(t)).length;
        if (overlap >= Math.min(2, priorTokens.length, candidateTokens.length)) {
          priorMatch = true;
          score += 6;
        }
      }
      if (!best || score > best.score) best = { line, text, score, priorMatch };
    }
  }
  if (!best || best.score < 3) return undefined;
  basics.name = isAllCaps(best.text) ? titleCaseName(best.text) : best.text;
  let confidence = best.priorMatch ? 0.97 : 0.35 + 0.06 * best.score;
  if (priorTokens.length > 0 && !best.priorMatch) {
    warnings.push('name_differs_from_application');
    confidence = Math.min(confidence, 0.5);
  }
  basics.x.fields.name = field(Math.min(confidence, best.priorMatch ? 0.97 : 0.9), best.line.page, best.text);
  return best.line;
}

function findEmail(
  basics: VirtualCvBasics,
  lines: Line[],
  inHeader: Set<Line>,
  prior: CvPrior,
  warnings: string[],
): void {
  const found: { email: string; line: Line }[] = [];
  for (const line of lines) for (const email of findEmails(line.text)) found.push({ email, line });
  if (found.length === 0) return;
  const wanted = prior.email?.toLowerCase();
  const match = wanted ? found.find((f) => f.email.toLowerCase() === wanted) : undefined;
  const chosen = match ?? found.find((f) => inHeader.has(f.line)) ?? found[0]!;
  basics.email = chosen.email;
  let confidence = match ? 0.99 : inHeader.has(chosen.line) ? 0.9 : 0.75;
  if (wanted && !match) {
    // The CV's own address is what the CV says; the application keeps the one it was sent with.
    warnings.push('email_differs_from_application');
    confidence = Math.min(confidence, 0.85);
  }
  basics.x.fields.email = field(confidence, chosen.line.page);
}

function findPhone(basics: VirtualCvBasics, lines: Line[], inHeader: Set<Line>): void {
  let best: { raw: string; score: number; line: Line } | undefined;
  for (const line of lines) {
    const header = inHeader.has(line);
    for (const text of line.parts.map((p) => p.text)) {
      const withoutEmails = text.includes('@') ? text.replace(EMAIL_RE, ' ') : text;
      for (const candidate of findPhones(withoutEmails)) {
        const score = candidate.score + (header ? 2 : 0);
        if (!header && candidate.score < 4) continue;
        if (!best || score > best.score) best = { raw: candidate.raw, score, line };
      }
    }
  }
  if (!best || best.score < 3) return;
  basics.phone = best.raw;
  basics.x.fields.phone = field(0.4 + 0.07 * best.score, best.line.page, best.raw);
}

function findLinksInto(basics: VirtualCvBasics, lines: Line[], inHeader: Set<Line>): void {
  const found: LinkCandidate[] = [];
  for (const [i, line] of lines.entries()) {
    let text = line.text;
    // A link broken at the margin ("linkedin.com/in/example-" + "name") is joined back.
    const next = lines[i + 1];
    if (
      next &&
      next.column === line.column &&
      /[-/_.]$/.test(text) &&
      /^\S+$/.test(next.text) &&
      !next.text.includes('@')
    ) {
      text = `${text}${next.text}`;
    }
    const links = findLinks(text);
    for (const link of links) {
      if (!inHeader.has(line) && !link.network && !/^(?:https?:\/\/|www\.)/i.test(link.url)) continue;
      found.push(link);
    }
  }
  const seen = new Set<string>();
  for (const link of found) {
    const k = linkKey(link.url);
    if (seen.has(k) || [...seen].some((s) => s.startsWith(k) || k.startsWith(s))) continue;
    seen.add(k);
    const url = /^https?:\/\//i.test(link.url) ? link.url : `https://${link.url}`;
    if (link.network) {
      const profile: VirtualCvProfile = { network: link.network, url, x: { confidence: 0.9 } };
      if (link.username) profile.username = link.username;
      basics.profiles.push(profile);
    } else if (!basics.url) {
      basics.url = url;
      basics.x.fields.url = field(0.8);
    }
  }
}

function findLocation(basics: VirtualCvBasics, headerLines: Line[], nameLine: Line | undefined): void {
  let best: (LocationCandidate & { line: Line }) | undefined;
  for (const line of headerLines) {
    if (line === nameLine) continue;
    for (const part of line.parts) {
      for (const piece of contactPieces(part.text)) {
        // Whatever else shares the piece (an e-mail, a phone and its label) is not the place.
        let rest = piece.includes('@') ? piece.replace(EMAIL_RE, ' ') : piece;
        for (const link of findLinks(rest)) rest = rest.replace(link.url, ' ');
        rest = rest
          .replace(/(?:\+|00)?\(?\d[\d\s().-]{7,}\d/g, ' ')
          .replace(PHONE_LABEL_WORDS, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        if (!rest) continue;
        const candidate = parseLocation(rest);
        if (candidate && (!best || candidate.score > best.score)) best = { ...candidate, line };
      }
    }
  }
  if (!best) return;
  basics.location = best.location;
  basics.x.fields.location = field(0.45 + 0.07 * best.score, best.line.page, best.raw);
}

const PHONE_LABEL_WORDS =
  /\b(?:tel|t[ée]l|tel[ée]fono|telefone|phone|mobile|mob|cell|celular|m[óo]vil|portable|tlf|tfno|whatsapp|e-?mail|correo|courriel)\b\.?\s*:?/giu;

const CONTACTISH = /@|https?:|www\.|\d{3}|linkedin|github/i;

function findLabel(basics: VirtualCvBasics, lines: Line[], nameLine: Line | undefined): void {
  if (!nameLine) return;
  const below = lines
    .filter(
      (l) =>
        l.page === nameLine.page &&
        // Below the name and overlapping it horizontally; the column tag may differ when a
        // full-width line sits between a header and the columns.
        l.x < nameLine.right &&
        l.right > nameLine.x &&
        l.y < nameLine.y &&
        nameLine.y - l.y <= nameLine.size * 3.5,
    )
    .sort((a, b) => b.y - a.y);
  const line = below[0];
  if (!line || line.parts.length > 1) return;
  // "Marketing Manager · Mexico City · +52 …": a headline may open the contact line.
  const first = contactPieces(line.text)[0] ?? '';
  const text =
    CONTACTISH.test(line.text) && isJobTitle(first) && !parseLocation(first) ? first : line.text.trim();
  const n = words(text).length;
  if (n === 0 || n > 10 || CONTACTISH.test(text) || matchHeading(text) || parseLocation(text)) return;
  if (/[.!?]$/.test(text) && n > 6) return;
  basics.label = text;
  basics.x.fields.label = field(isJobTitle(text) ? 0.85 : 0.65, line.page);
}

function findSummary(basics: VirtualCvBasics, summarySections: Section[], headerLines: Line[]): void {
  const section = summarySections.find((s) => s.lines.length > 0);
  if (section) {
    basics.summary = section.lines
      .map((l) => l.text.replace(/\s+\|\s+/g, ' '))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    basics.x.fields.summary = field(0.85, section.lines[0]!.page);
    return;
  }
  const prose = headerLines.filter((l) => words(l.text).length >= 12 && !CONTACTISH.test(l.text));
  if (prose.length > 0) {
    basics.summary = prose.map((l) => l.text).join(' ');
    basics.x.fields.summary = field(0.5, prose[0]!.page);
  }
}
