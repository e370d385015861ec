import type { ScreeningRequest } from '../../contract/screening.ts';
import type { Db } from '../../db/connect.ts';
import { parseInstant } from '../../lib/time.ts';
import { type AccountRow, accountRepository } from '../accounts/account-repository.ts';
import {
  adNotManaged,
  badRequest,
  conflict,
  notFound,
  overageCapReached,
  priceUnavailable,
  unsolicitedContactLimit,
} from '../errors.ts';
import type { JobRow } from '../jobs/job-repository.ts';
import { jobRepository } from '../jobs/job-repository.ts';
import { isManaged } from '../jobs/job-view.ts';
import { matchRepository } from '../matches/match-repository.ts';
import { screeningRepository, type TemplateRow } from './screening-repository.ts';

/**
 * The checks of a screening invitation, one function each, in the order the route runs them
 * (docs/decisions.md, Screening): the path's resources (the account, the role, its candidate), then
 * the body (deadline, template), then the rules of the moment (one open screening, the price, the
 * unsolicited-contact limit, the overage cap). Each runs in the caller's transaction and refuses
 * with its catalogue error before anything is written.
 */

export const DEFAULT_DEADLINE_MS = 7 * 86_400_000;
/** A deadline further out than this is a typo, not a plan. */
export const MAX_DEADLINE_MS = 90 * 86_400_000;
export const CONTACT_WINDOW_MS = 7 * 86_400_000;

export type ManagedRole = JobRow & { managed_since: Date };

export interface RoleCandidate {
  kind: 'application' | 'candidate' | 'person';
  /** Applied to this role: contact is solicited. */
  applied: boolean;
  /** Holds a claimed virtual CV (or their own account's CV): reached there, not by email. */
  claimed: boolean;
}

export function monthBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The account, locked: one account's invitations take turns, so none can race past the cap. */
export async function lockAccount(trx: Db, accountId: string): Promise<AccountRow> {
  const account = await accountRepository.lock(trx, accountId);
  if (!account) throw notFound('Account');
  return account;
}

/**
 * The path's job: the account's (404 otherwise, a draft too), and a managed, published ad (409).
 * Held FOR SHARE until the invitation commits: a close (which cancels the role's open screenings)
 * or an unmanage waits for it, or it waits for them and reads the job as they left it.
 */
export async function managedRole(
  trx: Db,
  accountId: string,
  jobId: string,
  now: Date,
): Promise<ManagedRole> {
  const job = await jobRepository.find(trx, accountId, jobId, 'share');
  if (!job || job.status === 'draft') throw notFound('Job');
  if (!isManaged(job, now) || job.managed_since === null) throw adNotManaged();
  return job as ManagedRole;
}

/**
 * The path's candidate, one of the role's: an application to this job that is received and still
 * holds the person's address, a person in the account's pool that does, or an applicant to another
 * of its roles who is a match of this one. Anything else is 404.
 */
export async function roleCandidate(
  trx: Db,
  accountId: string,
  jobId: string,
  candidateId: string,
): Promise<RoleCandidate> {
  const { application, imported } = await screeningRepository.candidateFacts(trx, accountId, candidateId);
  if (
    application &&
    application.job_id === jobId &&
    application.status === 'received' &&
    application.email !== null
  ) {
    return { kind: 'application', applied: true, claimed: application.cv_status === 'claimed' };
  }
  // An earlier applicant to another of the account's roles is this role's candidate once matched
  // to it (issue 19): contacting them is unsolicited.
  if (
    application &&
    application.status === 'received' &&
    application.email !== null &&
    (await matchRepository.isMatch(trx, jobId, 'application', candidateId))
  ) {
    return { kind: 'application', applied: false, claimed: application.cv_status === 'claimed' };
  }
  if (imported && imported.email !== null) {
    return { kind: 'candidate', applied: false, claimed: imported.cv_status === 'claimed' };
  }
  // A platform person open to matches (issue 19), by the account's own alias, while a match of
  // this role: unsolicited, reached on the platform (their own account's CV), never by email.
  if (await matchRepository.platformSubject(trx, accountId, candidateId, jobId)) {
    return { kind: 'person', applied: false, claimed: true };
  }
  throw notFound('Candidate');
}

/** The body's deadline: seven days from now by default, else in the future and within 90 days. */
export function deadline(completeBy: ScreeningRequest['completeBy'], now: Date): Date {
  if (completeBy === undefined) return new Date(now.getTime() + DEFAULT_DEADLINE_MS);
  const at = parseInstant(completeBy);
  if (at === null) throw badRequest('completeBy must be an ISO 8601 date-time.', { field: 'completeBy' });
  if (at.getTime() <= now.getTime())
    throw badRequest('completeBy must be in the future.', { field: 'completeBy' });
  if (at.getTime() > now.getTime() + MAX_DEADLINE_MS) {
    throw badRequest('completeBy must be within 90 days.', { field: 'completeBy' });
  }
  return at;
}

/** The body's template: one of the account's, and active. */
export async function activeTemplate(trx: Db, accountId: string, templateId: string): Promise<TemplateRow> {
  const template = await screeningRepository.template(trx, accountId, templateId);
  if (!template?.active) {
    throw badRequest('templateId names no active screening template of this account.', {
      field: 'templateId',
    });
  }
  return template;
}

/** One open screening per candidate per role (409). */
export async function noOpenScreening(trx: Db, jobId: string, candidateId: string, now: Date): Promise<void> {
  if (await screeningRepository.openFor(trx, jobId, candidateId, now)) {
    throw conflict('A screening is already open for this candidate on this role.');
  }
}

/** The template's price, locked at the call; a price that cannot be read sends nothing (409). */
export function lockedPrice(template: TemplateRow): number {
  if (template.price_cents === null) throw priceUnavailable();
  return template.price_cents;
}

/**
 * A person who did not apply is contacted at most `weekly_unsolicited_contacts` times in any seven
 * days, across the account's roles (429, with the seconds until the oldest contact leaves the window).
 */
export async function withinContactLimit(
  trx: Db,
  account: AccountRow,
  candidateId: string,
  now: Date,
): Promise<void> {
  const limit = account.weekly_unsolicited_contacts;
  const contacts = await screeningRepository.contactsSince(
    trx,
    account.id,
    candidateId,
    new Date(now.getTime() - CONTACT_WINDOW_MS),
  );
  if (contacts.length < limit) return;
  // With a limit of 0 there may be no contact in the window: then retry after a whole window.
  const oldest = contacts[contacts.length - limit] ?? now;
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + CONTACT_WINDOW_MS - now.getTime()) / 1000));
  throw unsolicitedContactLimit(contacts.length, limit, retryAfter);
}

/**
 * Included while the managing period has screenings left; otherwise overage, which must fit under
 * the month's cap together with the overage already committed in the template's currency (402).
 */
export async function billingClass(
  trx: Db,
  facts: { account: AccountRow; job: ManagedRole; template: TemplateRow; price: number; now: Date },
): Promise<'included' | 'overage'> {
  const { account, job, template, price, now } = facts;
  const used = await screeningRepository.includedUsed(trx, job.id, job.managed_since, now);
  if (used < account.included_screenings_per_managed_ad) return 'included';
  const month = monthBounds(now);
  const committed = await screeningRepository.committedOverage(
    trx,
    account.id,
    template.currency,
    month.start,
    month.end,
    now,
  );
  if (committed + price > account.monthly_overage_cap_cents) {
    throw overageCapReached({
      priceCents: price,
      currency: template.currency,
      capCents: account.monthly_overage_cap_cents,
      spendCents: committed,
    });
  }
  return 'overage';
}
