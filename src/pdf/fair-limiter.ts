// Fair, bounded admission to the CV check (issue 11, item 2; issue 25, items 1 and 2). Every check
// names its share: a lane (the API, the hosted apply page, background tasks) and a key within it
// (the account, the client address). Checks run a few at a time; the rest wait in a queue and are
// taken round-robin across lanes, then across keys within a lane, so a source that sends a hundred
// files waits behind its own files, not in front of everyone else's. Fairness is the order of
// service, not a refusal: a source's burst waits its turn. A check is refused (the caller answers
// 503 with Retry-After) only when its wait passes the deadline, or when the queue's memory bound
// is reached (a key's own waiting checks, or all of them).
//
// A source whose files keep being refused (a bomb, a 10,000-page file, each as costly to refuse as
// a good CV is to accept) earns a smaller share: it runs one check at a time, and only when no
// other source's check is waiting for the slot. Its files still get their verdicts, behind good work.

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
  /** Checks one key may have waiting, per lane. */
  maxQueuedPerKey: Record<CheckLane, number>;
  /** The longest a check waits for its turn; past it, it is refused (CheckQueueFull). */
  maxWaitMs: number;
}

/** Refused: the queue, or the source's own part of it, is full, or the wait passed its deadline. */
export class CheckQueueFull extends ParserPoolUnavailable {
  override name = 'CheckQueueFull';
  /** "Busy, try later": a background task waits and runs again without counting an attempt. */
  readonly busy = true;
}

/** What the limiter did, for tests and metrics. */
export interface FairLimiterStats {
  /** Checks of sources in good standing started while a suspect source's check waited. */
  deferred: number;
  /** Checks refused because their wait passed the deadline. */
  expired: number;
  /** Checks refused at admission because the queue (or the key's part of it) was full. */
  refused: number;
}

interface Waiting {
  share: CheckShare;
  id: string;
  start: () => void;
  timer: NodeJS.Timeout;
}

const LANES: CheckLane[] = ['api', 'page', 'task'];
// A key's refusal score is a moving average of its verdicts (1 refused, 0 accepted): three
// refusals in a row make it suspect, three accepted files after that clear it.
const SCORE_WEIGHT = 0.25;
const SUSPECT_SCORE = 0.5;
const SCORE_FORGOTTEN = 0.05;
// Scores kept at most; the oldest is forgotten first (addresses on the hosted page are many).
const MAX_SCORED_KEYS = 10_000;

const idOf = (share: CheckShare) => `${share.lane}\u0000${share.key}`;

export class FairLimiter {
  readonly #options: FairLimiterOptions;
  // lane → key → waiting checks (Map order breaks ties between keys never served).
  readonly #queues = new Map<CheckLane, Map<string, Waiting[]>>(LANES.map((lane) => [lane, new Map()]));
  readonly #runningByLane = new Map<CheckLane, number>();
  readonly #runningByKey = new Map<string, number>();
  readonly #scores = new Map<string, number>();
  // When each key with checks waiting or running was last served (a count, not a time).
  readonly #lastServed = new Map<string, number>();
  #serveCount = 0;
  readonly #stats: FairLimiterStats = { deferred: 0, expired: 0, refused: 0 };
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

  get stats(): Readonly<FairLimiterStats> {
    return { ...this.#stats };
  }

  /** Whether `share`'s recent files were mostly refused (it then runs behind other sources). */
  suspect(share: CheckShare): boolean {
    return (this.#scores.get(idOf(share)) ?? 0) >= SUSPECT_SCORE;
  }

  /**
   * Runs `task` when the share's turn comes; throws CheckQueueFull when it cannot wait. `refused`
   * says whether a result was a refusal of the source's file (it lowers the source's share).
   */
  async run<T>(share: CheckShare, task: () => Promise<T>, refused?: (result: T) => boolean): Promise<T> {
    const id = idOf(share);
    await this.#admit(share, id);
    const started = performance.now();
    let result: T | undefined;
    let settled = false;
    try {
      result = await task();
      settled = true;
      return result;
    } finally {
      this.#averageMs = this.#averageMs * 0.8 + (performance.now() - started) * 0.2;
      if (settled && refused) this.#score(id, refused(result as T));
      this.#release(share, id);
    }
  }

  /** Resolves when the check may start: at once when a slot is free for it, else in its turn. */
  #admit(share: CheckShare, id: string): Promise<void> {
    const waiting = this.#queues.get(share.lane)!.get(id)?.length ?? 0;
    if (waiting >= this.#options.maxQueuedPerKey[share.lane]) {
      this.#stats.refused++;
      const message = `this source already has ${waiting} CV checks waiting`;
      return Promise.reject(new CheckQueueFull(message, this.#retryAfter(waiting)));
    }
    if (this.#queued >= this.#options.maxQueued) {
      this.#stats.refused++;
      const message = `${this.#queued} CV checks are already waiting`;
      return Promise.reject(new CheckQueueFull(message, this.#retryAfter(this.#queued)));
    }
    return new Promise<void>((start, reject) => {
      const timer = setTimeout(() => {
        if (!this.#withdraw(entry)) return;
        this.#stats.expired++;
        const seconds = Math.round(this.#options.maxWaitMs / 1000);
        reject(
          new CheckQueueFull(`a CV check waited ${seconds} s for its turn`, this.#retryAfter(this.#queued)),
        );
      }, this.#options.maxWaitMs);
      const entry: Waiting = { share, id, start, timer };
      this.#enqueue(entry);
      this.#pump();
    });
  }

  #enqueue(entry: Waiting): void {
    const keys = this.#queues.get(entry.share.lane)!;
    const list = keys.get(entry.id);
    if (list) list.push(entry);
    else keys.set(entry.id, [entry]);
    this.#queued++;
  }

  /** Takes a check out of the queue before its turn (its wait expired); false if it had started. */
  #withdraw(entry: Waiting): boolean {
    const keys = this.#queues.get(entry.share.lane)!;
    const list = keys.get(entry.id);
    const at = list?.indexOf(entry) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) keys.delete(entry.id);
    this.#queued--;
    this.#forgetIfIdle(entry.share.lane, entry.id);
    return true;
  }

  // No lane or key may take every slot while another could use one: with 4 slots, at most 3 per
  // lane and 2 per key (1 for a suspect key). A lone source therefore leaves a slot idle; that slot
  // is what keeps the next source's first check from waiting behind a row of slow files.
  #laneCap(): number {
    return Math.max(1, this.#options.slots - 1);
  }

  #keyCap(id: string): number {
    if ((this.#scores.get(id) ?? 0) >= SUSPECT_SCORE) return 1;
    return Math.max(1, Math.ceil(this.#options.slots / 2));
  }

  #pump(): void {
    while (this.#running < this.#options.slots && this.#queued > 0) {
      let next = this.#pick(false);
      if (next && this.#suspectsWaiting()) this.#stats.deferred++;
      next ??= this.#pick(true);
      if (!next) return;
      clearTimeout(next.timer);
      this.#queued--;
      this.#running++;
      const lane = next.share.lane;
      this.#runningByLane.set(lane, (this.#runningByLane.get(lane) ?? 0) + 1);
      this.#runningByKey.set(next.id, (this.#runningByKey.get(next.id) ?? 0) + 1);
      next.start();
    }
  }

  /**
   * The next check in round-robin order that may take a slot: lanes in turn, and within a lane the
   * key served longest ago (a key new to the queue first). First among sources in good standing;
   * with `suspects`, among the suspect sources (only once no other check could start).
   */
  #pick(suspects: boolean): Waiting | undefined {
    for (let i = 0; i < LANES.length; i++) {
      const lane = LANES[(this.#laneTurn + i) % LANES.length]!;
      if ((this.#runningByLane.get(lane) ?? 0) >= this.#laneCap()) continue;
      const keys = this.#queues.get(lane)!;
      let best: { id: string; list: Waiting[]; served: number } | undefined;
      for (const [id, list] of keys) {
        const suspect = (this.#scores.get(id) ?? 0) >= SUSPECT_SCORE;
        if (suspect !== suspects || (this.#runningByKey.get(id) ?? 0) >= this.#keyCap(id)) continue;
        const served = this.#lastServed.get(id) ?? 0;
        if (!best || served < best.served) best = { id, list, served };
      }
      if (!best) continue;
      const waiting = best.list.shift()!;
      if (best.list.length === 0) keys.delete(best.id);
      this.#lastServed.set(best.id, ++this.#serveCount);
      this.#laneTurn = (this.#laneTurn + i + 1) % LANES.length;
      return waiting;
    }
    return undefined;
  }

  #suspectsWaiting(): boolean {
    for (const keys of this.#queues.values())
      for (const id of keys.keys()) if ((this.#scores.get(id) ?? 0) >= SUSPECT_SCORE) return true;
    return false;
  }

  #score(id: string, refused: boolean): void {
    const score = (this.#scores.get(id) ?? 0) * (1 - SCORE_WEIGHT) + (refused ? SCORE_WEIGHT : 0);
    this.#scores.delete(id);
    if (score < SCORE_FORGOTTEN) return;
    this.#scores.set(id, score);
    if (this.#scores.size > MAX_SCORED_KEYS) this.#scores.delete(this.#scores.keys().next().value!);
  }

  #release(share: CheckShare, id: string): void {
    this.#running--;
    this.#runningByLane.set(share.lane, (this.#runningByLane.get(share.lane) ?? 1) - 1);
    const running = (this.#runningByKey.get(id) ?? 1) - 1;
    if (running > 0) this.#runningByKey.set(id, running);
    else this.#runningByKey.delete(id);
    this.#forgetIfIdle(share.lane, id);
    this.#pump();
  }

  #forgetIfIdle(lane: CheckLane, id: string): void {
    if (!this.#runningByKey.has(id) && !this.#queues.get(lane)!.has(id)) this.#lastServed.delete(id);
  }

  // Roughly when the checks ahead will have run: at least 1 s, at most a minute.
  #retryAfter(ahead: number): number {
    const seconds = Math.ceil(((ahead + 1) * this.#averageMs) / this.#options.slots / 1000);
    return Math.min(60, Math.max(1, seconds));
  }
}
