// Runs buildVirtualCv on a worker thread under a deadline (issue 11, item 1). The text comes from
// an untrusted PDF: however long the builder takes on it, the HTTP event loop keeps answering, and
// a build that passes the deadline is stopped (the thread is terminated and replaced) and reported
// as CvBuildRefused, which the build task treats as a file it cannot read.

import { Worker } from 'node:worker_threads';
import type { PdfPage } from '../pdf/types.ts';
import type { CvPrior, VirtualCv } from './types.ts';

export interface BuildRequest {
  id: number;
  pages: PdfPage[];
  prior: CvPrior;
}

export type BuildReply =
  | { ready: true }
  | { id: number; ok: true; document: VirtualCv }
  | { id: number; ok: false; error: string };

export interface CvBuildRunnerOptions {
  /** Time one build may take once it runs on the thread. Default 10 s (a CV builds in ~50 ms). */
  deadlineMs?: number;
  /** V8 old-generation limit of the thread, in MiB. Default 256. */
  heapLimitMb?: number;
}

export interface CvBuildRunner {
  build(pages: PdfPage[], prior: CvPrior): Promise<VirtualCv>;
  close(): Promise<void>;
}

/** The build passed its deadline or ran out of memory: the file's text, not the service, is at fault. */
export class CvBuildRefused extends Error {
  override name = 'CvBuildRefused';
}

/** The runner is closed (shutting down): the task is retried later. */
export class CvBuildRunnerClosed extends Error {
  override name = 'CvBuildRunnerClosed';
}

interface Pending {
  request: BuildRequest;
  resolve: (cv: VirtualCv) => void;
  reject: (error: Error) => void;
}

const THREAD_PATH = new URL('./build-thread.ts', import.meta.url);

const STARTUP_TIMEOUT_MS = 30_000;

export const CV_BUILD_DEFAULTS = { deadlineMs: 10_000, heapLimitMb: 256 } as const;

export function createCvBuildRunner(options: CvBuildRunnerOptions = {}): CvBuildRunner {
  const deadlineMs = options.deadlineMs ?? CV_BUILD_DEFAULTS.deadlineMs;
  const heapLimitMb = options.heapLimitMb ?? CV_BUILD_DEFAULTS.heapLimitMb;
  const queue: Pending[] = [];
  let thread: Worker | undefined;
  let ready = false;
  let current: (Pending & { timer: NodeJS.Timeout }) | undefined;
  let nextId = 1;
  let closed = false;

  function start(): Worker {
    const worker = new Worker(THREAD_PATH, {
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb },
      // Nothing of the parent's environment is needed, and none of it should be readable there.
      env: {},
      stdout: false,
      stderr: false,
    });
    // Held while a build waits for it; finish() lets an idle thread go.
    ready = false;
    // A thread that cannot even load is the service's fault, not the file's: the task is retried.
    const startup = setTimeout(() => {
      if (!ready) fail(worker, new Error('the CV build thread did not start'));
    }, STARTUP_TIMEOUT_MS);
    startup.unref();
    worker.on('message', (reply: BuildReply) => {
      if ('ready' in reply) {
        clearTimeout(startup);
        if (thread === worker) ready = true;
        dispatch();
        return;
      }
      if (!current || reply.id !== current.request.id) return;
      const done = current;
      finish();
      if (reply.ok) done.resolve(reply.document);
      else done.reject(new CvBuildRefused(`the builder failed: ${reply.error}`));
    });
    // Out of memory under resourceLimits, or an uncaught error: the thread is gone either way.
    worker.on('error', (error) =>
      fail(worker, new CvBuildRefused(`the build thread stopped: ${error.name}`)),
    );
    worker.on('exit', () => fail(worker, new CvBuildRefused('the build thread exited')));
    return worker;
  }

  function fail(worker: Worker, error: Error): void {
    if (thread !== worker) return;
    thread = undefined;
    void worker.terminate();
    const failed = current;
    finish();
    if (failed) failed.reject(error);
    else if (!ready) for (const pending of queue.splice(0)) pending.reject(error);
  }

  function finish(): void {
    if (current) clearTimeout(current.timer);
    current = undefined;
    // An idle thread never keeps the process alive; dispatch() holds it again for the next build.
    thread?.unref();
    setImmediate(dispatch);
  }

  function dispatch(): void {
    if (current || closed || queue.length === 0) return;
    thread ??= start();
    if (!ready) return;
    const worker = thread;
    const next = queue.shift()!;
    const timer = setTimeout(() => {
      // terminate() stops the thread even inside a regular expression; the next build starts a new one.
      thread = undefined;
      const late = current;
      finish();
      late?.reject(new CvBuildRefused(`the build passed its ${deadlineMs} ms deadline`));
      void worker.terminate();
    }, deadlineMs);
    current = { ...next, timer };
    worker.ref();
    worker.postMessage(next.request);
  }

  return {
    build(pages, prior) {
      if (closed) return Promise.reject(new CvBuildRunnerClosed('the CV builder is closed'));
      return new Promise<VirtualCv>((resolve, reject) => {
        queue.push({ request: { id: nextId++, pages, prior }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0))
        pending.reject(new CvBuildRunnerClosed('the CV builder is closed'));
      const worker = thread;
      thread = undefined;
      const running = current;
      finish();
      running?.reject(new CvBuildRunnerClosed('the CV builder is closed'));
      if (worker) await worker.terminate();
    },
  };
}
