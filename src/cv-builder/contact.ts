// Contact details: e-mail, phone, links and location. OpenResume's patterns are US-only (a
// 10-digit NANP phone, "City, ST"); these accept international and national formats and rely on
// the line's place in the CV (header or contact section first) to rank candidates.

import { AMBIGUOUS_REGIONS, CITIES, COUNTRIES, REGION_CODES } from './lexicon.ts';
import { normKey, trimPunct, trimWhile, words } from './text.ts';
import type { VirtualCvLocation } from './types.ts';

// Bounded quantifiers (RFC 5321's 64-character local part, 63-character labels) keep the scan
// linear on long runs of letters.
export const EMAIL_RE =
  /[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}/gu;

export function findEmails(text: string): string[] {
  // The pattern backtracks over every word of a long line; most lines have no "@" at all.
  if (!text.includes('@')) return [];
  return [...text.matchAll(EMAIL_RE)].map((m) => m[0].replace(/\.$/, ''));
}

// A run of digits with the separators phones use; validated afterwards by digit count and shape.
const PHONE_RE = /(?:\+|00)?\(?\d[\d\s().\-/]{6,22}\d/g;
const PHONE_LABEL =
  /(?:tel|tél|teléfono|telefono|telefone|phone|mobile|mob|cell|celular|móvil|movil|portable|tlf|tfno|whatsapp)\.?\s*:?\s*$/iu;
const LABEL_WINDOW = 40;
const YEAR_RANGE = /^(?:19|20)\d\d\s*[-–/]\s*(?:19|20)?\d\d$/;

export interface PhoneCandidate {
  raw: string;
  digits: string;
  score: number;
}

/** Phone-like runs in a text, each scored by format: an international prefix, a label, grouping. */
export function findPhones(text: string): PhoneCandidate[] {
  const out: PhoneCandidate[] = [];
  for (const m of text.matchAll(PHONE_RE)) {
    const raw = m[0].trim().replace(/[\s.\-/]+$/, '');
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 8 || digits.length > 15) continue;
    if (YEAR_RANGE.test(raw) || /^(?:19|20)\d\d\b.*\b(?:19|20)\d\d$/.test(raw.replace(/\s/g, ' '))) {
      if (!raw.startsWith('+') && !raw.startsWith('(')) continue;
    }
    // Dates such as 01/02/2020 and decimals are not phones.
    if (/^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$/.test(raw) || /^\d+[.,]\d+$/.test(raw)) continue;
    // A label sits just before the number; the window keeps the tests below off a long prefix.
    const before = text.slice(Math.max(0, (m.index ?? 0) - LABEL_WINDOW), m.index ?? 0);
    // Glued to letters or to more digits (an ID, an IBAN) it is not a phone.
    if (/[\p{L}\d]$/u.test(before)) continue;
    let score = 1;
    if (raw.startsWith('+') || raw.startsWith('00')) score += 3;
    if (/^\(\d{1,4}\)/.test(raw)) score += 1.5;
    if (PHONE_LABEL.test(before)) score += 3;
    const groups = raw.split(/[\s.\-/()]+/).filter(Boolean);
    if (groups.length >= 2 && groups.length <= 6) score += 1;
    if (digits.length >= 9 && digits.length <= 13) score += 1;
    out.push({ raw, digits, score });
  }
  return out;
}

const NETWORKS: [RegExp, string][] = [
  [/linkedin\.com/i, 'LinkedIn'],
  [/github\.com/i, 'GitHub'],
  [/gitlab\.com/i, 'GitLab'],
  [/bitbucket\.org/i, 'Bitbucket'],
  [/(?:twitter|x)\.com/i, 'Twitter'],
  [/behance\.net/i, 'Behance'],
  [/dribbble\.com/i, 'Dribbble'],
  [/stackoverflow\.com/i, 'Stack Overflow'],
  [/medium\.com/i, 'Medium'],
  [/xing\.com/i, 'XING'],
  [/instagram\.com/i, 'Instagram'],
  [/kaggle\.com/i, 'Kaggle'],
  [/orcid\.org/i, 'ORCID'],
];

const URL_RE =
  /(?:https?:\/\/)?(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:[a-z]{2,24})(?::\d+)?(?:\/[^\s|,;·•<>()"]*)?/giu;
// Tokens that look like domains but are not links: file names, versions, abbreviations.
const NOT_A_TLD = /\.(?:js|ts|py|rb|go|java|php|css|html|md|pdf|doc|docx|jpg|png|sql)$/i;

export interface LinkCandidate {
  url: string;
  network?: string;
  username?: string;
}

// No link contains these (URL_RE's path stops at them, its host never has them), so a link lies
// inside one run between them. Each run is matched on its own, and runs longer than any link a CV
// prints are skipped: URL_RE tries every start of a run, so a long run of letters costs its square.
const LINK_RUN = /[^\s|,;·•<>()"]+/gu;
const MAX_LINK_LENGTH = 300;

function* linkMatches(text: string): Generator<{ match: string; at: number }> {
  for (const run of text.matchAll(LINK_RUN)) {
    const token = run[0];
    if (token.length > MAX_LINK_LENGTH || !token.includes('.')) continue;
    for (const m of token.matchAll(URL_RE)) yield { match: m[0], at: (run.index ?? 0) + (m.index ?? 0) };
  }
}

/** Links in a text: explicit URLs, www. hosts and known networks' bare paths. */
export function findLinks(text: string): LinkCandidate[] {
  const out: LinkCandidate[] = [];
  const emails = findEmails(text);
  for (const { match, at } of linkMatches(text)) {
    const raw = match.replace(/[.,;:)]+$/, '');
    if (text[at - 1] === '@' || emails.some((e) => e.includes(raw))) continue;
    const explicit = /^(?:https?:\/\/|www\.)/i.test(raw);
    const network = NETWORKS.find(([re]) => re.test(raw))?.[1];
    const hasPath = /\/[^/]/.test(raw.replace(/^https?:\/\//i, ''));
    // Bare "node.js" or "asp.net" are skills, not links; a bare host needs a path, a network or www.
    if (!explicit && !network && !hasPath) continue;
    if (!explicit && !network && NOT_A_TLD.test(raw.split('/')[0]!)) continue;
    const candidate: LinkCandidate = { url: raw };
    if (network) {
      candidate.network = network;
      const path = raw.replace(/^(?:https?:\/\/)?(?:www\.)?[^/]+\/?/i, '').replace(/\/$/, '');
      const user = path
        .split('/')
        .filter((p) => p && !['in', 'pub', 'u', 'users', 'company'].includes(p))
        .pop();
      if (user) candidate.username = user;
    }
    out.push(candidate);
  }
  return out;
}

/** Lower-cased link without scheme, "www." or trailing slash: the key for comparing links. */
export function linkKey(url: string): string {
  const key = url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '');
  return trimWhile(key, null, /\//);
}

const LOCATION_LABEL =
  /^(?:address|location|based in|lives in|residence|direcci[oó]n|domicilio|ubicaci[oó]n|residencia|adresse|localisation|lieu|domicile|endere[cç]o|localiza[cç][aã]o|morada|resid[eê]ncia)\s*:?\s*/iu;

export interface LocationCandidate {
  location: VirtualCvLocation;
  score: number;
  raw: string;
}

/**
 * Reads one piece of a contact line as a place: "Lyon, France", "Sydney NSW 2000",
 * "São Paulo, SP, Brasil", "12 rue des Tanneurs, 69002 Lyon, France". Undefined when the piece
 * has nothing that makes it a place (a known city or country, a region code, a postal code, a
 * label), so names and headlines are not taken for towns.
 */
export function parseLocation(piece: string): LocationCandidate | undefined {
  const found: Found = { location: {}, score: 0, known: false };
  const text = placeText(piece, found);
  if (text === undefined) return undefined;
  const parts = text
    .split(/\s*,\s*|\s+[-–—]\s+/)
    .map((p) => trimPunct(p.replace(/\(\d+\)/g, '')))
    .filter(Boolean);
  if (parts.length === 0) return undefined;
  takeUkPostcode(parts, found);
  if (parts.length === 0) return { location: found.location, score: found.score, raw: piece.trim() };
  takeCountry(parts, found);
  const rest = takeCodes(parts, found);
  if (!placeCity(rest, found)) return undefined;
  const { location } = found;
  if (location.region && location.countryCode === undefined && AMBIGUOUS_REGIONS.has(location.region)) {
    const c = CITIES[normKey(location.city ?? '')];
    if (c && REGION_CODES[location.region]) location.countryCode = c;
  }
  if (!found.known && found.score < 3) return undefined;
  return { location, score: found.score, raw: piece.trim() };
}

/** A place being read: what it holds so far, how sure, and whether a known name was seen. */
interface Found {
  location: VirtualCvLocation;
  score: number;
  known: boolean;
}

/** The piece without its label ("Address:"), or undefined when it cannot be a place. */
function placeText(piece: string, found: Found): string | undefined {
  let text = piece.trim();
  const label = LOCATION_LABEL.exec(text);
  if (label) {
    text = text.slice(label[0].length);
    found.score += 3;
  }
  if (!text || /@|https?:|www\./i.test(text) || text.length > 90) return undefined;
  if ((text.match(/\d/g)?.length ?? 0) > 10) return undefined;
  if (words(text).length > 10) return undefined;
  return text;
}

/** A UK postcode ("BS1 4DJ", "SW1A 1AA") at the end names its country on its own. */
function takeUkPostcode(parts: string[], found: Found): void {
  const ukPostcode = /\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\b/.exec(parts.at(-1)!);
  if (!ukPostcode) return;
  found.location.postalCode = ukPostcode[1]!;
  found.location.countryCode = 'GB';
  parts[parts.length - 1] = trimPunct(parts.at(-1)!.replace(ukPostcode[0], ' ').replace(/\s+/g, ' '));
  if (!parts.at(-1)) parts.pop();
  found.score += 2;
  found.known = true;
}

/** Country: the last part, when it is one (and agrees with a postcode's). */
function takeCountry(parts: string[], found: Found): void {
  const lastKey = normKey(parts.at(-1)!);
  const country = COUNTRIES[lastKey] ?? COUNTRIES[lastKey.replace(/\./g, '')];
  if (!country || (found.location.countryCode && found.location.countryCode !== country)) return;
  found.location.countryCode = country;
  parts.pop();
  found.score += 3;
  found.known = true;
}

/**
 * Postal codes and region codes (a trailing all-caps token of 2–3 letters: "NSW", "OR 97205",
 * "SP") taken out of the parts; answers what is left of each part.
 */
function takeCodes(parts: string[], found: Found): string[] {
  const { location } = found;
  const rest: string[] = [];
  for (const part of parts) {
    const kept: string[] = [];
    for (const token of part.split(/\s+/)) {
      if (/^\d{4,5}(?:-\d{3,4})?$/.test(token) || /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/.test(token)) {
        location.postalCode = token;
        found.score += 1;
        continue;
      }
      const regionCountry = /^[A-Z]{2,3}$/.test(token) ? REGION_CODES[token] : undefined;
      if (
        regionCountry &&
        (kept.length > 0 || rest.length > 0) &&
        (!location.countryCode || location.countryCode === regionCountry)
      ) {
        location.region = token;
        if (!location.countryCode && !AMBIGUOUS_REGIONS.has(token)) location.countryCode = regionCountry;
        found.score += 2;
        found.known = true;
      } else kept.push(token);
    }
    if (kept.length > 0) rest.push(kept.join(' '));
  }
  return rest;
}

/**
 * The city, and before it a region or a street: with three parts "street, city, region" the city
 * is the last part that names no street. False when the last part cannot be a town.
 */
function placeCity(rest: string[], found: Found): boolean {
  const { location } = found;
  const cityPart = rest.at(-1);
  if (!cityPart) return true;
  if (words(cityPart).length > 4 || /\d/.test(cityPart)) return false;
  const cityCountry = CITIES[normKey(cityPart)];
  if (cityCountry) {
    found.score += 3;
    found.known = true;
    if (!location.countryCode) location.countryCode = cityCountry;
    else if (location.countryCode !== cityCountry) found.score -= 1;
  }
  const previous = rest.at(-2);
  if (previous === undefined) location.city = cityPart;
  // "São Paulo, SP" was handled as a region; "Portland, Oregon" keeps a spelled-out region.
  else if (!location.region && !/\d/.test(previous) && CITIES[normKey(previous)] && !cityCountry) {
    location.region = cityPart;
    location.city = previous;
  } else {
    location.city = cityPart;
    if (/\d/.test(previous) || rest.length > 2) location.address = rest.slice(0, -1).join(', ');
    else if (!location.region) location.region = previous;
  }
  return /^\p{Lu}/u.test(location.city ?? 'X');
}

/** Splits a contact line into pieces at the separators CVs use between details. */
export function contactPieces(text: string): string[] {
  return text
    .split(/\s*(?:\||·|•|∙|●|▪|◦|⋅|—|–(?=\s)|\s-\s|;|\t|\s{2,}|│|┃|\p{So})\s*/u)
    .map((p) => p.trim())
    .filter(Boolean);
}
