import type { Db } from '../../db/connect.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { WebhookSender } from '../../webhooks/sender.ts';
import { signedHeaders } from '../../webhooks/sign.ts';
import { toFeedEvent } from './event-log.ts';
import { type DueDelivery, webhookRepository } from './webhook-repository.ts';

/**
 * The wait after each failed attempt: the first retry within a minute, then longer, for 27.6 hours
 * in all (Standard Webhooks' suggested schedule). After the last attempt the delivery is failed.
 */
export const RETRY_SCHEDULE_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

export interface DispatcherLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DispatcherOptions {
  db: Db;
  clock: Clock;
  sender: WebhookSender;
  log: DispatcherLog;
  /** Deliveries in flight at once, all endpoints together. */
  concurrency?: number;
  /** Deliveries in flight at once to one endpoint: a slow one holds at most this many slots. */
  perEndpoint?: number;
  pollMs?: number;
  leaseMs?: number;
  /** The clock of the signature's timestamp: the receiver compares it with its own wall clock. */
  wallClock?: Clock;
}

function nextTry(attempts: number, now: Date): Date {
  const base = RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length) - 1]!;
  return new Date(now.getTime() + Math.round(base * (0.9 + Math.random() * 0.2)));
}

/** The deliverer's state and counters since start, read at scrape time (/metrics, /readyz). */
export interface DispatcherStats {
  running: boolean;
  inFlight: number;
  /** Attempts by outcome: delivered (2xx), retry (failed, tried again later), failed (for good). */
  attempts: { delivered: number; retry: number; failed: number };
}

/**
 * Delivers webhooks: claims due deliveries (per endpoint and in all, bounded), sends each without
 * waiting for the others, and claims again as soon as a slot frees, so one endpoint's slowness or
 * backlog never delays another's deliveries.
 */
export function createWebhookDispatcher(options: DispatcherOptions) {
  const { db, clock, sender, log } = options;
  const concurrency = options.concurrency ?? 32;
  const perEndpoint = options.perEndpoint ?? 4;
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  const wallClock = options.wallClock ?? systemClock;
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopping = true;
  let polling = false;
  /** A slot freed while a poll ran: poll again at once after it. */
  let wanted = false;
  const attempts: DispatcherStats['attempts'] = { delivered: 0, retry: 0, failed: 0 };

  async function deliver(delivery: DueDelivery): Promise<void> {
    let outcome: { statusCode: number | null; error: string | null };
    const event =
      delivery.event_type === null
        ? null
        : toFeedEvent(
            {
              id: delivery.event_id,
              type: delivery.event_type,
              data: delivery.event_data ?? {},
              created_at: new Date(delivery.event_created_at!),
            },
            // An endpoint receives its own mode's events only (event-repository.ts's fan-out).
            delivery.mode === 'live',
          );
    if (!event) {
      outcome = { statusCode: null, error: 'the event is no longer kept' };
    } else {
      const body = JSON.stringify(event);
      const headers = signedHeaders(delivery.secret, event.id, wallClock.now(), body);
      outcome = await sender.send(delivery.url, headers, body);
    }
    const now = clock.now();
    const next =
      outcome.error === null
        ? ({ state: 'succeeded' } as const)
        : delivery.attempts >= MAX_ATTEMPTS || !event
          ? ({ state: 'failed' } as const)
          : ({ state: 'queued', at: nextTry(delivery.attempts, now) } as const);
    await webhookRepository.settle(
      db,
      delivery,
      { id: newId('wha', now), status_code: outcome.statusCode, error: outcome.error, at: now },
      next,
    );
    attempts[next.state === 'succeeded' ? 'delivered' : next.state === 'failed' ? 'failed' : 'retry'] += 1;
    if (next.state === 'failed')
      log.warn(
        { deliveryId: delivery.id, webhookId: delivery.webhook_id },
        'webhook delivery failed for good',
      );
  }

  /** Claims what is due into the free slots and starts it; answers how many started. */
  async function tick(): Promise<number> {
    const free = concurrency - running.size;
    if (free <= 0) return 0;
    const claimed = await webhookRepository.claim(db, {
      now: clock.now(),
      leaseMs,
      perEndpoint,
      limit: free,
      exclude: [],
    });
    for (const delivery of claimed) {
      const work = deliver(delivery)
        .catch((err: unknown) => log.error({ err, deliveryId: delivery.id }, 'webhook delivery crashed'))
        .finally(() => {
          running.delete(delivery.id);
          wake();
        });
      running.set(delivery.id, work);
    }
    return claimed.length;
  }

  /** A slot freed: claim soon, once for all the slots that free meanwhile. */
  function wake(): void {
    if (stopping) return;
    if (polling) wanted = true;
    else if (timer === null) timer = setTimeout(poll, 1);
  }

  function schedule(delay: number): void {
    if (stopping) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(poll, delay);
  }

  async function poll(): Promise<void> {
    timer = null;
    if (polling) return;
    polling = true;
    wanted = false;
    let started = 0;
    try {
      started = await tick();
    } catch (err) {
      log.error({ err }, 'webhook poll failed');
    } finally {
      polling = false;
    }
    schedule(started > 0 || wanted ? 0 : pollMs);
  }

  return {
    start(): void {
      stopping = false;
      schedule(0);
    },
    /** Delivers everything due now, and what falls due meanwhile, until nothing is left (tests). */
    async drain(maxRounds = 1000): Promise<number> {
      let total = 0;
      for (let i = 0; i < maxRounds; i++) {
        const started = await tick();
        total += started;
        if (started === 0 && running.size === 0) break;
        if (started === 0) await Promise.race(running.values());
      }
      return total;
    },
    /** Stops claiming, then waits for the deliveries in flight (each ends within its timeout). */
    async stop(): Promise<void> {
      stopping = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...running.values()]);
    },
    inFlight: () => running.size,
    stats: (): DispatcherStats => ({ running: !stopping, inFlight: running.size, attempts: { ...attempts } }),
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
