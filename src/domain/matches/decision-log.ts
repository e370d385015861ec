// The decision log of automated matching (extensions.md §7; EU AI Act Art. 12, 26(6)): every
// generated match, dismissal, restore and screening invitation of a matched person, with ids, the
// ranker's version, the score, the reasons and the actor. It holds no personal data (no name,
// address, phone, CV text or free text: a dismissal's reason stays in the audit trail), so the
// erasure routine leaves it, and nothing deletes it before six months (nothing deletes it at all
// today; docs/decisions.md).
import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import type { Actor } from '../console-users/audit-service.ts';
import { badRequest } from '../errors.ts';

export type DecisionKind = 'generated' | 'dismissed' | 'restored' | 'invited';

/** Who decided, as the log names it: never an address. */
export type DecisionActor = 'system' | 'operator' | `user:${string}` | `key:${string}`;

export const decisionActorOf = (actor: Actor): DecisionActor =>
  actor.kind === 'user' ? `user:${actor.userId}` : 'operator';

export interface DecisionEntry {
  id: string;
  at: string;
  kind: DecisionKind;
  jobId: string;
  matchId: string;
  candidateId: string;
  rankerVersion: string;
  score: number;
  reasons: string[];
  actor: DecisionActor;
  screeningId: string | null;
}

export interface DecisionInput {
  accountId: string;
  kind: DecisionKind;
  jobId: string;
  matchId: string;
  candidateId: string;
  rankerVersion: string;
  /** In ten-thousandths, as stored on the match. */
  score: number;
  reasons: string[];
  actor: DecisionActor;
  screeningId?: string | null;
  at: Date;
}

export const decisionLog = {
  async record(trx: Db, entries: readonly DecisionInput[]): Promise<void> {
    for (let i = 0; i < entries.length; i += 500) {
      await trx
        .insertInto('match_decisions')
        .values(
          entries.slice(i, i + 500).map((e) => ({
            id: newId('mdl', e.at),
            account_id: e.accountId,
            at: e.at,
            kind: e.kind,
            job_id: e.jobId,
            match_id: e.matchId,
            candidate_id: e.candidateId,
            ranker_version: e.rankerVersion,
            score: e.score,
            reasons: JSON.stringify(e.reasons),
            actor: e.actor,
            screening_id: e.screeningId ?? null,
          })),
        )
        .execute();
    }
  },

  /**
   * A screening invitation: logged when the candidate is a (not dismissed) match of the role, with
   * the match's version, score and reasons; nothing otherwise (an applicant is not a decision of
   * the ranker).
   */
  async invitation(
    trx: Db,
    input: {
      accountId: string;
      jobId: string;
      candidateId: string;
      screeningId: string;
      actor: DecisionActor;
      at: Date;
    },
  ): Promise<boolean> {
    const match = await trx
      .selectFrom('matches')
      .select(['id', 'ranker_version', 'score', 'reasons'])
      .where('account_id', '=', input.accountId)
      .where('job_id', '=', input.jobId)
      .where('candidate_id', '=', input.candidateId)
      .where('dismissed_at', 'is', null)
      .executeTakeFirst();
    if (!match) return false;
    await decisionLog.record(trx, [
      {
        accountId: input.accountId,
        kind: 'invited',
        jobId: input.jobId,
        matchId: match.id,
        candidateId: input.candidateId,
        rankerVersion: match.ranker_version,
        score: match.score,
        reasons: match.reasons,
        actor: input.actor,
        screeningId: input.screeningId,
        at: input.at,
      },
    ]);
    return true;
  },

  /** The account's entries from `from` to before `to`, oldest first, a page at a time. */
  async page(
    db: Db,
    accountId: string,
    query: { from?: string; to?: string; cursor?: string; limit?: number },
  ): Promise<{ entries: DecisionEntry[]; nextCursor: string | null }> {
    const from = instant(query.from, 'from');
    const to = instant(query.to, 'to');
    let after: { at: Date; id: string } | null = null;
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor);
      const m = position === null ? null : /^(\d{1,15}):(mdl_[A-Za-z0-9_-]{1,60})$/.exec(position);
      if (!m) throw badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
      after = { at: new Date(Number(m[1])), id: m[2] as string };
    }
    const limit = query.limit ?? 100;
    const rows = await db
      .selectFrom('match_decisions')
      .selectAll()
      .where('account_id', '=', accountId)
      .$if(from !== null, (q) => q.where('at', '>=', from as Date))
      .$if(to !== null, (q) => q.where('at', '<', to as Date))
      .$if(after !== null, (q) =>
        q.where(sql<boolean>`(at, id) > (${(after as { at: Date }).at}, ${(after as { id: string }).id})`),
      )
      .orderBy('at')
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      entries: page.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        kind: row.kind,
        jobId: row.job_id,
        matchId: row.match_id,
        candidateId: row.candidate_id,
        rankerVersion: row.ranker_version,
        score: row.score / 10_000,
        reasons: row.reasons,
        actor: row.actor as DecisionActor,
        screeningId: row.screening_id,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor(`${last.at.getTime()}:${last.id}`) : null,
    };
  },
};

function instant(value: string | undefined, field: string): Date | null {
  if (value === undefined || value === '') return null;
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime()))
    throw badRequest(`${field} must be an ISO 8601 date or date-time.`, { field });
  return at;
}

const CSV_COLUMNS = [
  'id',
  'at',
  'kind',
  'jobId',
  'matchId',
  'candidateId',
  'rankerVersion',
  'score',
  'reasons',
  'actor',
  'screeningId',
] as const;

/** The entries as CSV (RFC 4180 quoting; a cell starting with = + - @ is prefixed with '). */
export function decisionsCsv(entries: readonly DecisionEntry[]): string {
  const cell = (value: unknown) => {
    let text = Array.isArray(value) ? value.join('; ') : value === null ? '' : String(value);
    if (/^[=+\-@]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [CSV_COLUMNS.join(',')];
  for (const entry of entries) lines.push(CSV_COLUMNS.map((c) => cell(entry[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
