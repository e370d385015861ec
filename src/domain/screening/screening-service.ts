import type {
  Screening,
  ScreeningRequest,
  ScreeningTemplate,
  ScreeningTriggered,
  TemplateCreate,
  TemplatePatch,
} from '../../contract/screening.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { parseInstant } from '../../lib/time.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { screeningInviteMail } from '../../mail/templates.ts';
import { cvRepository } from '../cv/cv-repository.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import type { ConsentLocale } from '../consent/consent-texts.ts';
import {
  adNotManaged,
  badRequest,
  conflict,
  notFound,
  overageCapReached,
  priceUnavailable,
  unsolicitedContactLimit,
} from '../errors.ts';
import { jobRepository } from '../jobs/job-repository.ts';
import type { Seal } from '../seal.ts';
import { isManaged } from '../jobs/job-view.ts';
import { type ScreeningRow, type TemplateRow, screeningRepository } from './screening-repository.ts';

export const DEFAULT_DEADLINE_MS = 7 * 86_400_000;
/** A deadline further out than this is a typo, not a plan. */
export const MAX_DEADLINE_MS = 90 * 86_400_000;
export const CONTACT_WINDOW_MS = 7 * 86_400_000;

export function statusOf(row: ScreeningRow, now: Date): Screening['status'] {
  if (row.status === 'invited' && row.complete_by.getTime() <= now.getTime()) return 'expired';
  return row.status;
}

export function screeningView(row: ScreeningRow, now: Date): Screening {
  return {
    screeningId: row.id,
    jobId: row.job_id,
    candidateId: row.candidate_id,
    templateId: row.template_id,
    status: statusOf(row, now),
    deliveryPath: row.delivery_path,
    completeBy: row.complete_by.toISOString(),
    requestedAt: row.requested_at.toISOString(),
  };
}

const templateView = (row: TemplateRow): ScreeningTemplate => ({
  id: row.id,
  name: row.name,
  priceCents: row.price_cents,
  currency: row.currency,
  active: row.active,
});

export function monthBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

interface Reachable {
  kind: 'application' | 'candidate';
  /** Applied to this role: contact is solicited. */
  applied: boolean;
  /** Holds a claimed virtual CV (or their own account's CV): reached there, not by email. */
  claimed: boolean;
}

export function createScreeningService(deps: { db: Db; clock: Clock; queue: TaskQueue; mailer: Mailer }) {
  const { db, clock, queue } = deps;

  /** One of the role's candidates: an application to this job, or a person in the account's pool. */
  async function candidateOf(
    trx: Db,
    accountId: string,
    jobId: string,
    candidateId: string,
  ): Promise<Reachable> {
    const { application, imported } = await screeningRepository.candidateFacts(trx, accountId, candidateId);
    if (
      application &&
      application.job_id === jobId &&
      application.status === 'received' &&
      application.email !== null
    ) {
      return { kind: 'application', applied: true, claimed: application.cv_status === 'claimed' };
    }
    if (imported && imported.email !== null) {
      return { kind: 'candidate', applied: false, claimed: imported.cv_status === 'claimed' };
    }
    throw notFound('Candidate');
  }

  return {
    async createTemplate(accountId: string, input: TemplateCreate): Promise<ScreeningTemplate> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      const now = clock.now();
      return templateView(
        await screeningRepository.insertTemplate(db, {
          id: newId('tpl', now),
          account_id: accountId,
          name: input.name,
          price_cents: input.priceCents,
          currency: input.currency,
          active: input.active ?? true,
          created_at: now,
          updated_at: now,
        }),
      );
    },

    async updateTemplate(
      accountId: string,
      templateId: string,
      input: TemplatePatch,
    ): Promise<ScreeningTemplate> {
      const row = await screeningRepository.updateTemplate(db, accountId, templateId, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.priceCents !== undefined ? { price_cents: input.priceCents } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        updated_at: clock.now(),
      });
      if (!row) throw notFound('Screening template');
      return templateView(row);
    },

    /**
     * Checks in order — body, job, candidate, one open screening, price, unsolicited-contact limit,
     * overage cap — then the insert, all in one transaction under the account's row lock, so two
     * concurrent calls cannot both pass the cap or both open a screening.
     */
    async trigger(
      accountId: string,
      jobId: string,
      candidateId: string,
      input: ScreeningRequest,
      seal?: Seal<ScreeningTriggered>,
    ): Promise<ScreeningTriggered> {
      const now = clock.now();
      let completeBy = new Date(now.getTime() + DEFAULT_DEADLINE_MS);
      if (input.completeBy !== undefined) {
        const at = parseInstant(input.completeBy);
        if (at === null)
          throw badRequest('completeBy must be an ISO 8601 date-time.', { field: 'completeBy' });
        if (at.getTime() <= now.getTime())
          throw badRequest('completeBy must be in the future.', { field: 'completeBy' });
        if (at.getTime() > now.getTime() + MAX_DEADLINE_MS) {
          throw badRequest('completeBy must be within 90 days.', { field: 'completeBy' });
        }
        completeBy = at;
      }
      return db.transaction().execute(async (trx) => {
        const account = await accountRepository.findForUpdate(trx, accountId);
        if (!account) throw notFound('Account');
        const template = await screeningRepository.template(trx, accountId, input.templateId);
        if (!template || !template.active) {
          throw badRequest('templateId names no active screening template of this account.', {
            field: 'templateId',
          });
        }
        const job = await jobRepository.find(trx, accountId, jobId);
        if (!job || job.status === 'draft') throw notFound('Job');
        if (!isManaged(job, now) || job.managed_since === null) {
          throw adNotManaged();
        }
        const candidate = await candidateOf(trx, accountId, jobId, candidateId);
        if (await screeningRepository.openFor(trx, jobId, candidateId, now)) {
          throw conflict('A screening is already open for this candidate on this role.');
        }
        if (template.price_cents === null) {
          throw priceUnavailable();
        }
        const unsolicited = !candidate.applied;
        if (unsolicited) {
          const contacts = await screeningRepository.contactsSince(
            trx,
            accountId,
            candidateId,
            new Date(now.getTime() - CONTACT_WINDOW_MS),
          );
          if (contacts.length >= account.weekly_unsolicited_contacts) {
            // With a limit of 0 there may be no contact in the window: then retry after a whole window.
            const oldest = contacts[contacts.length - account.weekly_unsolicited_contacts] ?? now;
            const retryAfter = Math.max(
              1,
              Math.ceil((oldest.getTime() + CONTACT_WINDOW_MS - now.getTime()) / 1000),
            );
            throw unsolicitedContactLimit(contacts.length, account.weekly_unsolicited_contacts, retryAfter);
          }
        }
        const included =
          (await screeningRepository.includedUsed(trx, jobId, job.managed_since, now)) <
          account.included_screenings_per_managed_ad;
        if (!included) {
          const month = monthBounds(now);
          const committed = await screeningRepository.committedOverage(
            trx,
            accountId,
            template.currency,
            month.start,
            month.end,
            now,
          );
          if (committed + template.price_cents > account.monthly_overage_cap_cents) {
            throw overageCapReached({
              priceCents: template.price_cents,
              currency: template.currency,
              capCents: account.monthly_overage_cap_cents,
              spendCents: committed,
            });
          }
        }
        const row = await screeningRepository.insert(trx, {
          id: newId('scr', now),
          account_id: accountId,
          job_id: jobId,
          candidate_kind: candidate.kind,
          candidate_id: candidateId,
          template_id: template.id,
          status: 'invited',
          delivery_path: candidate.claimed ? 'virtual_cv' : 'email',
          billing: included ? 'included' : 'overage',
          price_cents: template.price_cents,
          currency: template.currency,
          managed_since: job.managed_since,
          unsolicited,
          message: input.message ?? null,
          language: input.language ?? 'en',
          complete_by: completeBy,
          requested_at: now,
          completed_at: null,
          cancelled_at: null,
        });
        if (row.delivery_path === 'email') {
          await queue.enqueue(
            trx,
            'send-screening-invite',
            { screeningId: row.id },
            { key: `send-screening-invite:${row.id}` },
          );
        }
        const result: ScreeningTriggered = {
          screening: screeningView(row, now),
          billing: row.billing,
          priceCents: row.price_cents,
          currency: row.currency,
        };
        await seal?.(trx, result);
        return result;
      });
    },

    /** The role closed (jobs calls this inside its close): open screenings end with it, unbilled. */
    async cancelForClosedJob(trx: Db, jobId: string, at: Date): Promise<number> {
      return screeningRepository.cancelOpenForJob(trx, jobId, at);
    },

    /** Console: the candidate finished; overage is billed now, at the price locked at the call. */
    async complete(accountId: string, screeningId: string): Promise<Screening> {
      const now = clock.now();
      const row = await screeningRepository.complete(db, accountId, screeningId, now);
      if (row) return screeningView(row, now);
      const existing = await screeningRepository.find(db, accountId, screeningId);
      if (!existing) throw notFound('Screening');
      throw conflict(`Only an open screening can be completed; this one is ${statusOf(existing, now)}.`);
    },

    async billing(accountId: string, month: string) {
      const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
      if (!match) throw badRequest('month must be YYYY-MM.', { field: 'month' });
      const account = await accountRepository.find(db, accountId);
      if (!account) throw notFound('Account');
      const start = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
      const end = new Date(Date.UTC(Number(match[1]), Number(match[2]), 1));
      const now = clock.now();
      const rows = await screeningRepository.forMonth(db, accountId, start, end);
      const spend: Record<string, number> = {};
      const screenings = rows.map((row) => {
        const billed =
          row.billing === 'overage' &&
          row.status === 'completed' &&
          row.completed_at! >= start &&
          row.completed_at! < end;
        if (billed) spend[row.currency] = (spend[row.currency] ?? 0) + row.price_cents;
        return {
          ...screeningView(row, now),
          billing: row.billing,
          priceCents: row.price_cents,
          currency: row.currency,
          billed,
          completedAt: row.completed_at?.toISOString() ?? null,
        };
      });
      const currencies = Object.keys(spend);
      const currency = currencies.length === 1 ? currencies[0]! : (rows[0]?.currency ?? null);
      return {
        month,
        currency,
        spendCents: currency === null ? 0 : (spend[currency] ?? 0),
        spendByCurrency: spend,
        capCents: account.monthly_overage_cap_cents,
        screenings,
      };
    },

    /** Task: the invitation by email, in its language, with the message and the deadline; keyed. */
    async sendInvite(screeningId: string): Promise<void> {
      const row = await screeningRepository.byId(db, screeningId);
      if (!row || statusOf(row, clock.now()) !== 'invited' || row.delivery_path !== 'email') return;
      const person = await cvRepository.subject(db, row.candidate_kind, row.candidate_id);
      if (!person?.email || !person.name) return;
      const context = await cvRepository.context(db, row.account_id, row.job_id);
      const locale = (['en', 'es', 'fr', 'pt'].includes(row.language) ? row.language : 'en') as ConsentLocale;
      const mail = screeningInviteMail({
        locale,
        name: person.name,
        company: context.company,
        role: context.role ?? '',
        message: row.message,
        completeBy: row.complete_by,
      });
      await deps.mailer.send({
        key: `screening-invite:${row.id}`,
        subjectRef: `${row.candidate_kind}:${row.candidate_id}`,
        to: person.email,
        locale,
        ...mail,
      });
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;
