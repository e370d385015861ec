// A warm pool of parse-worker.ts child processes. Each child handles one PDF at a time under a
// wall-clock deadline, a V8 heap limit and an OS address-space limit (RLIMIT_AS). A child that
// misses the deadline is SIGKILLed; one that dies (out of memory, crash) is replaced; either way
// the PDF it held is answered `corrupt`. The service's own process only moves messages.

import { type ChildProcess, spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ParseOutcome, ParseRequest, WorkerMessage } from './protocol.ts';

export type WorkerStopCause =
  | 'timeout'
  | 'out_of_memory'
  | 'crash'
  | 'recycled'
  | 'closed'
  | 'startup_failed';

export type PoolEvent =
  | { type: 'worker_started'; pid: number; ms: number; memoryLimit: MemoryLimitMethod }
  | { type: 'worker_stopped'; pid: number; cause: WorkerStopCause; stderr?: string };

export type MemoryLimitMethod = 'prlimit' | 'ulimit' | 'none';

export interface ParserPoolOptions {
  size: number;
  timeoutMs: number;
  memoryLimitMb: number;
  heapLimitMb: number;
  recycleAfter: number;
  onEvent?: (event: PoolEvent) => void;
}

const WARM_UP_DELAY_MS = 2000;

/** The checker cannot give a verdict now (not the file's fault): answer 503 with Retry-After. */
export class ParserPoolUnavailable extends Error {
  override name = 'ParserPoolUnavailable';
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds = 5) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Job {
  request: Omit<ParseRequest, 'type' | 'id'>;
  resolve: (outcome: ParseOutcome) => void;
  reject: (error: Error) => void;
}

interface Worker {
  child: ChildProcess;
  pid: number;
  state: 'starting' | 'idle' | 'busy' | 'stopping';
  startedAt: number;
  jobs: number;
  job?: Job & { id: number; timer: NodeJS.Timeout };
  stopCause?: WorkerStopCause;
  stderr: string;
  exited: Promise<void>;
}

const WORKER_PATH = fileURLToPath(new URL('./parse-worker.ts', import.meta.url));
const STDERR_TAIL = 4096;
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

  constructor(options: ParserPoolOptions) {
    this.#options = options;
    this.#launcher = findLauncher(options.memoryLimitMb);
    // Warmed shortly after start, not during it: two children loading pdf.js competed with the
    // service's own start-up for the same two cores. A check that comes first starts them itself.
    this.#warmUp = setTimeout(() => this.#fill(), WARM_UP_DELAY_MS);
    this.#warmUp.unref();
  }

  run(request: Job['request']): Promise<ParseOutcome> {
    if (this.#closed) return Promise.reject(new ParserPoolUnavailable('the CV checker is closed'));
    return new Promise<ParseOutcome>((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#holdOpen();
      if (this.#startFailures >= MAX_START_FAILURES) this.#startFailures = 0;
      this.#fill();
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#warmUp);
    for (const job of this.#queue.splice(0)) {
      job.reject(new ParserPoolUnavailable('the CV checker is closed'));
    }
    const exits: Promise<void>[] = [];
    for (const worker of this.#workers) {
      if (worker.job) {
        clearTimeout(worker.job.timer);
        worker.job.reject(new ParserPoolUnavailable('the CV checker is closed'));
        worker.job = undefined;
      }
      this.#stop(worker, 'closed');
      exits.push(worker.exited);
    }
    this.#releaseIfIdle();
    await Promise.all(exits);
  }

  #holdOpen(): void {
    this.#keepAlive ??= setInterval(() => {}, 60_000);
  }

  #releaseIfIdle(): void {
    const busy = [...this.#workers].some((w) => w.state === 'busy');
    if (this.#queue.length === 0 && !busy && this.#keepAlive) {
      clearInterval(this.#keepAlive);
      this.#keepAlive = undefined;
    }
  }

  #fill(): void {
    const live = [...this.#workers].filter((w) => w.state !== 'stopping').length + this.#launching;
    for (let i = live; i < this.#options.size; i++) void this.#spawn();
  }

  #dispatch(): void {
    for (const worker of this.#workers) {
      if (this.#queue.length === 0) break;
      if (worker.state !== 'idle') continue;
      const job = this.#queue.shift()!;
      const id = this.#nextId++;
      const timer = setTimeout(() => this.#timeout(worker, id), this.#options.timeoutMs);
      worker.state = 'busy';
      worker.job = { ...job, id, timer };
      const message: ParseRequest = { type: 'parse', id, ...job.request };
      worker.child.send(message, (error) => {
        if (error) this.#stop(worker, 'crash');
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

  async #spawn(): Promise<void> {
    if (this.#closed) return;
    this.#launching++;
    let launcher: Launcher;
    try {
      launcher = await this.#launcher;
    } finally {
      this.#launching--;
    }
    this.#memoryLimit = launcher.method;
    if (this.#closed) return;
    const { command, args } = launcher.command(
      process.execPath,
      [`--max-old-space-size=${this.#options.heapLimitMb}`, WORKER_PATH],
      this.#options.memoryLimitMb,
    );
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      // A clean environment: the child needs no secrets, and must not pick up NODE_OPTIONS or a
      // test runner's context. Fewer malloc arenas keep the address space small under RLIMIT_AS.
      env: { MALLOC_ARENA_MAX: '2', LANG: 'C.UTF-8' },
    });
    let resolveExit!: () => void;
    const worker: Worker = {
      child,
      pid: child.pid ?? -1,
      state: 'starting',
      startedAt: performance.now(),
      jobs: 0,
      stderr: '',
      exited: new Promise<void>((resolve) => {
        resolveExit = resolve;
      }),
    };
    this.#workers.add(worker);
    child.unref();
    child.channel?.unref();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL);
    });
    child.on('error', () => {
      // A failed spawn shows as a missing pid (handled below); a failed kill changes nothing.
    });
    child.on('message', (message: WorkerMessage) => this.#onMessage(worker, message));
    child.on('exit', () => {
      resolveExit();
      this.#onExit(worker);
    });
    if (child.pid === undefined) {
      // Never started: 'exit' will not come, so clean up here.
      resolveExit();
      this.#onExit(worker);
      return;
    }
    // A child that never reports ready (hung import, starved machine) must not hold jobs forever.
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
    if (message.type === 'result' && worker.job?.id === message.id) {
      this.#finish(worker, message.outcome);
      worker.jobs++;
      if (worker.jobs >= this.#options.recycleAfter) {
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

  #stop(worker: Worker, cause: WorkerStopCause): void {
    if (worker.state === 'stopping') return;
    worker.state = 'stopping';
    worker.stopCause = cause;
    // Referenced again so the exit is observed (close() waits for it) even in an idle process.
    worker.child.ref();
    worker.child.kill('SIGKILL');
  }

  #onExit(worker: Worker): void {
    if (!this.#workers.delete(worker)) return;
    const wasStarting = worker.state === 'starting' || worker.stopCause === 'startup_failed';
    let cause = worker.stopCause;
    if (!cause) {
      cause = wasStarting ? 'startup_failed' : OUT_OF_MEMORY.test(worker.stderr) ? 'out_of_memory' : 'crash';
    }
    this.#options.onEvent?.({
      type: 'worker_stopped',
      pid: worker.pid,
      cause,
      ...(worker.stderr ? { stderr: worker.stderr } : {}),
    });
    if (worker.job) this.#finish(worker, { ok: false, reason: 'corrupt', error: `worker ${cause}` });
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

interface Launcher {
  method: MemoryLimitMethod;
  command(node: string, nodeArgs: string[], memoryLimitMb: number): { command: string; args: string[] };
}

// prlimit(1) sets RLIMIT_AS and execs node in place, so the pid and the IPC channel are node's
// own. Where it is missing, a POSIX shell's `ulimit -v` does the same. Elsewhere (macOS, Windows)
// only the heap limit and the deadline apply.
async function findLauncher(memoryLimitMb: number): Promise<Launcher> {
  if (process.platform === 'linux' && memoryLimitMb > 0) {
    const prlimit = await firstExecutable(PRLIMIT_PATHS);
    if (prlimit) {
      return {
        method: 'prlimit',
        command: (node, nodeArgs, mb) => ({
          command: prlimit,
          args: [`--as=${mb * 1024 * 1024}`, '--', node, ...nodeArgs],
        }),
      };
    }
    if (await firstExecutable(['/bin/sh'])) {
      return {
        method: 'ulimit',
        command: (node, nodeArgs, mb) => ({
          command: '/bin/sh',
          args: ['-c', 'ulimit -v "$0" && exec "$@"', String(mb * 1024), node, ...nodeArgs],
        }),
      };
    }
  }
  return { method: 'none', command: (node, nodeArgs) => ({ command: node, args: nodeArgs }) };
}

// util-linux's install locations; PATH is not consulted, so the environment cannot swap the tool.
const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];

async function firstExecutable(paths: string[]): Promise<string | undefined> {
  for (const path of paths) {
    if (await executable(path)) return path;
  }
  return undefined;
}

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
