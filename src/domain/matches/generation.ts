import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import type { ScoreComponent } from '../../db/schema-matches.ts';
import { newId } from '../../lib/ids.ts';
import type { EventRecorder } from '../events/event-log.ts';
import { jobRepository } from '../jobs/job-repository.ts';
import { isManaged } from '../jobs/job-view.ts';
import { decisionLog } from './decision-log.ts';
import { cosine } from './embeddings.ts';
import { matchRepository, type SubjectKind } from './match-repository.ts';
import type { OptOuts } from './opt-outs.ts';
import { type CandidateProfile, type RoleProfile, roleProfile } from './profile.ts';
import { type Component, finalRank, RELEVANCE_FLOOR, SEMANTIC_WEIGHT, shortlist, WEIGHTS } from './rank.ts';
import { inputsDigest, runVersion } from './ranker-version.ts';

/** An uncapped role takes at most this many matches per run (docs/decisions.md). */
export const MAX_MATCHES_PER_RUN = 1_000;
/** Profiles this recent are scored again by the next run, in case their transaction was still open. */
const SCORED_OVERLAP_MS = 120_000;

/**
 * What a candidate must share with the role to be scored at all. A match needs one of the role's
 * required skills (its nice-to-have ones when it requires none) or a similar title (rank.ts,
 * hasEvidence), so nothing else widens the pre-selection.
 */
export const roleTerms = (role: RoleProfile) => [
  ...role.required.map((skill) => skill.key),
  ...(role.required.length === 0 ? role.nice.map((skill) => skill.key) : []),
  ...role.concepts.map((concept) => `t:${concept}`),
];

/**
 * The id an account knows a platform person by: its own, derived from the account and the person,
 * so two accounts holding matches of one person cannot tell it is the same person, and the
 * person's platform id never leaves the platform.
 */
export function platformAlias(accountId: string, personId: string): string {
  const digest = createHash('sha256').update(`platform-person:${accountId}:${personId}`).digest('base64url');
  return `plp_${digest.slice(0, 26)}`;
}

export interface GenerationRun {
  accountId: string;
  jobId: string;
  now: Date;
  /** The role's vector from the embedding provider, fetched before the transaction; null: lexical. */
  roleVector: number[] | null;
  /** The provider's model, whose candidate vectors are read with the words. */
  model: string | null;
  events: EventRecorder | undefined;
  /** "Don't match me" (issue 31 item 6): the pool's people who said no to this account are skipped. */
  optOuts?: OptOuts | undefined;
}

type Job = NonNullable<Awaited<ReturnType<typeof jobRepository.find>>>;
interface Person {
  id: string;
  kind: SubjectKind;
  personKey: string;
  profile: CandidateProfile;
}
type Ranked = ReturnType<typeof finalRank<Person & { vector: number[] | null }>>;

/**
 * One generation, in its transaction: the role's best unmatched people, until `max_matches` exist.
 * The role is locked (two runs for one role take turns and never pass the cap together); when only
 * new profiles arrived since the last run (same words, same managing period, and that run did not
 * fill its room), only those are scored; otherwise the whole pool. Answers how many were made.
 */
export async function generateMatches(trx: Db, run: GenerationRun): Promise<number> {
  const { accountId, jobId, now } = run;
  const job = await jobRepository.find(trx, accountId, jobId, 'write');
  if (!job || !isManaged(job, now) || job.managed_since === null) return 0;
  if (!(await matchRepository.matchingEnabled(trx, accountId))) return 0;
  const room = roomFor(job, await matchRepository.countForJob(trx, jobId));
  if (room <= 0) return 0;
  const role = roleProfile(job.content);
  const terms = roleTerms(role);
  if (terms.length === 0) return 0;
  const wordsHash = createHash('sha256').update(JSON.stringify(job.content)).digest('base64url');
  const since = await incrementalSince(trx, jobId, wordsHash, job.managed_since);
  const ranked = await rankPool(trx, run, role, terms, since, room);
  const chosen = onePerPerson(ranked, room);
  const rows = matchRows(chosen, run, wordsHash);
  const inserted = await matchRepository.insertMatches(trx, rows);
  const made = new Set(inserted.map((match) => match.id));
  await decisionLog.record(
    trx,
    rows
      .filter((row) => made.has(row.id))
      .map((row) => ({
        accountId,
        kind: 'generated' as const,
        jobId,
        matchId: row.id,
        candidateId: row.candidate_id,
        rankerVersion: row.ranker_version,
        score: row.score,
        reasons: row.reasons,
        actor: 'system' as const,
        at: now,
      })),
  );
  await matchRepository.recordRun(trx, {
    job_id: jobId,
    words_hash: wordsHash,
    max_matches: job.max_matches,
    managed_since: job.managed_since,
    // A profile written by a transaction still open now may carry an earlier time: overlap.
    scored_until: new Date(now.getTime() - SCORED_OVERLAP_MS),
    filled: chosen.length >= room,
    ran_at: now,
  });
  for (const match of inserted)
    await run.events?.record(trx, accountId, {
      type: 'match.created',
      data: { matchId: match.id, jobId, candidateId: match.candidate_id },
    });
  return inserted.length;
}

/** How many matches this run may add: up to the role's cap, and never more than a run's share. */
function roomFor(job: Job, existing: number): number {
  return job.max_matches === null
    ? MAX_MATCHES_PER_RUN
    : Math.min(MAX_MATCHES_PER_RUN, job.max_matches - existing);
}

/** Where the last run's scoring ended, when this run may score only what came since; else null. */
async function incrementalSince(
  trx: Db,
  jobId: string,
  wordsHash: string,
  managedSince: Date,
): Promise<Date | null> {
  const last = await matchRepository.lastRun(trx, jobId);
  const incremental =
    last !== undefined &&
    last.words_hash === wordsHash &&
    last.managed_since.getTime() === managedSince.getTime() &&
    !last.filled;
  return incremental ? last.scored_until : null;
}

/** The pool pre-selected by the role's terms, shortlisted on profiles, then ranked with words and vectors. */
async function rankPool(
  trx: Db,
  run: GenerationRun,
  role: RoleProfile,
  terms: string[],
  since: Date | null,
  room: number,
): Promise<Ranked> {
  const saidNo = run.optOuts ? await run.optOuts.filterFor(trx, run.accountId) : () => false;
  const rows = (await matchRepository.pool(trx, run.accountId, run.jobId, terms, since)).filter(
    (row) => !saidNo(row.email_key),
  );
  const candidates = shortlist(
    role,
    rows.map((row) => ({
      id: row.subject_id,
      kind: row.subject_kind,
      personKey: row.email_key ?? `${row.subject_kind}:${row.subject_id}`,
      profile: row.profile as CandidateProfile,
    })),
    room,
    RELEVANCE_FLOOR,
    run.roleVector !== null,
  );
  const words = await matchRepository.words(
    trx,
    candidates.map((person) => person.id),
    run.roleVector === null ? null : run.model,
  );
  return finalRank(
    role,
    candidates.map((person) => ({
      ...person,
      profile: { ...person.profile, words: words.get(person.id)?.words ?? [] },
      vector: words.get(person.id)?.vector ?? null,
    })),
    RELEVANCE_FLOOR,
    run.roleVector,
  );
}

/** The best `room` of the ranked, one per person (an address met twice counts once). */
function onePerPerson(ranked: Ranked, room: number): Ranked {
  const chosen: Ranked = [];
  const people = new Set<string>();
  for (const person of ranked) {
    if (chosen.length >= room) break;
    if (people.has(person.personKey)) continue;
    people.add(person.personKey);
    chosen.push(person);
  }
  return chosen;
}

/**
 * The score's parts as the ranker applied them: each lexical component's weight (scaled down by the
 * semantic share when the provider's similarity was blended in) and the person's value.
 */
function componentsOf(person: Ranked[number], roleVector: number[] | null): ScoreComponent[] {
  const semantic = roleVector !== null && person.vector !== null;
  const scale = semantic ? 1 - SEMANTIC_WEIGHT : 1;
  const parts: ScoreComponent[] = (Object.entries(WEIGHTS) as [Component, number][]).map(
    ([name, weight]) => ({
      name,
      weight: round(weight * scale),
      value: round(person.components[name]),
    }),
  );
  if (semantic) {
    const similarity = Math.max(0, Math.min(1, cosine(roleVector, person.vector as number[])));
    parts.push({ name: 'semantic', weight: SEMANTIC_WEIGHT, value: round(similarity) });
  }
  return parts;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

function matchRows(chosen: Ranked, run: GenerationRun, wordsHash: string) {
  const { accountId, jobId, now } = run;
  const version = runVersion(run.roleVector === null ? null : run.model);
  return chosen.map((person) => ({
    id: newId('mat', now),
    account_id: accountId,
    job_id: jobId,
    candidate_kind: person.kind,
    candidate_id: person.kind === 'person' ? platformAlias(accountId, person.id) : person.id,
    subject_id: person.id,
    person_key: person.personKey,
    score: Math.round(person.score * 10_000),
    reasons: person.reasons,
    ranker_version: version,
    components: JSON.stringify(componentsOf(person, run.roleVector)),
    inputs_digest: inputsDigest(version, wordsHash, [person.profile, person.vector !== null]),
    created_at: now,
  }));
}
