// A warm pool of parse-worker.ts child processes, one PDF at a time each, under a deadline, a V8
// heap limit and an OS address-space limit. Missing the deadline or running out of memory is the
// file's doing (`corrupt`); any other death (killed from outside, IPC broken, the OOM killer) is
// retried once on a fresh child, then ParserPoolUnavailable (503), never a verdict. Children run
// in their own process group (a SIGTERM to the service's group does not reach them); close() stops
// them last. The service only moves messages.

import type { ChildProcess } from 'node:child_process';
import { findLauncher, type Launcher, type MemoryLimitMethod, spawnParserChild } from './launcher.ts';
import {
  type Job,
  type ParserPoolOptions,
  type ParserPoolStats,
  ParserPoolUnavailable,
  type Worker,
  type WorkerStopCause,
} from './pool-types.ts';
import type { ParseOutcome, ParseRequest, SandboxProbe, SandboxReport, WorkerMessage } from './protocol.ts';

export type { MemoryLimitMethod } from './launcher.ts';

const WARM_UP_DELAY_MS = 2000;

export {
  type ParserPoolOptions,
  type ParserPoolStats,
  ParserPoolUnavailable,
  type PoolEvent,
  type WorkerStopCause,
} from './pool-types.ts';

const STDERR_TAIL = 4096;
const EXTERNAL_SIGNALS = new Set<string>(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']);
const MAX_START_FAILURES = 3;
const STARTUP_TIMEOUT_MS = 30_000;
const OUT_OF_MEMORY = /out of memory|allocation failed|bad_alloc|cannot allocate memory/i;

export class ParserPool {
  readonly #options: ParserPoolOptions;
  readonly #workers = new Set<Worker>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  // Spawns still waiting for the launcher, so that #fill() does not start them twice.
  #launching = 0;
  #startFailures = 0;
  #warmUp: NodeJS.Timeout;
  #closed = false;
  readonly #launcher: Promise<Launcher>;
  #memoryLimit: MemoryLimitMethod | undefined;
  // Children and their pipes are unref'd so an idle pool never keeps the process alive; this
  // timer holds it open only while a check is queued or running.
  #keepAlive: NodeJS.Timeout | undefined;
  readonly #probes = new Map<number, (report: SandboxReport) => void>();
  #parses = 0;
  readonly #stopped: Partial<Record<WorkerStopCause, number>> = {};

  constructor(options: ParserPoolOptions) {
    this.#options = options;
    this.#launcher = findLauncher(options.memoryLimitMb);
    // Warmed shortly after start, not during it: two children loading pdf.js competed with the
    // service's own start-up for the same two cores. A check that comes first starts them itself.
    this.#warmUp = setTimeout(() => this.#fill(), WARM_UP_DELAY_MS);
    this.#warmUp.unref();
  }

  get stats(): ParserPoolStats {
    const children = { starting: 0, idle: 0, busy: 0, stopping: 0 };
    for (const worker of this.#workers) children[worker.state] += 1;
    return { children, queued: this.#queue.length, parses: this.#parses, stopped: { ...this.#stopped } };
  }

  run(request: Job['request']): Promise<ParseOutcome> {
    if (this.#closed) return Promise.reject(new ParserPoolUnavailable('the CV checker is closed'));
    return new Promise<ParseOutcome>((resolve, reject) => {
      this.#queue.push({ request, resolve, reject, attempt: 1 });
      this.#keepAlive ??= setInterval(() => {}, 60_000);
      if (this.#startFailures >= MAX_START_FAILURES) this.#startFailures = 0;
      this.#fill();
      this.#dispatch();
    });
  }

  /**
   * Refuses new checks and what still waits, lets the PDFs being parsed finish (each is bounded
   * by its deadline), then stops the children: the last step of a shutdown.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#warmUp);
    for (const job of this.#queue.splice(0)) {
      job.reject(new ParserPoolUnavailable('the CV checker is closed'));
    }
    const running = [...this.#workers].flatMap((w) => (w.job ? [w.job.settled] : []));
    await Promise.all(running);
    const exits: Promise<void>[] = [];
    for (const worker of this.#workers) {
      this.#stop(worker, 'closed');
      exits.push(worker.exited);
    }
    this.#releaseIfIdle();
    await Promise.all(exits);
  }

  /** Tests only: what a warm child's sandbox lets it do (see SandboxProbe). */
  async probeSandbox(path: string): Promise<SandboxReport> {
    this.#fill();
    const deadline = performance.now() + STARTUP_TIMEOUT_MS;
    for (;;) {
      const worker = [...this.#workers].find((w) => w.state === 'idle');
      if (worker) {
        const id = this.#nextId++;
        return new Promise<SandboxReport>((resolve) => {
          this.#probes.set(id, resolve);
          worker.child.send({ type: 'probe', id, path } satisfies SandboxProbe);
        });
      }
      if (performance.now() > deadline || this.#closed) throw new ParserPoolUnavailable('no parser child');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  #releaseIfIdle(): void {
    const busy = [...this.#workers].some((w) => w.state === 'busy');
    if (this.#queue.length === 0 && !busy && this.#keepAlive) {
      clearInterval(this.#keepAlive);
      this.#keepAlive = undefined;
    }
  }

  #live(): number {
    return [...this.#workers].filter((w) => w.state !== 'stopping').length + this.#launching;
  }

  #fill(): void {
    for (let i = this.#live(); i < this.#options.size; i++) void this.#spawn();
  }

  #dispatch(): void {
    for (const worker of this.#workers) {
      if (this.#queue.length === 0) break;
      if (worker.state !== 'idle') continue;
      const job = this.#queue.shift()!;
      const id = this.#nextId++;
      const timer = setTimeout(() => this.#timeout(worker, id), this.#options.timeoutMs);
      worker.state = 'busy';
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      worker.job = {
        ...job,
        resolve: (outcome) => {
          settle();
          job.resolve(outcome);
        },
        reject: (error) => {
          settle();
          job.reject(error);
        },
        id,
        timer,
        settled,
      };
      const message: ParseRequest = { type: 'parse', id, ...job.request };
      this.#parses += 1;
      this.#options.onEvent?.({ type: 'parse_started', pid: worker.pid, attempt: job.attempt });
      worker.child.send(message, (error) => {
        if (error) this.#stop(worker, 'ipc_broken');
      });
    }
  }

  #timeout(worker: Worker, id: number): void {
    if (worker.job?.id !== id) return;
    this.#finish(worker, { ok: false, reason: 'corrupt', error: 'deadline exceeded' });
    this.#stop(worker, 'timeout');
    this.#fill();
  }

  #finish(worker: Worker, outcome: ParseOutcome): void {
    const job = worker.job;
    if (!job) return;
    clearTimeout(job.timer);
    worker.job = undefined;
    job.resolve(outcome);
  }

  /** One more child: wait for the launcher, start the process, track it, give it a startup deadline. */
  async #spawn(): Promise<void> {
    if (this.#closed) return;
    const launcher = await this.#awaitLauncher();
    this.#memoryLimit = launcher.method;
    if (this.#closed) return;
    const { heapLimitMb, memoryLimitMb } = this.#options;
    const { worker, exited } = this.#track(spawnParserChild(launcher, heapLimitMb, memoryLimitMb));
    if (worker.child.pid === undefined) {
      exited(); // Never started: 'exit' will not come, so clean up here.
      this.#onExit(worker);
      return;
    }
    this.#startupDeadline(worker);
  }

  /** The launcher, counting this spawn as launching meanwhile so that #fill() does not start it twice. */
  async #awaitLauncher(): Promise<Launcher> {
    this.#launching++;
    try {
      return await this.#launcher;
    } finally {
      this.#launching--;
    }
  }

  /** A worker for `child`, in the pool, fed by its stderr, messages and close; `exited` settles it. */
  #track(child: ChildProcess): { worker: Worker; exited: () => void } {
    let exited!: () => void;
    const worker: Worker = {
      child,
      pid: child.pid ?? -1,
      state: 'starting',
      startedAt: performance.now(),
      jobs: 0,
      stderr: '',
      exited: new Promise<void>((resolve) => {
        exited = resolve;
      }),
    };
    this.#workers.add(worker);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL);
    });
    child.on('error', () => {
      // A failed spawn shows as a missing pid (handled in #spawn); a failed kill changes nothing.
    });
    child.on('message', (message: WorkerMessage) => this.#onMessage(worker, message));
    // 'close', not 'exit': by then stderr is read to the end, so an out-of-memory message is seen.
    child.on('close', (_code, signal) => {
      // A signal the pool did not send: someone else killed it (an operator, the OOM killer).
      if (!worker.stopCause && signal && EXTERNAL_SIGNALS.has(signal)) worker.stopCause = 'killed';
      exited();
      this.#onExit(worker);
    });
    return { worker, exited };
  }

  /** A child that never reports ready (hung import, starved machine) must not hold jobs forever. */
  #startupDeadline(worker: Worker): void {
    const startup = setTimeout(() => {
      if (worker.state === 'starting') this.#stop(worker, 'startup_failed');
    }, STARTUP_TIMEOUT_MS);
    startup.unref();
    void worker.exited.then(() => clearTimeout(startup));
  }

  #onMessage(worker: Worker, message: WorkerMessage): void {
    if (worker.state === 'stopping') return;
    if (message.type === 'ready') {
      worker.state = 'idle';
      this.#startFailures = 0;
      this.#options.onEvent?.({
        type: 'worker_started',
        pid: worker.pid,
        ms: Math.round(performance.now() - worker.startedAt),
        memoryLimit: this.#memoryLimit ?? 'none',
      });
      this.#dispatch();
      return;
    }
    if (message.type === 'probe') {
      this.#probes.get(message.id)?.(message);
      this.#probes.delete(message.id);
      return;
    }
    if (message.type === 'result' && worker.job?.id === message.id) {
      this.#finish(worker, message.outcome);
      worker.jobs++;
      this.#startReplacementAhead(worker);
      if (worker.jobs >= this.#options.recycleAfter || message.rssMb > this.#options.recycleAboveRssMb) {
        // Bounds whatever pdf.js leaks or fragments over many documents.
        this.#stop(worker, 'recycled');
        this.#fill();
      } else {
        worker.state = 'idle';
      }
      this.#dispatch();
      this.#releaseIfIdle();
    }
  }

  // In a child's last tenth of documents, one spare beyond the pool's size starts and warms up off
  // any request's path; when the old child retires the pool is at its size again.
  #startReplacementAhead(worker: Worker): void {
    const lead = Math.max(1, Math.floor(this.#options.recycleAfter / 10));
    if (worker.jobs < this.#options.recycleAfter - lead || this.#closed) return;
    if (this.#live() <= this.#options.size) void this.#spawn();
  }

  #stop(worker: Worker, cause: WorkerStopCause): void {
    if (worker.state === 'stopping') return;
    worker.state = 'stopping';
    worker.stopCause = cause;
    // Referenced again so the exit is observed (close() waits for it) even in an idle process.
    worker.child.ref();
    worker.child.kill('SIGKILL');
  }

  /**
   * The child died holding a PDF. Only the deadline and memory are the file's doing; any other
   * death is retried once on a fresh child. A second unexplained crash is the file's (it crashed
   * two fresh children); a second kill or broken channel is ours: ParserPoolUnavailable.
   */
  #orphaned(worker: Worker, cause: WorkerStopCause): void {
    const job = worker.job!;
    if (cause === 'timeout' || cause === 'out_of_memory') {
      this.#finish(worker, { ok: false, reason: 'corrupt', error: `worker ${cause}` });
      return;
    }
    clearTimeout(job.timer);
    worker.job = undefined;
    if (this.#closed) {
      job.reject(new ParserPoolUnavailable('the CV checker is closed'));
    } else if (job.attempt < 2) {
      this.#options.onEvent?.({ type: 'parse_retried', cause });
      this.#queue.unshift({ request: job.request, resolve: job.resolve, reject: job.reject, attempt: 2 });
    } else if (cause === 'crash') {
      job.resolve({ ok: false, reason: 'corrupt', error: 'worker crashed twice' });
    } else {
      job.reject(new ParserPoolUnavailable(`the PDF parser child stopped (${cause})`));
    }
  }

  #onExit(worker: Worker): void {
    if (!this.#workers.delete(worker)) return;
    const wasStarting = worker.state === 'starting' || worker.stopCause === 'startup_failed';
    let cause = worker.stopCause;
    if (!cause) {
      cause = wasStarting ? 'startup_failed' : OUT_OF_MEMORY.test(worker.stderr) ? 'out_of_memory' : 'crash';
    }
    this.#stopped[cause] = (this.#stopped[cause] ?? 0) + 1;
    this.#options.onEvent?.({
      type: 'worker_stopped',
      pid: worker.pid,
      cause,
      ...(worker.stderr ? { stderr: worker.stderr } : {}),
    });
    if (worker.job) this.#orphaned(worker, cause);
    if (this.#closed) return;

    if (wasStarting) {
      this.#startFailures++;
      if (this.#startFailures >= MAX_START_FAILURES) {
        // Answering `corrupt` here would blame the candidate for our own outage.
        const firstLine = worker.stderr.split('\n').find((line) => /[a-z]/i.test(line)) ?? 'no output';
        const error = new ParserPoolUnavailable(`PDF parser workers fail to start: ${firstLine.trim()}`);
        for (const job of this.#queue.splice(0)) job.reject(error);
        this.#releaseIfIdle();
        return;
      }
    }
    this.#fill();
    this.#dispatch();
    this.#releaseIfIdle();
  }
}
