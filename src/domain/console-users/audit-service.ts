import type { Account } from '../../contract/console.ts';
import type { AuditEntry } from '../../contract/console-users.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Seal } from '../seal.ts';
import { type AuditRow, auditRepository } from './audit-repository.ts';

/** Who made a console change: a signed-in console user, or the operator (console token). */
export type Actor = { kind: 'user'; userId: string; email: string } | { kind: 'operator' };

/** What a change records beside who and when; never a secret, a password or a candidate's data. */
export interface AuditFact {
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
}

/** What an account update changed, as the trail names it (address, addendum, cap, other fields). */
export function accountChangeFacts(before: Account, after: Account): AuditFact[] {
  const facts: AuditFact[] = [];
  if (before.companyAddress !== after.companyAddress) {
    facts.push({
      action: 'account.address_changed',
      detail: { before: before.companyAddress, after: after.companyAddress },
    });
  }
  if (before.matchingEnabled !== after.matchingEnabled)
    facts.push({ action: after.matchingEnabled ? 'account.matching_enabled' : 'account.matching_disabled' });
  if (before.dpaAcceptedAt === null && after.dpaAcceptedAt !== null)
    facts.push({ action: 'account.addendum_accepted' });
  if (before.limits.monthlyOverageCapCents !== after.limits.monthlyOverageCapCents) {
    facts.push({
      action: 'account.cap_changed',
      detail: {
        beforeCents: before.limits.monthlyOverageCapCents,
        afterCents: after.limits.monthlyOverageCapCents,
      },
    });
  }
  const others: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of ['name', 'companyName', 'logoUrl'] as const) {
    if (before[field] !== after[field]) others[field] = { before: before[field], after: after[field] };
  }
  if (before.embedOrigins.join(' ') !== after.embedOrigins.join(' '))
    others.embedOrigins = { before: before.embedOrigins, after: after.embedOrigins };
  for (const [name, value] of Object.entries(after.limits) as [keyof Account['limits'], number][]) {
    if (name !== 'monthlyOverageCapCents' && before.limits[name] !== value) {
      others[`limits.${name}`] = { before: before.limits[name], after: value };
    }
  }
  for (const field of ['applicationDays', 'candidateDays'] as const) {
    if (before.retention[field] !== after.retention[field]) {
      others[`retention.${field}`] = { before: before.retention[field], after: after.retention[field] };
    }
  }
  if (Object.keys(others).length > 0) facts.push({ action: 'account.updated', detail: others });
  return facts;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actor_kind, userId: row.actor_id, email: row.actor_email },
    action: row.action,
    target: row.target,
    detail: row.detail,
  };
}

export function createAuditService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function record(trx: Db, accountId: string, actor: Actor, fact: AuditFact): Promise<void> {
    const now = clock.now();
    await auditRepository.insert(trx, {
      id: newId('aud', now),
      account_id: accountId,
      actor_kind: actor.kind,
      actor_id: actor.kind === 'user' ? actor.userId : null,
      actor_email: actor.kind === 'user' ? actor.email : null,
      action: fact.action,
      target: fact.target ?? null,
      detail: fact.detail ?? {},
      at: now,
    });
  }

  return {
    record,

    /**
     * A seal that records the change in the service's own transaction: the change and its audit
     * entry commit or vanish together. `describe` reads the service's result.
     */
    sealed<T>(
      accountId: string,
      actor: Actor,
      describe: (result: T) => AuditFact | AuditFact[] | null,
    ): Seal<T> {
      return async (trx, result) => {
        const facts = describe(result);
        for (const fact of facts === null ? [] : [facts].flat()) await record(trx, accountId, actor, fact);
      };
    },

    async list(
      accountId: string,
      query: { limit?: number; cursor?: string } = {},
    ): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      let beforeSeq: string | null = null;
      if (query.cursor !== undefined) {
        beforeSeq = decodeCursor(query.cursor);
        if (beforeSeq === null || !/^\d{1,19}$/.test(beforeSeq))
          throw badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
      }
      const limit = query.limit ?? 100;
      const rows = await auditRepository.list(db, accountId, limit + 1, beforeSeq);
      const page = rows.slice(0, limit);
      return {
        entries: page.map(toEntry),
        nextCursor: rows.length > limit ? encodeCursor(String(page.at(-1)!.seq)) : null,
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
