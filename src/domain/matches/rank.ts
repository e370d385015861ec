// The score of a candidate for a role: a weighted sum of named components, each between 0 and 1,
// and the reasons a recruiter reads, one or more per component. No network, no model: the same
// inputs always give the same score. An embedding provider may add one more component
// (embeddings.ts), off by default.
import { cosine } from './embeddings.ts';
import type { CandidateProfile, RoleProfile } from './profile.ts';
import { titleSimilarity } from './titles.ts';

// Tuned once on the tuned roles of the labelled set (location up from 0.15, title and required
// down from 0.25 and 0.35); the held-out roles were measured after, never tuned on.
export const WEIGHTS = {
  required: 0.3,
  nice: 0.1,
  title: 0.2,
  experience: 0.1,
  location: 0.25,
  text: 0.05,
} as const;
export type Component = keyof typeof WEIGHTS;

/**
 * With an embedding provider (off by default) the score is (1 − this) × the lexical score + this ×
 * the cosine similarity of the role's and the CV's vectors (negative counts as 0). A person without
 * a vector (the provider failed) keeps the lexical score.
 */
export const SEMANTIC_WEIGHT = 0.15;

/** Below this score a person is not a match, however few matches the role has. */
export const RELEVANCE_FLOOR = 0.3;

export interface Scored {
  score: number;
  components: Record<Component, number>;
  reasons: string[];
}

const SENIORITY_WORDS = ['intern', 'junior', 'mid-level', 'senior', 'lead'];

function seniorityFromYears(years: number): number {
  if (years < 2.5) return 1;
  if (years < 6) return 2;
  if (years < 11) return 3;
  return 4;
}

/** Inverse document frequency of the role's words over the people being scored. */
export function roleIdf(
  role: RoleProfile,
  people: readonly { words?: readonly string[] }[],
): Map<string, number> {
  const wanted = new Set(role.words);
  const df = new Map<string, number>();
  for (const person of people) {
    for (const word of person.words ?? []) if (wanted.has(word)) df.set(word, (df.get(word) ?? 0) + 1);
  }
  const n = people.length;
  const idf = new Map<string, number>();
  for (const word of wanted) {
    const d = df.get(word) ?? 0;
    idf.set(word, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  }
  return idf;
}

/**
 * The person's fit to the role, component by component (skills, title, experience, location,
 * text), and the reasons in the order the recruiter reads them: what fits, then what is missing.
 */
export function scoreCandidate(
  role: RoleProfile,
  person: CandidateProfile,
  idf: Map<string, number>,
): Scored {
  const reasons: string[] = [];
  const has = new Set(person.skills);
  const { required, nice } = skillShares(role, has, reasons);
  const title = titleFit(role, person, reasons);
  const experience = experienceFit(role, person, reasons);
  const location = locationFit(role, person, reasons);
  const text = textFit(person, idf, reasons);
  for (const skill of role.required)
    if (!has.has(skill.key)) reasons.push(`missing required skill: ${skill.name}`);

  const components = { required, nice, title, experience, location, text };
  let score = 0;
  for (const [name, weight] of Object.entries(WEIGHTS)) score += weight * components[name as Component];
  return { score: Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000, components, reasons };
}

/** Required and nice-to-have skills: the share the person has of each (0.5 when the role lists none). */
function skillShares(role: RoleProfile, has: Set<string>, reasons: string[]) {
  const requiredHit = role.required.filter((skill) => has.has(skill.key));
  for (const skill of requiredHit) reasons.push(`required skill: ${skill.name}`);
  const required = role.required.length === 0 ? 0.5 : requiredHit.length / role.required.length;
  const niceHit = role.nice.filter((skill) => has.has(skill.key));
  for (const skill of niceHit) reasons.push(`nice-to-have skill: ${skill.name}`);
  const nice = role.nice.length === 0 ? 0.5 : niceHit.length / role.nice.length;
  return { required, nice };
}

/** Titles held: the most similar, the latest counting fully and older ones a little less. */
function titleFit(role: RoleProfile, person: CandidateProfile, reasons: string[]): number {
  let title = 0;
  person.titles.forEach((concepts, index) => {
    const similarity = titleSimilarity(role.concepts, concepts) * (index <= 1 ? 1 : 0.8);
    title = Math.max(title, similarity);
  });
  if (title >= 0.5) reasons.push(`title: ${role.title}`);
  return title;
}

/** Seniority and years of experience, averaged over what the role asks for (0.5 when neither). */
function experienceFit(role: RoleProfile, person: CandidateProfile, reasons: string[]): number {
  const parts: number[] = [];
  if (role.minYears !== null) {
    const years = person.yearsTotal;
    if (years >= role.minYears) {
      const over = role.maxYears !== null && years > role.maxYears + 4;
      parts.push(over ? 0.7 : 1);
      if (!over) reasons.push(`experience: ${Math.floor(years)} years`);
    } else {
      parts.push(role.minYears > 0 ? 0.6 * (years / role.minYears) : 1);
      reasons.push(`experience under ${role.minYears} years`);
    }
  }
  if (role.seniority !== null) {
    const theirs = person.seniority ?? seniorityFromYears(person.yearsTotal);
    const fit = Math.max(0, 1 - 0.4 * Math.abs(theirs - role.seniority));
    parts.push(fit);
    if (fit === 1) reasons.push(`seniority: ${SENIORITY_WORDS[role.seniority]}`);
  }
  return parts.length === 0 ? 0.5 : parts.reduce((a, b) => a + b, 0) / parts.length;
}

/** Location and remote policy: remote or the same city 1, the same country 0.8, no place given 0.5. */
function locationFit(role: RoleProfile, person: CandidateProfile, reasons: string[]): number {
  if (role.remote) {
    reasons.push('location: remote');
    return 1;
  }
  if (role.city !== null && person.city === role.city) {
    reasons.push(`location: ${role.cityName}`);
    return 1;
  }
  if (role.country !== null && person.country === role.country) {
    reasons.push(`location: same country as ${role.cityName ?? role.country}`);
    return 0.8;
  }
  return role.country === null && role.city === null ? 0.5 : 0;
}

/** Text: the role's words the CV uses, weighted by how rare they are among the people scored. */
function textFit(person: CandidateProfile, idf: Map<string, number>, reasons: string[]): number {
  let total = 0;
  let found = 0;
  const words = new Set(idf.size > 0 ? (person.words ?? []) : []);
  const shared: [string, number][] = [];
  for (const [word, weight] of idf) {
    total += weight;
    if (words.has(word)) {
      found += weight;
      shared.push([word, weight]);
    }
  }
  const text = total === 0 ? 0 : found / total;
  if (shared.length > 0 && text >= 0.2) {
    shared.sort((a, b) => b[1] - a[1]);
    reasons.push(
      `text: ${shared
        .slice(0, 3)
        .map(([word]) => word)
        .join(', ')}`,
    );
  }
  return text;
}

/**
 * A match needs a reason of substance, not only a fitting place and experience: one of the role's
 * required skills (its nice-to-have ones when it requires none), or a title like the role's. The
 * generation's pre-selection (generation.ts, roleTerms) relies on exactly this rule.
 */
export function hasEvidence(role: RoleProfile, components: Record<Component, number>): boolean {
  if (components.title >= 0.5) return true;
  if (role.required.length > 0) return components.required > 0;
  return role.nice.length > 0 && components.nice > 0;
}

/**
 * Phase one, cheap: everyone's score without the text component (which needs each CV's words).
 * Keeps whoever may still pass the floor and rank within the first `room` once text is added:
 * text adds at most its weight, so nobody further than that below the `room`-th is kept.
 */
export function shortlist<T extends { id: string; profile: CandidateProfile }>(
  role: RoleProfile,
  people: readonly T[],
  room: number,
  floor = RELEVANCE_FLOOR,
  semantic = false,
): T[] {
  const none = new Map<string, number>();
  // What phase two may still add: the text component, and the semantic one when it is on.
  const margin = WEIGHTS.text + (semantic ? SEMANTIC_WEIGHT : 0);
  const scored = people
    .map((person) => ({ person, scored: scoreCandidate(role, person.profile, none) }))
    .filter(({ scored }) => scored.score + margin >= floor && hasEvidence(role, scored.components))
    .sort((a, b) => b.scored.score - a.scored.score);
  if (scored.length <= room) return scored.map(({ person }) => person);
  const kth = (scored[room - 1] as (typeof scored)[number]).scored.score;
  return scored.filter(({ scored }) => scored.score + margin >= kth).map(({ person }) => person);
}

/** The lexical score blended with the semantic similarity, and its reason. */
export function withSemantic(
  scored: Scored,
  roleVector: readonly number[],
  vector: readonly number[],
): Scored {
  const similarity = Math.max(0, Math.min(1, cosine(roleVector, vector)));
  const score = (1 - SEMANTIC_WEIGHT) * scored.score + SEMANTIC_WEIGHT * similarity;
  return {
    score: Math.round(score * 10_000) / 10_000,
    components: scored.components,
    reasons: [...scored.reasons, `semantic similarity: ${Math.round(similarity * 100)}%`],
  };
}

/** Phase two: the full score (text weighted by rarity among these people), best first, over the floor. */
export function finalRank<
  T extends { id: string; profile: CandidateProfile; vector?: readonly number[] | null },
>(
  role: RoleProfile,
  people: readonly T[],
  floor = RELEVANCE_FLOOR,
  roleVector: readonly number[] | null = null,
): (T & Scored)[] {
  const idf = roleIdf(
    role,
    people.map((person) => person.profile),
  );
  return people
    .map((person) => {
      const lexical = scoreCandidate(role, person.profile, idf);
      const scored = roleVector && person.vector ? withSemantic(lexical, roleVector, person.vector) : lexical;
      return { ...person, ...scored };
    })
    .filter((person) => person.score >= floor && hasEvidence(role, person.components))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** Everyone scored, best first (ties by id, so the order is stable), without those under the floor. */
export function rankCandidates<T extends { id: string; profile: CandidateProfile }>(
  role: RoleProfile,
  people: readonly T[],
  floor = RELEVANCE_FLOOR,
  room = Number.POSITIVE_INFINITY,
): (T & Scored)[] {
  return finalRank(role, shortlist(role, people, room, floor), floor);
}
