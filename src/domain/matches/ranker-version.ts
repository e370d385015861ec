// Which ranking produced a match (extensions.md §7): derived, never hand-maintained. The version is
// a digest of the weights and constants the score is made of and of the source of every module the
// score depends on (scoring, profiles, titles, skills), so a change of a weight or of the code moves
// it; a change of a comment moves it too, which only errs on the side of telling.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RELEVANCE_FLOOR, SEMANTIC_WEIGHT, WEIGHTS } from './rank.ts';

/** The modules whose code decides a score (read once, at start). */
const RANKING_SOURCES = ['rank.ts', 'profile.ts', 'titles.ts', 'skills.ts', 'embeddings.ts'];

export interface RankerDefinition {
  weights: Readonly<Record<string, number>>;
  semanticWeight: number;
  floor: number;
  /** The ranking modules' source text, in RANKING_SOURCES order. */
  sources: readonly string[];
}

/** `lex-` and 16 hex digits of the definition's digest. */
export function rankerVersionOf(definition: RankerDefinition): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify({
      weights: Object.entries(definition.weights).sort(([a], [b]) => (a < b ? -1 : 1)),
      semanticWeight: definition.semanticWeight,
      floor: definition.floor,
    }),
  );
  for (const source of definition.sources) hash.update('\0').update(source);
  return `lex-${hash.digest('hex').slice(0, 16)}`;
}

/** The definition the service ranks with. */
export const CURRENT_RANKER: RankerDefinition = {
  weights: WEIGHTS,
  semanticWeight: SEMANTIC_WEIGHT,
  floor: RELEVANCE_FLOOR,
  sources: RANKING_SOURCES.map((file) => readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')),
};

/** The lexical ranker's version. */
export const RANKER_VERSION = rankerVersionOf(CURRENT_RANKER);

/** A run's version: the lexical one, and the embedding model when the semantic component was on. */
export function runVersion(model: string | null): string {
  return model === null ? RANKER_VERSION : `${RANKER_VERSION}+emb:${model}`.slice(0, 200);
}

/**
 * The digest of what one score was computed from: the ranker, the role's words and the person's
 * profile (a hash, so the record holds nothing readable of the person).
 */
export function inputsDigest(version: string, roleWordsHash: string, profile: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([version, roleWordsHash, profile]))
    .digest('base64url')
    .slice(0, 32);
}
