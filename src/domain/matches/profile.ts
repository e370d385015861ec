// What matching reads of a built virtual CV (the candidate's side) and of a role's words (the
// role's side). Pure functions: no I/O, bounded by the caps below whatever the input.
import { fold, knownSkillsInText, skillKey } from './skills.ts';
import { seniorityOf, titleConcepts } from './titles.ts';

export interface CandidateProfile {
  /** Skill keys (skills.ts), from the skills section and from known skill names in the text. */
  skills: string[];
  /** Concepts of each title held, most recent first. */
  titles: string[][];
  /** 0 (intern) … 4 (lead), from the most recent title that names one. */
  seniority: number | null;
  yearsTotal: number;
  /** Years worked within the last five. */
  yearsRecent: number;
  languages: string[];
  city: string | null;
  country: string | null;
  /** Distinct folded words of the CV's text, for text relevance (stored apart, read for a shortlist). */
  words?: string[];
}

export interface RoleSkill {
  key: string;
  name: string;
}

export interface RoleProfile {
  title: string;
  concepts: string[];
  required: RoleSkill[];
  nice: RoleSkill[];
  seniority: number | null;
  minYears: number | null;
  maxYears: number | null;
  city: string | null;
  cityName: string | null;
  country: string | null;
  remote: boolean;
  words: string[];
}

const MAX_SKILLS = 80;
const MAX_TITLES = 8;
const MAX_WORDS = 200;
const YEAR_MS = 365.25 * 86_400_000;

const STOP = new Set(
  (
    'the and for with our you your are from that this will have has been who what into over ' +
    'los las del con por para una que como sus nos est une des les pour avec dans sur par aux ' +
    'dos das com por uma para nas nos pelo pela work team equipo equipe equipa years anos ans'
  ).split(' '),
);

export function wordsOf(text: string, cap = MAX_WORDS): string[] {
  const out = new Set<string>();
  for (const word of fold(text.slice(0, 200_000)).split(/[\s./+#]+/)) {
    if (word.length < 3 || STOP.has(word) || /^\d+$/.test(word)) continue;
    out.add(word);
    if (out.size >= cap) break;
  }
  return [...out];
}

const COUNTRIES: Record<string, string> = {
  australia: 'AU',
  espana: 'ES',
  spain: 'ES',
  france: 'FR',
  francia: 'FR',
  portugal: 'PT',
  brasil: 'BR',
  brazil: 'BR',
  'united kingdom': 'GB',
  uk: 'GB',
  england: 'GB',
  'reino unido': 'GB',
  'united states': 'US',
  usa: 'US',
  'new zealand': 'NZ',
  mexico: 'MX',
  argentina: 'AR',
  chile: 'CL',
  colombia: 'CO',
  canada: 'CA',
  ireland: 'IE',
  germany: 'DE',
  belgique: 'BE',
  belgium: 'BE',
  suisse: 'CH',
  switzerland: 'CH',
};

export function countryCode(name: string | null | undefined): string | null {
  if (!name) return null;
  const trimmed = name.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return trimmed.toUpperCase();
  return COUNTRIES[fold(trimmed)] ?? null;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];

function dateOf(partial: string, end: boolean): number | null {
  const m = /^(\d{4})(?:-(\d{2}))?/.exec(partial);
  if (!m) return null;
  const year = Number(m[1]);
  const month = m[2] ? Number(m[2]) - 1 : end ? 11 : 0;
  return Date.UTC(year, month + (end ? 1 : 0), 1);
}

/** Years covered by the union of the work intervals, in total and within the last five years. */
function experience(work: Json[], now: Date): { total: number; recent: number } {
  const spans: [number, number][] = [];
  for (const job of work.slice(0, 50)) {
    const start = dateOf(str(job.startDate), false);
    if (start === null) continue;
    const end = job.isCurrent === true ? now.getTime() : dateOf(str(job.endDate), true);
    if (end === null || end <= start) continue;
    spans.push([start, Math.min(end, now.getTime())]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const recentFrom = now.getTime() - 5 * YEAR_MS;
  let total = 0;
  let recent = 0;
  let cursor = Number.NEGATIVE_INFINITY;
  for (const [start, end] of spans) {
    const from = Math.max(start, cursor);
    if (end <= from) continue;
    total += end - from;
    recent += Math.max(0, end - Math.max(from, recentFrom));
    cursor = end;
  }
  return { total: total / YEAR_MS, recent: recent / YEAR_MS };
}

/** The candidate's side, from a virtual CV document (docs/virtual-cv.md). */
export function candidateProfile(document: unknown, now: Date): CandidateProfile {
  const cv = (typeof document === 'object' && document !== null ? document : {}) as Json;
  const basics = (typeof cv.basics === 'object' && cv.basics !== null ? cv.basics : {}) as Json;
  const work = list(cv.work);
  const location = (
    typeof basics.location === 'object' && basics.location !== null ? basics.location : {}
  ) as Json;
  const titleTexts = [str(basics.label), ...work.map((job) => str(job.position))]
    .filter(Boolean)
    .slice(0, MAX_TITLES);
  const text = [
    str(basics.label),
    str(basics.summary),
    ...work.flatMap((job) => [
      str(job.position),
      str(job.summary),
      ...(Array.isArray(job.highlights) ? job.highlights.map(str) : []),
    ]),
    ...list(cv.skills).flatMap((skill) => [
      str(skill.name),
      ...(Array.isArray(skill.keywords) ? skill.keywords.map(str) : []),
    ]),
  ].join('\n');
  const skills = new Set<string>();
  for (const skill of list(cv.skills)) {
    for (const name of [str(skill.name), ...(Array.isArray(skill.keywords) ? skill.keywords.map(str) : [])]) {
      const key = skillKey(name);
      if (key) skills.add(key);
    }
  }
  for (const key of knownSkillsInText(text)) skills.add(key);
  let seniority: number | null = null;
  for (const title of titleTexts) {
    seniority = seniorityOf(title);
    if (seniority !== null) break;
  }
  const years = experience(work, now);
  return {
    skills: [...skills].slice(0, MAX_SKILLS),
    titles: titleTexts.map(titleConcepts).filter((concepts) => concepts.length > 0),
    seniority,
    yearsTotal: Math.round(years.total * 10) / 10,
    yearsRecent: Math.round(years.recent * 10) / 10,
    languages: list(cv.languages)
      .map((language) => {
        const x = (language.x ?? {}) as Json;
        return str(x.code) || fold(str(language.language));
      })
      .filter(Boolean)
      .slice(0, 20),
    city: str(location.city) ? fold(str(location.city)) : null,
    country: countryCode(str(location.countryCode)) ?? countryCode(str(location.region)),
    words: wordsOf(text),
  };
}

function yearsRange(text: string | null | undefined): { min: number | null; max: number | null } {
  if (!text) return { min: null, max: null };
  const numbers = [...text.matchAll(/\d+(?:[.,]\d+)?/g)]
    .map((m) => Number(m[0].replace(',', '.')))
    .filter((n) => n < 60);
  if (numbers.length === 0) return { min: null, max: null };
  if (numbers.length >= 2) return { min: Math.min(...numbers), max: Math.max(...numbers) };
  return {
    min: numbers[0] as number,
    max: /\+|plus|more|mas|mais|au moins|at least/i.test(text) ? null : (numbers[0] as number),
  };
}

/** The role's side, from the live words of a job (contract/job.ts). */
export function roleProfile(words: Record<string, unknown>): RoleProfile {
  const title = str(words.title);
  const skills = list(words.skills);
  const seen = new Set<string>();
  const pickSkills = (level: string): RoleSkill[] =>
    skills
      .filter((skill) => skill.level === level)
      .map((skill) => ({ key: skillKey(str(skill.name)), name: str(skill.name) }))
      .filter((skill) => {
        if (skill.key === '' || seen.has(skill.key)) return false;
        seen.add(skill.key);
        return true;
      });
  const required = pickSkills('required');
  const nice = pickSkills('nice_to_have');
  const location = (
    typeof words.location === 'object' && words.location !== null ? words.location : {}
  ) as Json;
  const years = yearsRange(str(words.yearsExperience));
  const responsibilities = Array.isArray(words.responsibilities) ? words.responsibilities.map(str) : [];
  const description = str(words.description).replace(/<[^>]*>/g, ' ');
  return {
    title,
    concepts: titleConcepts(title),
    required,
    nice,
    seniority: seniorityOf(str(words.seniority)) ?? seniorityOf(title),
    minYears: years.min,
    maxYears: years.max,
    city: str(location.city) ? fold(str(location.city)) : null,
    cityName: str(location.city) || null,
    country: countryCode(str(location.country)),
    remote: location.remotePolicy === 'remote',
    words: wordsOf(`${title}\n${description}\n${responsibilities.join('\n')}`, 200),
  };
}
