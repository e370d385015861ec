import { createHash } from 'node:crypto';
import type { Match, MatchPage } from '../../contract/match.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { cvRepository } from '../cv/cv-repository.ts';
import { adNotManagedForMatches, badRequest, matchingDisabled, notFound } from '../errors.ts';
import type { EventRecorder } from '../events/event-log.ts';
import { applicationRepository } from '../intake/application-repository.ts';
import { candidateRepository } from '../intake/candidate-repository.ts';
import { personRepository } from '../intake/person-repository.ts';
import { jobRepository } from '../jobs/job-repository.ts';
import { isManaged } from '../jobs/job-view.ts';
import type { EmbeddingObserver, EmbeddingProvider } from './embeddings.ts';
import { generateMatches, roleTerms } from './generation.ts';
import { type ManagedRoleRow, matchRepository, type SubjectKind } from './match-repository.ts';
import { createOptOuts } from './opt-outs.ts';
import { type CandidateProfile, candidateProfile, roleProfile } from './profile.ts';
import { createSemantic } from './semantic.ts';

export { MAX_MATCHES_PER_RUN, platformAlias } from './generation.ts';

/** New profiles within this window start one look at the account's roles, not one each. */
export const REFRESH_BATCH_MS = 10_000;
const candidateTerms = (profile: CandidateProfile) => [
  ...profile.skills,
  ...new Set(profile.titles.flat().map((concept) => `t:${concept}`)),
];
/** A match as the API shows it (its stored score is in ten-thousandths). */
export function matchOf(row: {
  id: string;
  job_id: string;
  candidate_id: string;
  score: number;
  reasons: string[];
  ranker_version: string;
  created_at: Date | string;
}): Match {
  return {
    matchId: row.id,
    jobId: row.job_id,
    candidateId: row.candidate_id,
    score: row.score / 10_000,
    reasons: row.reasons,
    rankerVersion: row.ranker_version,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A subject whose virtual CV was just built; a platform person has no account (every pool). */
export interface BuiltSubject {
  kind: SubjectKind;
  id: string;
  accountId: string | null;
  email: string | null;
}

export function createMatchService(deps: {
  db: Db;
  clock: Clock;
  queue: TaskQueue;
  /** match.created, in the generating transaction (absent: no events, e.g. in the bench). */
  events?: EventRecorder;
  /** An embedding provider (EMBEDDINGS_URL; off by default): one more score component. */
  embeddings?: EmbeddingProvider | null;
  /** Told when the provider fails and a run ranks lexically (the reason only). */
  warn?: (message: string) => void;
  /** The key of the opt-outs' address digest (CLAIM_LINK_KEY); absent: no "Don't match me" (the bench). */
  addressKey?: string;
}) {
  const { db, clock, queue, events } = deps;
  const optOuts = deps.addressKey ? createOptOuts(deps.addressKey) : undefined;
  const observers = new Set<EmbeddingObserver>();
  const semantic = deps.embeddings
    ? createSemantic({
        db,
        clock,
        provider: deps.embeddings,
        ...(deps.warn ? { warn: deps.warn } : {}),
        observer: {
          call: (outcome) => {
            for (const o of observers) o.call(outcome);
          },
          fallback: (reason) => {
            for (const o of observers) o.fallback(reason);
          },
        },
      })
    : null;

  /** The role's state that generation depends on: its words, its cap, and the account's pool. */
  function fingerprint(role: ManagedRoleRow, pool: string): string {
    return createHash('sha256')
      .update(JSON.stringify([role.content, role.max_matches, role.managed_since.toISOString(), pool]))
      .digest('base64url')
      .slice(0, 22);
  }

  async function enqueueFor(roles: ManagedRoleRow[]): Promise<number> {
    const pools = new Map<string, string>();
    let queued = 0;
    for (const role of roles) {
      let pool = pools.get(role.account_id);
      if (pool === undefined) {
        pool = await matchRepository.poolState(db, role.account_id);
        pools.set(role.account_id, pool);
      }
      // A generation already waiting reads the role and the pool when it runs: one is enough.
      if (await queue.waitingForJob(db, 'generate-matches', role.id)) continue;
      const key = `generate-matches:${role.id}:${fingerprint(role, pool)}`;
      if (
        await queue.enqueue(db, 'generate-matches', { accountId: role.account_id, jobId: role.id }, { key })
      )
        queued++;
    }
    return queued;
  }

  /** The managed role's vector from the embedding provider; null when it is off or the role is not managed. */
  async function prepareRoleVector(accountId: string, jobId: string): Promise<number[] | null> {
    if (!semantic) return null;
    const job = await jobRepository.find(db, accountId, jobId);
    if (!job || !isManaged(job, clock.now())) return null;
    const role = roleProfile(job.content);
    return semantic.prepare(accountId, jobId, role, job.content, roleTerms(role));
  }

  return {
    /**
     * Called in the build-cv task's transaction once a virtual CV is built: the profile is
     * (re)written and one batched look at the account's managed roles is queued.
     */
    async profileBuilt(trx: Db, subject: BuiltSubject, document: unknown): Promise<void> {
      const now = clock.now();
      const emailKey = subject.email ? subject.email.trim().toLowerCase() : null;
      // Suppressed people are never matched: an application sent after a suppression has no profile.
      if (emailKey && (await candidateRepository.isSuppressed(trx, emailKey))) return;
      // Nor a person who said "Don't match me" to this account (a re-import of the address).
      if (emailKey && subject.accountId && (await optOuts?.isOptedOut(trx, subject.accountId, emailKey)))
        return;
      const { words, ...profile } = candidateProfile(document, now);
      await matchRepository.upsertProfile(trx, {
        subject_kind: subject.kind,
        subject_id: subject.id,
        account_id: subject.accountId,
        email_key: emailKey,
        profile,
        terms: candidateTerms(profile),
        words: words ?? [],
        at: now,
      });
      const batchEnd = Math.ceil((now.getTime() + 1) / REFRESH_BATCH_MS) * REFRESH_BATCH_MS;
      // A platform person joins every account's pool: one look at every managed role per window.
      await queue.enqueue(
        trx,
        'refresh-matches',
        { accountId: subject.accountId },
        {
          key: `refresh-matches:${subject.accountId ?? 'platform'}:${batchEnd}`,
          runAfter: new Date(batchEnd),
        },
      );
    },

    /** In the erasing transaction: the person leaves the pool and every role's matches at once. */
    async erase(trx: Db, kind: SubjectKind, id: string): Promise<void> {
      await matchRepository.eraseSubject(trx, kind, id);
    },

    /**
     * "Don't match me" from the claim page (issue 31 item 6), in one transaction: recorded (a keyed
     * digest of the address and when), the person out of the account's pool and its roles' matches.
     */
    async optOut(trx: Db, accountId: string, email: string): Promise<void> {
      if (!optOuts) throw new Error('matching opt-outs need the address key');
      await optOuts.record(trx, accountId, email, clock.now());
    },

    /** Whether the address said "Don't match me" to the account. */
    async isOptedOut(on: Db, accountId: string, email: string): Promise<boolean> {
      return (await optOuts?.isOptedOut(on, accountId, email)) ?? false;
    },

    /** In the suppressing transaction: nothing of the address stays, in any account. */
    async eraseAddress(trx: Db, emailKey: string): Promise<void> {
      await matchRepository.eraseAddress(trx, emailKey.trim().toLowerCase());
    },

    /**
     * Queues a generation for every managed role whose words, cap or pool changed since its last
     * one (the task key is the role's state, so an unchanged role queues nothing). Runs from the
     * refresh task for one account, and from maintenance for all.
     */
    async refresh(accountId: string | null): Promise<number> {
      return enqueueFor(await matchRepository.managedRoles(db, clock.now(), accountId));
    },

    /**
     * Task: the role's best unmatched people, until `maxMatches` exist. When only new profiles
     * arrived since the last run (same words, same managing period, and that run did not fill its
     * room), only those are scored; otherwise the whole pool.
     */
    async generate(accountId: string, jobId: string): Promise<number> {
      // The provider's vectors, fetched before the transaction: none holds a lock over the network.
      const roleVector = await prepareRoleVector(accountId, jobId);
      const model = roleVector === null ? null : (semantic?.model ?? null);
      return db
        .transaction()
        .execute(async (trx) =>
          generateMatches(trx, { accountId, jobId, now: clock.now(), roleVector, model, events, optOuts }),
        );
    },

    /**
     * The platform person behind an account's alias (`plp_…`) while they are a match of one of its
     * roles (of `jobId` when given) and still in the pool: the screening route and the console's
     * virtual CV resolve it here. Undefined for an account that holds no such match.
     */
    async platformSubject(
      on: Db,
      accountId: string,
      candidateId: string,
      jobId: string | null,
    ): Promise<string | undefined> {
      if (!candidateId.startsWith('plp_')) return undefined;
      return matchRepository.platformSubject(on, accountId, candidateId, jobId);
    },

    /**
     * The virtual CV of one of the role's candidates, as the recruiter opens it in the console: a
     * match (a platform person's by the account's alias), an applicant to the role, or one of the
     * account's imports, the people the screening route takes. 404 for anyone else, so a platform
     * person is seen only by an account that holds a match of them, while they are in the pool.
     */
    async candidateCv(
      accountId: string,
      jobId: string,
      candidateId: string,
    ): Promise<{ candidateId: string; cv: Record<string, unknown> | null; match: Match | null }> {
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job) throw notFound('Job');
      const match = await matchRepository.matchOf(db, accountId, jobId, candidateId);
      let cv: Record<string, unknown> | undefined;
      if (match?.candidate_kind === 'person') cv = await personRepository.cv(db, match.subject_id);
      else if (match) cv = await cvRepository.virtualCv(db, match.candidate_kind, match.subject_id);
      else if ((await applicationRepository.find(db, accountId, candidateId))?.job_id === jobId)
        cv = await cvRepository.virtualCv(db, 'application', candidateId);
      else if (await candidateRepository.find(db, accountId, candidateId))
        cv = await cvRepository.virtualCv(db, 'candidate', candidateId);
      else throw notFound('Candidate');
      return { candidateId, cv: cv ?? null, match: match ? matchOf(match) : null };
    },

    /** The embedding provider's model; null when matching ranks lexically only (no provider). */
    embeddingModel: semantic?.model ?? null,

    /** Adds an observer of the provider's calls and fallbacks (the app's metrics and log). */
    observeEmbeddings(observer: EmbeddingObserver): void {
      observers.add(observer);
    },

    /** Runs that fell back to lexical ranking since the last call (maintenance reports them). */
    takeEmbeddingFallbacks(): number {
      return semantic?.takeFallbacks() ?? 0;
    },

    /** GET …/matches: best first; 404 for another account's or a draft job, 409 when not managed. */
    async list(
      accountId: string,
      jobId: string,
      query: { cursor?: string; limit?: number },
    ): Promise<MatchPage> {
      const now = clock.now();
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job || job.status === 'draft') throw notFound('Job');
      if (!isManaged(job, now)) throw adNotManagedForMatches();
      if (!(await matchRepository.matchingEnabled(db, accountId))) throw matchingDisabled();
      let after: { score: number; id: string } | null = null;
      if (query.cursor !== undefined) {
        const position = decodeCursor(query.cursor);
        const m = position === null ? null : /^(\d{1,5}):(mat_[A-Za-z0-9_-]{1,60})$/.exec(position);
        if (!m) throw badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
        after = { score: Number(m[1]), id: m[2] as string };
      }
      const limit = query.limit ?? 50;
      const rows = await matchRepository.page(db, jobId, after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        matches: page.map(matchOf),
        nextCursor: rows.length > limit && last ? encodeCursor(`${last.score}:${last.id}`) : null,
      };
    },
  };
}

export type MatchService = ReturnType<typeof createMatchService>;
