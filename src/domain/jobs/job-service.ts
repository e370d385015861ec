import type { AuthoredJob, JobCreate, JobEdit } from '../../contract/job.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { encodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import { DAY_MS } from '../../lib/time.ts';
import { type AccountRow, accountRepository } from '../accounts/account-repository.ts';
import {
  companyAddressRequired,
  conflict,
  managedAdLocked,
  noSlotAvailable,
  notFound,
  notPublishable,
} from '../errors.ts';
import type { EventRecorder } from '../events/event-log.ts';
import type { Seal } from '../seal.ts';
import { planEdit } from './job-edit-plan.ts';
import { type JobListQuery, readListQuery } from './job-list-query.ts';
import { type JobRow, jobRepository } from './job-repository.ts';
import { companyOf, isManaged, statusAt, toJobView, withAdvisories } from './job-view.ts';
import {
  checkWords,
  lockedChanges,
  mergeWords,
  missingToPublish,
  pickWords,
  readExpiry,
  type Words,
} from './job-words.ts';
import { slugify } from './slug.ts';

export interface EditResult {
  job: AuthoredJob;
  pendingRevision: boolean;
}
export interface ConsoleJob extends AuthoredJob {
  managed: boolean;
  pendingRevision: boolean;
  stagedRevision: Words | null;
  maxMatches: number | null;
}

/** What closing a role needs of the screening area, which owns the screenings it ends. */
export interface ScreeningsOfClosedRole {
  cancelForClosedJob(trx: Db, jobId: string, at: Date): Promise<unknown>;
}

export function createJobService(deps: {
  db: Db;
  clock: Clock;
  publicBaseUrl: string;
  screenings: ScreeningsOfClosedRole;
  events: EventRecorder;
}) {
  const { db, clock, publicBaseUrl, screenings, events } = deps;

  /** A job event, in the change's transaction: ids and the status after the change. */
  const jobEvent = (trx: Db, row: JobRow, type: 'job.published' | 'job.updated' | 'job.closed', now: Date) =>
    events.record(trx, row.account_id, { type, data: { jobId: row.id, status: statusAt(row, now) } });

  /** The account; `lock`: its row lock, the transaction's first (docs/architecture.md, "Lock order"). */
  async function account(trx: Db, accountId: string, lock = false): Promise<AccountRow> {
    const row = lock
      ? await accountRepository.lock(trx, accountId)
      : await accountRepository.find(trx, accountId);
    if (!row) throw notFound('Account');
    return row;
  }

  async function jobFor(trx: Db, accountId: string, jobId: string): Promise<JobRow> {
    const row = await jobRepository.find(trx, accountId, jobId, 'write');
    if (!row) throw notFound('Job');
    return row;
  }

  const view = (row: JobRow, acc: AccountRow, now: Date) =>
    withAdvisories(toJobView(row, acc, now, publicBaseUrl));

  async function uniqueSlug(trx: Db, accountId: string, title: string): Promise<string> {
    const base = slugify(title);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base.slice(0, 55)}-${n}`;
      if (!(await jobRepository.slugTaken(trx, accountId, candidate))) return candidate;
    }
  }

  async function publishIn(trx: Db, accountId: string, jobId: string, expiryDays: number | null | undefined) {
    // The account row lock serialises publishes of one account: slugs and the address stay consistent.
    const acc = await account(trx, accountId, true);
    const row = await jobFor(trx, accountId, jobId);
    const now = clock.now();
    const status = statusAt(row, now);
    if (status === 'published') {
      // Already live: nothing changes, except an expiry the caller explicitly sent.
      if (expiryDays === undefined) return { job: view(row, acc, now), firstPublish: false };
      const updated = await jobRepository.update(trx, accountId, jobId, {
        expires_at: expiryDays === null ? null : new Date(now.getTime() + expiryDays * DAY_MS),
        updated_at: now,
      });
      await jobEvent(trx, updated, 'job.updated', now);
      return { job: view(updated, acc, now), firstPublish: false };
    }
    const words = { ...(row.content as Words), ...((row.staged as Words | null) ?? {}) };
    const firstPublish = row.first_published_at === null;
    const missing = missingToPublish(words, firstPublish);
    if (missing.length > 0) throw notPublishable(missing);
    if (acc.company_address === null) throw companyAddressRequired();
    let expiresAt: Date | null;
    if (expiryDays !== undefined)
      expiresAt = expiryDays === null ? null : new Date(now.getTime() + expiryDays * DAY_MS);
    else
      expiresAt = row.expires_at !== null && row.expires_at.getTime() > now.getTime() ? row.expires_at : null;
    const updated = await jobRepository.update(trx, accountId, jobId, {
      status: 'published',
      content: words,
      staged: null,
      slug: row.slug ?? (await uniqueSlug(trx, accountId, String(words.title))),
      expires_at: expiresAt,
      managed_since: null,
      first_published_at: row.first_published_at ?? now,
      posted_at: now,
      closed_at: null,
      updated_at: now,
    });
    await jobEvent(trx, updated, 'job.published', now);
    return { job: view(updated, acc, now), firstPublish };
  }

  async function promoteIn(trx: Db, accountId: string, jobId: string): Promise<EditResult> {
    const acc = await account(trx, accountId);
    const row = await jobFor(trx, accountId, jobId);
    const now = clock.now();
    const staged = row.staged as Words | null;
    if (staged === null) return { job: view(row, acc, now), pendingRevision: false };
    if (isManaged(row, now)) {
      const fields = lockedChanges(row.content as Words, {}, staged);
      if (fields.length > 0) throw managedAdLocked(fields);
    }
    const updated = await jobRepository.update(trx, accountId, jobId, {
      content: staged,
      staged: null,
      updated_at: now,
    });
    if (statusAt(updated, now) !== 'draft') await jobEvent(trx, updated, 'job.updated', now);
    return { job: view(updated, acc, now), pendingRevision: false };
  }

  return {
    async create(accountId: string, input: JobCreate, seal?: Seal<AuthoredJob>): Promise<AuthoredJob> {
      const now = clock.now();
      const words = pickWords(input);
      checkWords(words);
      const expiresAt = readExpiry(input.expiresAt, now) ?? null;
      return db.transaction().execute(async (trx) => {
        const acc = await account(trx, accountId);
        const row = await jobRepository.insert(trx, {
          id: newId('job', now),
          account_id: accountId,
          status: 'draft',
          content: mergeWords({}, words),
          slug: null,
          expires_at: expiresAt,
          max_matches: input.maxMatches ?? null,
          managed_since: null,
          first_published_at: null,
          posted_at: null,
          closed_at: null,
          created_at: now,
          updated_at: now,
        });
        const job = view(row, acc, now);
        await seal?.(trx, job);
        return job;
      });
    },

    /**
     * On a draft the words change at once. On a published, closed or expired ad they are staged
     * (the live words stay) until promoted. expiresAt and maxMatches always apply at once.
     */
    async edit(
      accountId: string,
      jobId: string,
      input: JobEdit,
      seal?: Seal<EditResult>,
    ): Promise<EditResult> {
      const now = clock.now();
      const sent = pickWords(input);
      checkWords(sent);
      const expiresAt = readExpiry(input.expiresAt, now);
      return db.transaction().execute(async (trx) => {
        const acc = await account(trx, accountId);
        const row = await jobFor(trx, accountId, jobId);
        const status = statusAt(row, now);
        const changes = planEdit(row, status, sent, input, expiresAt, now);
        let result = row;
        if (Object.keys(changes).length > 0) {
          // Dropping the freed managed flag alone is not an edit the API shows: updatedAt stays.
          const edited = Object.keys(changes).some((key) => key !== 'managed_since');
          result = await jobRepository.update(
            trx,
            accountId,
            jobId,
            edited ? { ...changes, updated_at: now } : changes,
          );
          // Drafts are nobody's business outside the account: no event until they are published.
          if (edited && status !== 'draft') await jobEvent(trx, result, 'job.updated', now);
        }
        const edited = { job: view(result, acc, now), pendingRevision: result.staged !== null };
        await seal?.(trx, edited);
        return edited;
      });
    },

    async publish(
      accountId: string,
      jobId: string,
      body: { expiryDays?: number | null },
      seal?: Seal<{ job: AuthoredJob; firstPublish: boolean }>,
    ): Promise<{ job: AuthoredJob; firstPublish: boolean }> {
      return db.transaction().execute(async (trx) => {
        const result = await publishIn(trx, accountId, jobId, body.expiryDays);
        await seal?.(trx, result);
        return result;
      });
    },

    async close(accountId: string, jobId: string, seal?: Seal<AuthoredJob>): Promise<AuthoredJob> {
      return db.transaction().execute(async (trx) => {
        const acc = await account(trx, accountId);
        const row = await jobFor(trx, accountId, jobId);
        const now = clock.now();
        const status = statusAt(row, now);
        if (status !== 'published')
          throw conflict(`Only a published job can be closed; this one is ${status}.`, { status });
        const updated = await jobRepository.update(trx, accountId, jobId, {
          status: 'closed',
          closed_at: now,
          managed_since: null,
          updated_at: now,
        });
        // The role's open screenings end with it, unbilled, in the same transaction.
        await screenings.cancelForClosedJob(trx, jobId, now);
        await jobEvent(trx, updated, 'job.closed', now);
        const job = view(updated, acc, now);
        await seal?.(trx, job);
        return job;
      });
    },

    /** A job as `jobs:read` sees it: drafts do not exist there. */
    async get(accountId: string, jobId: string): Promise<AuthoredJob> {
      const row = await jobRepository.findPublic(db, accountId, jobId);
      if (!row) throw notFound('Job');
      return withAdvisories(toJobView(row, companyOf(row), clock.now(), publicBaseUrl));
    },

    async list(
      accountId: string,
      query: JobListQuery,
    ): Promise<{ jobs: AuthoredJob[]; nextCursor: string | null }> {
      const { statuses, updatedSince, afterId } = readListQuery(query);
      const limit = query.limit ?? 50;
      const now = clock.now();
      const rows = await jobRepository.listPublic(db, {
        accountId,
        statuses,
        updatedSince,
        afterId,
        limit: limit + 1,
        now,
      });
      const page = rows.slice(0, limit);
      const nextCursor = rows.length > limit ? encodeCursor(page.at(-1)!.id) : null;
      return {
        jobs: page.map((row) => withAdvisories(toJobView(row, companyOf(row), now, publicBaseUrl))),
        nextCursor,
      };
    },

    async listForConsole(accountId: string): Promise<ConsoleJob[]> {
      const acc = await account(db, accountId);
      const now = clock.now();
      return (await jobRepository.listAll(db, accountId)).map((row) => ({
        ...view(row, acc, now),
        managed: isManaged(row, now),
        pendingRevision: row.staged !== null,
        stagedRevision: row.staged as Words | null,
        maxMatches: row.max_matches,
      }));
    },

    async promote(accountId: string, jobId: string, seal?: Seal<EditResult>): Promise<EditResult> {
      return db.transaction().execute(async (trx) => {
        const promoted = await promoteIn(trx, accountId, jobId);
        await seal?.(trx, promoted);
        return promoted;
      });
    },

    async manage(
      accountId: string,
      jobId: string,
      seal?: Seal<{ job: AuthoredJob; managed: true }>,
    ): Promise<{ job: AuthoredJob; managed: true }> {
      return db.transaction().execute(async (trx) => {
        // The account row lock makes the slot count and the take one step: two calls cannot share a slot.
        const acc = await account(trx, accountId, true);
        const row = await jobFor(trx, accountId, jobId);
        const now = clock.now();
        const status = statusAt(row, now);
        if (status !== 'published')
          throw conflict(`Only a published job can be managed; this one is ${status}.`, { status });
        if (isManaged(row, now)) return { job: view(row, acc, now), managed: true };
        if ((await jobRepository.countManaged(trx, accountId, now)) >= acc.managed_ad_slots) {
          throw noSlotAvailable(acc.managed_ad_slots);
        }
        const updated = await jobRepository.update(trx, accountId, jobId, { managed_since: now });
        const result = { job: view(updated, acc, now), managed: true as const };
        await seal?.(trx, result);
        return result;
      });
    },

    async unmanage(
      accountId: string,
      jobId: string,
      seal?: Seal<{ job: AuthoredJob; managed: false }>,
    ): Promise<{ job: AuthoredJob; managed: false }> {
      return db.transaction().execute(async (trx) => {
        const acc = await account(trx, accountId);
        const row = await jobFor(trx, accountId, jobId);
        const now = clock.now();
        const updated =
          row.managed_since === null
            ? row
            : await jobRepository.update(trx, accountId, jobId, { managed_since: null });
        const result = { job: view(updated, acc, now), managed: false as const };
        if (updated !== row) await seal?.(trx, result);
        return result;
      });
    },

    /**
     * Test mode (extensions.md §8): a live test job reaches its expiresAt now. As time would: only
     * expiresAt moves (not updatedAt), and `job.expired` is recorded under the sweep's own key, so
     * the sweep does not report it again.
     */
    async expireForTest(accountId: string, jobId: string): Promise<{ job: AuthoredJob }> {
      return db.transaction().execute(async (trx) => {
        const acc = await account(trx, accountId);
        const row = await jobFor(trx, accountId, jobId);
        const now = clock.now();
        const status = statusAt(row, now);
        if (status !== 'published')
          throw conflict(`Only a published job can expire; this one is ${status}.`, { status });
        const updated = await jobRepository.update(trx, accountId, jobId, { expires_at: now });
        await events.record(
          trx,
          accountId,
          { type: 'job.expired', data: { jobId, status: 'expired' } },
          { dedupeKey: `job.expired:${jobId}:${now.toISOString()}` },
        );
        return { job: view(updated, acc, now) };
      });
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
