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
import type { Mailer } from '../../mail/mailer.ts';
import { screeningInviteMail } from '../../mail/templates.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { isConsentLocale } from '../consent/consent-texts.ts';
import { cvRepository } from '../cv/cv-repository.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { EventRecorder } from '../events/event-log.ts';
import { type DecisionActor, decisionLog } from '../matches/decision-log.ts';
import type { Seal } from '../seal.ts';
import { type ScreeningRow, screeningRepository, type TemplateRow } from './screening-repository.ts';
import {
  activeTemplate,
  billingClass,
  deadline,
  lockAccount,
  lockedPrice,
  type ManagedRole,
  managedRole,
  noOpenScreening,
  type RoleCandidate,
  roleCandidate,
  withinContactLimit,
} from './trigger-steps.ts';

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

export function createScreeningService(deps: {
  db: Db;
  clock: Clock;
  queue: TaskQueue;
  mailer: Mailer;
  events: EventRecorder;
}) {
  const { db, clock, queue, events } = deps;

  const screeningEvent = (trx: Db, row: ScreeningRow, type: 'screening.invited' | 'screening.completed') =>
    events.record(trx, row.account_id, {
      type,
      data: { screeningId: row.id, jobId: row.job_id, candidateId: row.candidate_id, status: row.status },
    });

  /** The invitation: the screening row, and its email as a keyed task unless it goes to a virtual CV. */
  async function invite(
    trx: Db,
    facts: {
      accountId: string;
      job: ManagedRole;
      candidateId: string;
      candidate: RoleCandidate;
      template: TemplateRow;
      price: number;
      billing: 'included' | 'overage';
      input: ScreeningRequest;
      completeBy: Date;
      now: Date;
    },
  ): Promise<ScreeningRow> {
    const { job, candidate, template, input, now } = facts;
    const row = await screeningRepository.insert(trx, {
      id: newId('scr', now),
      account_id: facts.accountId,
      job_id: job.id,
      candidate_kind: candidate.kind,
      candidate_id: facts.candidateId,
      template_id: template.id,
      status: 'invited',
      delivery_path: candidate.claimed ? 'virtual_cv' : 'email',
      billing: facts.billing,
      price_cents: facts.price,
      currency: template.currency,
      managed_since: job.managed_since,
      unsolicited: !candidate.applied,
      message: input.message ?? null,
      language: input.language ?? 'en',
      complete_by: facts.completeBy,
      requested_at: now,
      completed_at: null,
      cancelled_at: null,
    });
    await screeningEvent(trx, row, 'screening.invited');
    if (row.delivery_path === 'email') {
      await queue.enqueue(
        trx,
        'send-screening-invite',
        { screeningId: row.id },
        { key: `send-screening-invite:${row.id}` },
      );
    }
    return row;
  }

  return {
    async createTemplate(
      accountId: string,
      input: TemplateCreate,
      seal?: Seal<ScreeningTemplate>,
    ): Promise<ScreeningTemplate> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const template = templateView(
          await screeningRepository.insertTemplate(trx, {
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
        await seal?.(trx, template);
        return template;
      });
    },

    async listTemplates(accountId: string): Promise<ScreeningTemplate[]> {
      return (await screeningRepository.templates(db, accountId)).map(templateView);
    },

    async updateTemplate(
      accountId: string,
      templateId: string,
      input: TemplatePatch,
      seal?: Seal<ScreeningTemplate>,
    ): Promise<ScreeningTemplate> {
      return db.transaction().execute(async (trx) => {
        const row = await screeningRepository.updateTemplate(trx, accountId, templateId, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.priceCents !== undefined ? { price_cents: input.priceCents } : {}),
          ...(input.currency !== undefined ? { currency: input.currency } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
          updated_at: clock.now(),
        });
        if (!row) throw notFound('Screening template');
        const template = templateView(row);
        await seal?.(trx, template);
        return template;
      });
    },

    /**
     * Invites one of a role's candidates: the checks of trigger-steps.ts in their order, then the
     * invitation, all in one transaction under the account's row lock.
     */
    async trigger(
      accountId: string,
      jobId: string,
      candidateId: string,
      input: ScreeningRequest,
      seal?: Seal<ScreeningTriggered>,
      /** Who invited, for the matching decision log when the candidate is a match (issue 31). */
      actor: DecisionActor = 'operator',
    ): Promise<ScreeningTriggered> {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const account = await lockAccount(trx, accountId);
        // The path's resources first, so another account's job is 404 whatever the body says.
        const job = await managedRole(trx, accountId, jobId, now);
        const candidate = await roleCandidate(trx, accountId, jobId, candidateId);
        const completeBy = deadline(input.completeBy, now);
        const template = await activeTemplate(trx, accountId, input.templateId);
        await noOpenScreening(trx, jobId, candidateId, now);
        const price = lockedPrice(template);
        if (!candidate.applied) await withinContactLimit(trx, account, candidateId, now);
        const billing = await billingClass(trx, { account, job, template, price, now });
        const row = await invite(trx, {
          accountId,
          job,
          candidateId,
          candidate,
          template,
          price,
          billing,
          input,
          completeBy,
          now,
        });
        await decisionLog.invitation(trx, {
          accountId,
          jobId,
          candidateId,
          screeningId: row.id,
          actor,
          at: now,
        });
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
      const row = await db.transaction().execute(async (trx) => {
        const completed = await screeningRepository.complete(trx, accountId, screeningId, now);
        if (completed) await screeningEvent(trx, completed, 'screening.completed');
        return completed;
      });
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
      // A platform person (issue 19) is reached on the platform (delivery_path virtual_cv), never here.
      if (row.candidate_kind === 'person') return;
      const person = await cvRepository.subject(db, row.candidate_kind, row.candidate_id);
      if (!person?.email || !person.name) return;
      const context = await cvRepository.context(db, row.account_id, row.job_id, clock.now());
      const locale = isConsentLocale(row.language) ? row.language : 'en';
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
        livemode: context.livemode,
        ...mail,
      });
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;
