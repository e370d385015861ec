import {
  type Account,
  type AccountCreate,
  type AccountList,
  type AccountPatch,
  COMPANY_ADDRESS_PATTERN,
} from '../../contract/console.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, badRequest, conflict, notFound } from '../errors.ts';
import type { Seal } from '../seal.ts';
import {
  type AccountRow,
  accountRepository,
  LIMIT_COLUMNS,
  type LimitName,
  limitsOf,
} from './account-repository.ts';
import { checkEmbedOrigins } from './embed-origins.ts';
import { syncTwin } from './test-twin.ts';

const ADDRESS = new RegExp(COMPANY_ADDRESS_PATTERN);

export function toAccountView(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    companyName: row.company_name,
    logoUrl: row.logo_url,
    companyAddress: row.company_address,
    dpaAcceptedAt: row.dpa_accepted_at?.toISOString() ?? null,
    limits: limitsOf(row),
    retention: {
      applicationDays: row.retention_application_days,
      candidateDays: row.retention_candidate_days,
    },
    matchingEnabled: row.matching_enabled,
    embedOrigins: row.embed_origins,
  };
}

function checkAddress(address: string): void {
  if (!ADDRESS.test(address) || address.includes('--')) {
    throw badRequest(
      'companyAddress must be 2 to 60 characters of a-z, 0-9 and single hyphens, starting and ending with a letter or digit.',
      { field: 'companyAddress' },
    );
  }
}

export function createAccountService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const limitListeners: (() => void | Promise<void>)[] = [];

  async function claimAddress(trx: Db, accountId: string, address: string): Promise<void> {
    checkAddress(address);
    const holder = await accountRepository.addressHolder(trx, address);
    if (holder !== undefined && holder !== accountId) {
      throw conflict(`The company address "${address}" is taken by another account.`, {
        field: 'companyAddress',
      });
    }
  }

  return {
    /**
     * Told after a change of an account's limits commits, before the change answers (the guard
     * forgets what it remembered of them, on every instance).
     */
    onLimitsChanged(listener: () => void | Promise<void>): void {
      limitListeners.push(listener);
    },

    async create(input: AccountCreate): Promise<Account> {
      const now = clock.now();
      const id = newId('acc', now);
      try {
        return toAccountView(
          await db.transaction().execute(async (trx) => {
            if (input.companyAddress) await claimAddress(trx, id, input.companyAddress);
            return accountRepository.insert(trx, {
              id,
              name: input.name,
              company_name: input.companyName ?? null,
              logo_url: input.logoUrl ?? null,
              company_address: input.companyAddress ?? null,
              created_at: now,
              updated_at: now,
            });
          }),
        );
      } catch (error) {
        throw uniqueAddressConflict(error, input.companyAddress);
      }
    },

    /** The platform's accounts, oldest first; `cursor` is a previous page's nextCursor. */
    async list(query: { limit?: number; cursor?: string } = {}): Promise<AccountList> {
      const limit = query.limit ?? 50;
      let afterId: string | null = null;
      if (query.cursor !== undefined) {
        afterId = decodeCursor(query.cursor);
        if (afterId === null)
          throw badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
      }
      const rows = await accountRepository.page(db, afterId, limit + 1);
      const page = rows.slice(0, limit);
      return {
        accounts: page.map(toAccountView),
        nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
      };
    },

    async get(id: string): Promise<Account> {
      const row = await accountRepository.find(db, id);
      // A test twin is part of its live account (test-twin.ts), not an account of its own.
      if (!row?.livemode) throw notFound('Account');
      return toAccountView(row);
    },

    /** `seal` runs in the update's transaction with the account before and after. */
    async update(
      id: string,
      patch: AccountPatch,
      seal?: Seal<{ before: Account; after: Account }>,
    ): Promise<Account> {
      if (patch.dpaAccepted === false) {
        throw badRequest('dpaAccepted can only be set to true; an accepted addendum is not withdrawn here.', {
          field: 'dpaAccepted',
        });
      }
      const embedOrigins = patch.embedOrigins && checkEmbedOrigins(patch.embedOrigins);
      const now = clock.now();
      try {
        const updated = toAccountView(
          await db.transaction().execute(async (trx) => {
            // A new company address (a unique, hence key, column) makes the UPDATE below take FOR
            // UPDATE: it waits for transactions inserting rows of this account, which never wait on it.
            const current = await accountRepository.lock(trx, id);
            if (!current?.livemode) throw notFound('Account');
            const changes: Record<string, unknown> = { updated_at: now };
            if (patch.name !== undefined) changes.name = patch.name;
            if (patch.companyName !== undefined) changes.company_name = patch.companyName;
            if (patch.logoUrl !== undefined) changes.logo_url = patch.logoUrl;
            if (embedOrigins) changes.embed_origins = embedOrigins;
            if (patch.dpaAccepted === true && current.dpa_accepted_at === null) changes.dpa_accepted_at = now;
            for (const [name, value] of Object.entries(patch.limits ?? {}) as [LimitName, number][]) {
              changes[LIMIT_COLUMNS[name]] = value;
            }
            if (patch.retention?.applicationDays !== undefined)
              changes.retention_application_days = patch.retention.applicationDays;
            if (patch.retention?.candidateDays !== undefined)
              changes.retention_candidate_days = patch.retention.candidateDays;
            if (patch.matchingEnabled !== undefined) changes.matching_enabled = patch.matchingEnabled;
            if (patch.companyAddress !== undefined && patch.companyAddress !== current.company_address) {
              if (patch.companyAddress === null) {
                throw badRequest('companyAddress cannot be removed once chosen; choose a new one instead.', {
                  field: 'companyAddress',
                });
              }
              await claimAddress(trx, id, patch.companyAddress);
              // Moving back to an old address takes it out of the redirects; the one left becomes one.
              await accountRepository.reclaimAddress(trx, id, patch.companyAddress);
              if (current.company_address !== null) {
                await accountRepository.retireAddress(trx, id, current.company_address, now);
              }
              changes.company_address = patch.companyAddress;
            }
            const after = await accountRepository.update(trx, id, changes);
            await syncTwin(trx, after);
            await seal?.(trx, { before: toAccountView(current), after: toAccountView(after) });
            return after;
          }),
        );
        if (patch.limits !== undefined) for (const listener of limitListeners) await listener();
        return updated;
      } catch (error) {
        throw uniqueAddressConflict(error, patch.companyAddress);
      }
    },
  };
}

/** Two accounts racing for one address: the loser's unique violation becomes the same 409. */
function uniqueAddressConflict(error: unknown, address: string | null | undefined): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === '23505' && address) {
    return conflict(`The company address "${address}" is taken by another account.`, {
      field: 'companyAddress',
    });
  }
  return error;
}

export type AccountService = ReturnType<typeof createAccountService>;
