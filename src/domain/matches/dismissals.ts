// A recruiter decides (extensions.md §7): a match is dismissed with a reason and may be restored.
// A dismissed match leaves the role's list and its cap's count, its row stays so that the person is
// not matched to the role again, and both acts are audited (who, when, why).
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import type { Actor, AuditService } from '../console-users/audit-service.ts';
import { badRequest, notFound } from '../errors.ts';
import { jobRepository } from '../jobs/job-repository.ts';
import { type DecisionEntry, decisionActorOf, decisionLog, decisionsCsv } from './decision-log.ts';
import { explainMatch } from './explanation.ts';
import { matchOf } from './match-service.ts';

/** The longest reason a recruiter may give. */
export const MAX_REASON = 500;

export interface MatchDecision {
  matchId: string;
  jobId: string;
  candidateId: string;
  score: number;
  reasons: string[];
  rankerVersion: string;
  createdAt: string;
  dismissal: { at: string; by: string; reason: string } | null;
}

const COLUMNS = [
  'id',
  'job_id',
  'candidate_id',
  'score',
  'reasons',
  'ranker_version',
  'created_at',
  'dismissed_at',
  'dismissed_by',
  'dismiss_reason',
] as const;

type Row = {
  id: string;
  job_id: string;
  candidate_id: string;
  score: number;
  reasons: string[];
  ranker_version: string;
  created_at: Date;
  dismissed_at: Date | null;
  dismissed_by: string | null;
  dismiss_reason: string | null;
};

function decisionOf(row: Row): MatchDecision {
  return {
    ...matchOf(row),
    dismissal:
      row.dismissed_at === null
        ? null
        : {
            at: new Date(row.dismissed_at).toISOString(),
            by: row.dismissed_by ?? 'operator',
            reason: row.dismiss_reason ?? '',
          },
  };
}

/** The reason as given, trimmed: required for a dismissal, optional for a restore, ≤ 500 either way. */
export function checkedReason(reason: unknown, required: boolean): string | null {
  if (reason === undefined || reason === null || (typeof reason === 'string' && reason.trim() === '')) {
    if (required)
      throw badRequest('reason is required: say why the match is dismissed.', { field: 'reason' });
    return null;
  }
  if (typeof reason !== 'string') throw badRequest('reason must be text.', { field: 'reason' });
  const trimmed = reason.trim();
  if (trimmed.length > MAX_REASON)
    throw badRequest(`reason must be at most ${MAX_REASON} characters.`, { field: 'reason' });
  return trimmed;
}

/** The decision log's entry (no free text: the reason stays in the audit trail and on the match). */
async function logDecision(
  trx: Db,
  accountId: string,
  row: Row,
  kind: 'dismissed' | 'restored',
  actor: Actor,
  at: Date,
): Promise<void> {
  await decisionLog.record(trx, [
    {
      accountId,
      kind,
      jobId: row.job_id,
      matchId: row.id,
      candidateId: row.candidate_id,
      rankerVersion: row.ranker_version,
      score: row.score,
      reasons: row.reasons,
      actor: decisionActorOf(actor),
      at,
    },
  ]);
}

const actorId = (actor: Actor) => (actor.kind === 'user' ? actor.userId : 'operator');

export function createDismissals(deps: {
  db: Db;
  clock: Clock;
  queue: TaskQueue;
  audit: Pick<AuditService, 'record'>;
}) {
  const { db, clock, queue, audit } = deps;

  async function locked(trx: Db, accountId: string, jobId: string, matchId: string): Promise<Row> {
    const job = await jobRepository.find(trx, accountId, jobId);
    if (!job) throw notFound('Job');
    const row = await trx
      .selectFrom('matches')
      .select(COLUMNS)
      .where('account_id', '=', accountId)
      .where('job_id', '=', jobId)
      .where('id', '=', matchId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('Match');
    return row as Row;
  }

  async function update(
    trx: Db,
    matchId: string,
    values: Pick<Row, 'dismissed_at' | 'dismissed_by' | 'dismiss_reason'>,
  ): Promise<Row> {
    return (await trx
      .updateTable('matches')
      .set(values)
      .where('id', '=', matchId)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()) as Row;
  }

  return {
    /**
     * Dismisses a match: it leaves the list and the cap's count (the next generation may fill the
     * slot), the person is not matched to the role again. Dismissing a dismissed match changes
     * nothing. Audited as `match.dismissed` with the reason.
     */
    async dismiss(
      accountId: string,
      jobId: string,
      matchId: string,
      reason: unknown,
      actor: Actor,
    ): Promise<MatchDecision> {
      return db.transaction().execute(async (trx) => {
        // Another account's match is not found (404) before its reason is read (400).
        const row = await locked(trx, accountId, jobId, matchId);
        const why = checkedReason(reason, true) as string;
        if (row.dismissed_at !== null) return decisionOf(row);
        const now = clock.now();
        const done = decisionOf(
          await update(trx, matchId, {
            dismissed_at: now,
            dismissed_by: actorId(actor),
            dismiss_reason: why,
          }),
        );
        await audit.record(trx, accountId, actor, {
          action: 'match.dismissed',
          target: matchId,
          detail: { jobId, candidateId: row.candidate_id, reason: why },
        });
        await logDecision(trx, accountId, row, 'dismissed', actor, now);
        // The freed slot: a generation of the role, once per dismissal.
        await queue.enqueue(
          trx,
          'generate-matches',
          { accountId, jobId },
          { key: `generate-matches:${jobId}:dismissed:${matchId}:${now.getTime()}` },
        );
        return done;
      });
    },

    /**
     * Restores a dismissed match: back in the list and the cap's count (a full role may then hold one
     * more than its cap until a match leaves). Restoring a match not dismissed changes nothing.
     * Audited as `match.restored`, with the reason when one is given.
     */
    async restore(
      accountId: string,
      jobId: string,
      matchId: string,
      reason: unknown,
      actor: Actor,
    ): Promise<MatchDecision> {
      return db.transaction().execute(async (trx) => {
        const row = await locked(trx, accountId, jobId, matchId);
        const why = checkedReason(reason, false);
        if (row.dismissed_at === null) return decisionOf(row);
        const done = decisionOf(
          await update(trx, matchId, { dismissed_at: null, dismissed_by: null, dismiss_reason: null }),
        );
        await audit.record(trx, accountId, actor, {
          action: 'match.restored',
          target: matchId,
          detail: { jobId, candidateId: row.candidate_id, reason: why, dismissedFor: row.dismiss_reason },
        });
        await logDecision(trx, accountId, row, 'restored', actor, clock.now());
        return done;
      });
    },

    /** GET …/matches/{matchId}/explanation: the score's parts, weights, reasons and version. */
    explanation: (accountId: string, jobId: string, matchId: string) =>
      explainMatch(db, accountId, jobId, matchId),

    /** The account's decision log, oldest first, a page at a time (GET …/matches/log). */
    async log(accountId: string, query: { from?: string; to?: string; cursor?: string; limit?: number }) {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      return decisionLog.page(db, accountId, query);
    },

    /** The log from `from` to `to` as CSV, every entry (at most 100,000), for the account's records. */
    async logCsv(accountId: string, query: { from?: string; to?: string }): Promise<string> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      const entries: DecisionEntry[] = [];
      let cursor: string | undefined;
      do {
        const page = await decisionLog.page(db, accountId, {
          ...query,
          limit: 1000,
          ...(cursor ? { cursor } : {}),
        });
        entries.push(...page.entries);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined && entries.length < 100_000);
      return decisionsCsv(entries);
    },

    /** The role's dismissed matches, latest dismissal first (at most `limit`). */
    async dismissed(accountId: string, jobId: string, limit = 100): Promise<MatchDecision[]> {
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job) throw notFound('Job');
      const rows = await db
        .selectFrom('matches')
        .select(COLUMNS)
        .where('account_id', '=', accountId)
        .where('job_id', '=', jobId)
        .where('dismissed_at', 'is not', null)
        .orderBy('dismissed_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return (rows as Row[]).map(decisionOf);
    },
  };
}

export type Dismissals = ReturnType<typeof createDismissals>;
