import type { ChildProcess } from 'node:child_process';
import type { MemoryLimitMethod } from './launcher.ts';
import type { ParseOutcome, ParseRequest } from './protocol.ts';

/** The parser pool's shapes (parser-pool.ts): its options, events, figures and children. */

export type WorkerStopCause =
  | 'timeout'
  | 'out_of_memory'
  | 'crash'
  | 'killed'
  | 'ipc_broken'
  | 'recycled'
  | 'closed'
  | 'startup_failed';

export type PoolEvent =
  | { type: 'worker_started'; pid: number; ms: number; memoryLimit: MemoryLimitMethod }
  | { type: 'worker_stopped'; pid: number; cause: WorkerStopCause; stderr?: string }
  | { type: 'parse_started'; pid: number; attempt: number }
  | { type: 'parse_retried'; cause: WorkerStopCause };

export interface ParserPoolOptions {
  size: number;
  timeoutMs: number;
  memoryLimitMb: number;
  heapLimitMb: number;
  /** A child is replaced after this many documents (its replacement started a tenth ahead)… */
  recycleAfter: number;
  /** …or as soon as its resident memory after a document is above this many MiB. */
  recycleAboveRssMb: number;
  onEvent?: (event: PoolEvent) => void;
}

/** The pool as it is now and what it did since it started: read at scrape time (/metrics). */
export interface ParserPoolStats {
  /** Children by state (a child being replaced counts as stopping until it exits). */
  children: Record<Worker['state'], number>;
  /** Parses waiting for a free child. */
  queued: number;
  /** Parses sent to a child (a retry counts again). */
  parses: number;
  /** Children stopped since start, by cause (recycled: retired after its documents or memory). */
  stopped: Partial<Record<WorkerStopCause, number>>;
}

/** The checker cannot give a verdict now (not the file's fault): answer 503 with Retry-After. */
export class ParserPoolUnavailable extends Error {
  override name = 'ParserPoolUnavailable';
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds = 5) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface Job {
  request: Omit<ParseRequest, 'type' | 'id'>;
  resolve: (outcome: ParseOutcome) => void;
  reject: (error: Error) => void;
  /** 1, or 2 once retried after a child died of something other than the file. */
  attempt: number;
}

export interface Worker {
  child: ChildProcess;
  pid: number;
  state: 'starting' | 'idle' | 'busy' | 'stopping';
  startedAt: number;
  jobs: number;
  job?: Job & { id: number; timer: NodeJS.Timeout; settled: Promise<void> };
  stopCause?: WorkerStopCause;
  stderr: string;
  exited: Promise<void>;
}
