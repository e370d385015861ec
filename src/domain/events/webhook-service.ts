import type { DeliveryAttempt, EventType, WebhookCreate, WebhookView } from '../../contract/events.ts';
import { EVENT_TYPE_NAMES, isEventType } from '../../contract/events.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { checkWebhookUrl } from '../../webhooks/sender.ts';
import { newWebhookSecret } from '../../webhooks/sign.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { Seal } from '../seal.ts';
import { EVENTS_KEPT_MS } from './event-log.ts';
import { type AttemptRow, type WebhookRow, webhookRepository } from './webhook-repository.ts';

/** An account's endpoints; more is a sign of a loop in someone's automation. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
const LOG_ENTRIES = 200;

function view(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    // Stored only after validation against the same names.
    types: row.types === null ? [...EVENT_TYPE_NAMES] : row.types.filter(isEventType),
    mode: row.mode,
    createdAt: row.created_at.toISOString(),
  };
}

function attemptView(row: AttemptRow): DeliveryAttempt {
  return {
    id: row.id,
    eventId: row.event_id,
    attempt: row.attempt,
    statusCode: row.status_code,
    error: row.error,
    at: row.at.toISOString(),
  };
}

/** The console's webhook subscriptions: create (the secret shown once), list, delete, the log, retry. */
export function createWebhookService(deps: { db: Db; clock: Clock; allowPrivate: boolean }) {
  const { db, clock } = deps;

  async function webhookOf(accountId: string, webhookId: string): Promise<WebhookRow> {
    const row = await webhookRepository.find(db, accountId, webhookId);
    if (!row) throw notFound('Webhook');
    return row;
  }

  return {
    async create(
      accountId: string,
      input: WebhookCreate,
      seal?: Seal<{ webhook: WebhookView; secret: string }>,
    ): Promise<{ webhook: WebhookView; secret: string }> {
      const problem = checkWebhookUrl(input.url, deps.allowPrivate);
      if (problem) throw badRequest(problem, { field: 'url' });
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        if (!(await accountRepository.lock(trx, accountId))?.livemode) throw notFound('Account');
        if ((await webhookRepository.countForAccount(trx, accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT)
          throw conflict(`An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first.`);
        const secret = newWebhookSecret();
        const types: EventType[] | undefined = input.types;
        const row = await webhookRepository.insert(trx, {
          id: newId('whk', now),
          account_id: accountId,
          url: new URL(input.url).href,
          types: types === undefined || types.length === EVENT_TYPE_NAMES.length ? null : types,
          secret,
          mode: input.mode ?? 'live',
          created_at: now,
        });
        const created = { webhook: view(row), secret };
        await seal?.(trx, created);
        return created;
      });
    },

    async list(accountId: string): Promise<{ webhooks: WebhookView[] }> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      return { webhooks: (await webhookRepository.list(db, accountId)).map(view) };
    },

    async remove(accountId: string, webhookId: string, seal?: Seal<{ webhookId: string }>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (!(await webhookRepository.delete(trx, accountId, webhookId))) throw notFound('Webhook');
        await seal?.(trx, { webhookId });
      });
    },

    async get(accountId: string, webhookId: string): Promise<WebhookView> {
      return view(await webhookOf(accountId, webhookId));
    },

    /** One entry per attempt, newest first (the last 200). */
    async deliveries(accountId: string, webhookId: string): Promise<{ deliveries: DeliveryAttempt[] }> {
      const hook = await webhookOf(accountId, webhookId);
      return { deliveries: (await webhookRepository.attempts(db, hook.id, LOG_ENTRIES)).map(attemptView) };
    },

    /** Retention: finished deliveries and their log go with the events they carried. */
    async sweepFinished(): Promise<number> {
      return webhookRepository.deleteFinished(db, new Date(clock.now().getTime() - EVENTS_KEPT_MS));
    },

    /** Delivers the attempt's event again now, with a fresh run of retries. */
    async retry(accountId: string, webhookId: string, attemptId: string): Promise<{ retried: true }> {
      const hook = await webhookOf(accountId, webhookId);
      const attempt = await webhookRepository.attempt(db, hook.id, attemptId);
      if (!attempt) throw notFound('Delivery');
      if (!(await webhookRepository.retryDelivery(db, attempt.delivery_id, clock.now())))
        throw conflict('That delivery is being attempted right now.');
      return { retried: true };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
