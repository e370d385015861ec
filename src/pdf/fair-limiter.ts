// Fair, bounded admission to the CV check (issue 11, item 2). Every check names its share: a lane
// (the API, the hosted apply page, background tasks) and a key within it (the account, the client
// address). Checks run a few at a time; the rest wait in a bounded queue and are taken
// round-robin across lanes, then across keys within a lane, so a source that sends a hundred
// files waits behind its own files, not in front of everyone else's. No lane and no key may hold
// every slot, and one key may hold only a few queued checks: past those bounds the check is
// refused at once with a retry delay (the caller answers 503 with Retry-After).

import { ParserPoolUnavailable } from './parser-pool.ts';

export type CheckLane = 'api' | 'page' | 'task';

export interface CheckShare {
  lane: CheckLane;
  /** Who within the lane: an account id for the API and tasks, a client address for the page. */
  key: string;
}

export interface FairLimiterOptions {
  /** Checks running at once. */
  slots: number;
  /** Checks waiting, all sources together. */
  maxQueued: number;
  /** Checks one key may have waiting or running, per lane. */
  maxPerKey: Record<CheckLane, number>;
}

/** Refused at admission: the queue, or the source's own share of it, is full. */
export class CheckQueueFull extends ParserPoolUnavailable {
  override name = 'CheckQueueFull';
  /** "Busy, try later": a background task waits and runs again without counting an attempt. */
  readonly busy = true;
}

interface Waiting {
  share: CheckShare;
  start: () => void;
}

const LANES: CheckLane[] = ['api', 'page', 'task'];

export class FairLimiter {
  readonly #options: FairLimiterOptions;
  // lane → key → waiting checks; Map order is the round-robin order (a served key moves last).
  readonly #queues = new Map<CheckLane, Map<string, Waiting[]>>(LANES.map((lane) => [lane, new Map()]));
  readonly #runningByLane = new Map<CheckLane, number>();
  readonly #heldByKey = new Map<string, number>();
  readonly #runningByKey = new Map<string, number>();
  #laneTurn = 0;
  #running = 0;
  #queued = 0;
  // Moving average of a check's duration, for the Retry-After estimate.
  #averageMs = 1000;

  constructor(options: FairLimiterOptions) {
    this.#options = options;
  }

  get queued(): number {
    return this.#queued;
  }

  get running(): number {
    return this.#running;
  }

  /** Runs `task` when the share's turn comes; throws CheckQueueFull when it cannot wait. */
  async run<T>(share: CheckShare, task: () => Promise<T>): Promise<T> {
    const id = `${share.lane}\u0000${share.key}`;
    const held = this.#heldByKey.get(id) ?? 0;
    if (held >= this.#options.maxPerKey[share.lane]) {
      throw new CheckQueueFull(
        `this source already has ${held} CV checks waiting or running`,
        this.#retryAfter(held),
      );
    }
    if (this.#queued >= this.#options.maxQueued) {
      throw new CheckQueueFull(
        `${this.#queued} CV checks are already waiting`,
        this.#retryAfter(this.#queued),
      );
    }
    this.#heldByKey.set(id, held + 1);
    try {
      await new Promise<void>((start) => {
        this.#enqueue(share, id, start);
        this.#pump();
      });
      const started = performance.now();
      try {
        return await task();
      } finally {
        this.#averageMs = this.#averageMs * 0.8 + (performance.now() - started) * 0.2;
        this.#release(share, id);
      }
    } finally {
      const left = (this.#heldByKey.get(id) ?? 1) - 1;
      if (left > 0) this.#heldByKey.set(id, left);
      else this.#heldByKey.delete(id);
    }
  }

  #enqueue(share: CheckShare, id: string, start: () => void): void {
    const keys = this.#queues.get(share.lane)!;
    const list = keys.get(id);
    if (list) list.push({ share, start });
    else keys.set(id, [{ share, start }]);
    this.#queued++;
  }

  // No lane or key may take every slot while another could use one: with 4 slots, at most 3 per
  // lane and 2 per key. A lone source therefore leaves a slot idle; that slot is what keeps the
  // next source's first check from waiting behind a row of slow files.
  #laneCap(): number {
    return Math.max(1, this.#options.slots - 1);
  }

  #keyCap(): number {
    return Math.max(1, Math.ceil(this.#options.slots / 2));
  }

  #pump(): void {
    while (this.#running < this.#options.slots && this.#queued > 0) {
      const next = this.#pick();
      if (!next) return;
      this.#queued--;
      this.#running++;
      const lane = next.share.lane;
      const id = `${lane}\u0000${next.share.key}`;
      this.#runningByLane.set(lane, (this.#runningByLane.get(lane) ?? 0) + 1);
      this.#runningByKey.set(id, (this.#runningByKey.get(id) ?? 0) + 1);
      next.start();
    }
  }

  #pick(): Waiting | undefined {
    for (let i = 0; i < LANES.length; i++) {
      const lane = LANES[(this.#laneTurn + i) % LANES.length]!;
      if ((this.#runningByLane.get(lane) ?? 0) >= this.#laneCap()) continue;
      const keys = this.#queues.get(lane)!;
      for (const [id, list] of keys) {
        if ((this.#runningByKey.get(id) ?? 0) >= this.#keyCap()) continue;
        const waiting = list.shift()!;
        keys.delete(id);
        if (list.length > 0) keys.set(id, list);
        this.#laneTurn = (this.#laneTurn + i + 1) % LANES.length;
        return waiting;
      }
    }
    return undefined;
  }

  #release(share: CheckShare, id: string): void {
    this.#running--;
    this.#runningByLane.set(share.lane, (this.#runningByLane.get(share.lane) ?? 1) - 1);
    const running = (this.#runningByKey.get(id) ?? 1) - 1;
    if (running > 0) this.#runningByKey.set(id, running);
    else this.#runningByKey.delete(id);
    this.#pump();
  }

  // Roughly when the checks ahead will have run: at least 1 s, at most a minute.
  #retryAfter(ahead: number): number {
    const seconds = Math.ceil(((ahead + 1) * this.#averageMs) / this.#options.slots / 1000);
    return Math.min(60, Math.max(1, seconds));
  }
}
