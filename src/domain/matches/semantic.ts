// The embedding provider's part of a generation (off by default): the role's vector and the
// vectors of the pool's profiles it may rank, fetched before the generating transaction (no
// transaction waits on the network), bounded in texts and time, and never required: any failure
// is counted and the generation ranks lexically.
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { EmbeddingError, type EmbeddingObserver, type EmbeddingProvider } from './embeddings.ts';
import { matchRepository } from './match-repository.ts';
import type { CandidateProfile, RoleProfile } from './profile.ts';

/** Profiles embedded at most per generation (the rest get theirs in later runs). */
export const EMBED_PER_RUN = 512;
/** No new provider call starts after this long within one generation. */
export const EMBED_BUDGET_MS = 15_000;

/** What is sent for a role: its title, its skills and its words. */
export function roleText(role: RoleProfile): string {
  return [
    role.title,
    [...role.required, ...role.nice].map((skill) => skill.name).join(', '),
    role.words.join(' '),
  ]
    .filter(Boolean)
    .join('. ');
}

/** What is sent for a CV: the concepts of its titles, its skills and its words (no name, no address). */
export function profileText(profile: CandidateProfile, words: readonly string[]): string {
  return [profile.titles.flat().join(' '), profile.skills.join(', '), words.join(' ')]
    .filter(Boolean)
    .join('. ');
}

/**
 * Why a run fell back, for the log: the provider's own words (`the provider answered 500`);
 * anything else (the database) by its name and code only, as its message might quote data.
 */
function reasonOf(error: unknown): string {
  if (error instanceof EmbeddingError) return error.message;
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return `${typeof name === 'string' ? name : 'Error'}${typeof code === 'string' ? ` ${code}` : ''} while embedding`;
}

export function createSemantic(deps: {
  db: Db;
  clock: Clock;
  provider: EmbeddingProvider;
  /** Told of each fallback (the reason only, never a CV's text). */
  warn?: (message: string) => void;
  /** Told of each provider call's outcome and each fallback (metrics, the log). */
  observer?: EmbeddingObserver;
}) {
  const { db, clock, provider, observer } = deps;
  let fallbacks = 0;
  const failed = (error: unknown) => {
    fallbacks++;
    const reason = reasonOf(error);
    deps.warn?.(`embeddings unavailable, ranking lexically: ${reason}`);
    observer?.fallback(reason);
  };
  /** One provider call, its outcome told to the observer. */
  const embed = async (texts: string[]): Promise<number[][]> => {
    try {
      const vectors = await provider.embed(texts);
      observer?.call('ok');
      return vectors;
    } catch (error) {
      observer?.call(error instanceof EmbeddingError ? error.outcome : 'error');
      throw error;
    }
  };

  return {
    model: provider.model,

    /**
     * The role's vector, after embedding the pool's profiles this role may rank that have none for
     * the provider's model; null when the provider failed (the run ranks lexically).
     */
    async prepare(accountId: string, jobId: string, role: RoleProfile, words: unknown, terms: string[]) {
      const started = performance.now();
      const wordsHash = createHash('sha256').update(JSON.stringify(words)).digest('base64url');
      try {
        let vector = await matchRepository.roleVector(db, jobId, wordsHash, provider.model);
        if (!vector) {
          [vector] = (await embed([roleText(role)])) as [number[]];
          await matchRepository.saveRoleVector(db, {
            job_id: jobId,
            words_hash: wordsHash,
            model: provider.model,
            vector,
            created_at: clock.now(),
          });
        }
        const pending = await matchRepository.unembedded(db, accountId, terms, provider.model, EMBED_PER_RUN);
        for (let i = 0; i < pending.length; i += provider.batchSize) {
          if (performance.now() - started > EMBED_BUDGET_MS) break;
          const batch = pending.slice(i, i + provider.batchSize);
          const vectors = await embed(
            batch.map((row) => profileText(row.profile as CandidateProfile, row.words)),
          );
          for (const [k, row] of batch.entries())
            await matchRepository.saveEmbedding(db, row, provider.model, vectors[k] as number[]);
        }
        return vector;
      } catch (error) {
        failed(error);
        return null;
      }
    },

    /** Fallbacks since the last call (maintenance reports and resets them). */
    takeFallbacks(): number {
      const n = fallbacks;
      fallbacks = 0;
      return n;
    },
  };
}

export type Semantic = ReturnType<typeof createSemantic>;
