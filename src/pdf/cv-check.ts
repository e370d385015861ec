// The CV file check shared by applications and candidate imports (issue 4, item 3).
//
// Order, cheapest first, each step only on what passed the one before:
//   1. size against maxBytes                              → too_large
//   2. `%PDF-` within the first 1024 bytes (as readers do) → wrong_type
//   3. decompression pre-scan (prescan.ts)                 → corrupt when it inflates past the budget
//   4. pdf.js in a pooled child process (parser-pool.ts)   → encrypted, too_many_pages,
//      no_text_layer, or corrupt on any error, deadline, crash or memory breach
// Untrusted bytes are never parsed in this process; steps 1–3 only read, count and inflate
// asynchronously, so the event loop keeps serving while a hostile file is refused.

import { open, readFile } from 'node:fs/promises';
import { type CheckShare, FairLimiter } from './fair-limiter.ts';
import { ParserPool, type ParserPoolStats, type PoolEvent } from './parser-pool.ts';
import { prescanPdf } from './prescan.ts';
import type { TextDetail } from './protocol.ts';
import type { CvCheckResult, CvRejectReason } from './types.ts';

export { type CheckLane, CheckQueueFull, type CheckShare } from './fair-limiter.ts';
export { type CvLimits, rejectionMessage } from './messages.ts';
export { type ParserPoolStats, ParserPoolUnavailable } from './parser-pool.ts';
export type { TextDetail } from './protocol.ts';
export type { CvCheckResult, CvLocale, CvRejectReason, PdfPage, PdfTextItem } from './types.ts';

export interface CvCheckerOptions {
  maxBytes: number;
  maxPages: number;
  /** Parser child processes kept warm. Default 2 (one per core of the reference machine). */
  poolSize?: number;
  /** Deadline for the pre-scan, and separately for parsing one PDF in a child. Default 5000. */
  timeoutMs?: number;
  /**
   * Address-space limit (RLIMIT_AS) of each parser child, in MiB. Node with pdf.js loaded maps
   * ~1.1 GiB before reading anything, so this is not the resident size: a CV parses at ~100 MB
   * RSS. Default 1536.
   */
  memoryLimitMb?: number;
  /** The longest a check waits for its turn before it is refused (503). Default 20,000. */
  maxWaitMs?: number;
  /** Lifecycle and outcome events, for logs and metrics. Never carries document content. */
  onEvent?: (event: CvCheckerEvent) => void;
}

export type CvCheckStage = 'size' | 'magic' | 'prescan' | 'parser';

export type CvCheckerEvent =
  | PoolEvent
  | { type: 'checked'; outcome: 'ok' | CvRejectReason; stage: CvCheckStage; ms: number; error?: string };

export interface CvChecker {
  /**
   * Resolves with the verdict for the file at `filePath`. Rejects only when the checker itself
   * cannot work (file unreadable, parser workers unable to start, checker closed, or the queue
   * or `share`'s part of it full: ParserPoolUnavailable with a retry delay): never blame the
   * candidate for those. `detail` is how much of the text comes back with a pass ('layout', all of
   * it, by default; see TextDetail): the verdict does not depend on it.
   */
  check(filePath: string, share?: CheckShare, detail?: TextDetail): Promise<CvCheckResult>;
  /** The pool and the queue in front of it, now and since start (/metrics). */
  stats(): CvCheckerStats;
  close(): Promise<void>;
}

export interface CvCheckerStats {
  pool: ParserPoolStats;
  /** Checks waiting their turn in front of the pool, and those holding a turn. */
  waiting: number;
  running: number;
  /** Checks refused since start: queue full at admission, or waited past the deadline. */
  refused: number;
  expired: number;
}

export const CV_CHECK_DEFAULTS = { poolSize: 2, timeoutMs: 5000, memoryLimitMb: 1536 } as const;

/** The lowest address-space limit under which a child starts and parses a normal CV (measured). */
export const MIN_MEMORY_LIMIT_MB = 1280;

const HEAP_LIMIT_MB = 256;
// A child is replaced once its memory grew past what parsing CVs needs, and in any case after 200
// documents, so that one compromised child sees few CVs (issue 25, item 4; it was 2,000). A warm
// child holds ~50 MB; under load, with its old generation collected in full only past 128 MB
// (launcher.ts), ~240 MB; with its heap capped at 256 MB it would die near ~340 MB. A replacement
// loads pdf.js and warms up (~0.4 s of CPU, ~2 ms per application at 200): the pool starts it
// ahead of the old child's last documents (parser-pool.ts), so no request waits for it.
export const RECYCLE_AFTER = 200;
const RECYCLE_ABOVE_RSS_MB = 320;
const HEADER_WINDOW = 1024;
const PDF_MAGIC = Buffer.from('%PDF-');

// A text CV inflates 1–3x overall and a 10,000-page file of tiny page objects ~20x, so 64x the
// file size is generous for real files; the floor spares tiny files (1 MiB: a file under 16 KiB
// that inflates past it is no CV), and the ceiling keeps what reaches pdf.js well inside the
// child's memory limit. The floor was 8 MiB: refusing a 4 KB bomb then cost ~60 ms of CPU, more
// than accepting a good CV; at 1 MiB ~6 ms (issue 25).
const INFLATE_RATIO = 64;
const INFLATE_FLOOR = 1024 * 1024;
const INFLATE_CEILING = 128 * 1024 * 1024;

// Checks wait their turn rather than being refused (issue 25, item 2): one integrator account may
// have 100 checks waiting (a burst of applications sent together), one address on the hosted page
// 10 (a person applies with one file; an office shares one address), a background task's account
// 200 (the workers' concurrency bounds those anyway); 400 wait in all, which holds only their
// paths and callbacks, not their files. A check still waiting after 20 s is refused with 503 and
// Retry-After: by then the client is better told to come back than kept on the line.
const MAX_QUEUED = 400;
const MAX_QUEUED_PER_KEY = { api: 100, page: 10, task: 200 } as const;
const MAX_WAIT_MS = 20_000;

// Every revision of an edited file writes its changed pages again, so the page objects in plain
// sight are an upper bound on the pages: 4 per allowed page plus a margin spares any real CV,
// while a 10,000-page file is refused before its streams are inflated or a child is spent.
const PAGE_OBJECTS_PER_PAGE = 4;
const PAGE_OBJECTS_SLACK = 20;
// A dense text page runs a few thousand operators, a page with a detailed vector logo or chart
// some tens of thousands; pdf.js takes ~5 s for a million (the deadline).
const OPERATORS_PER_PAGE = 50_000;
const DEFAULT_SHARE: CheckShare = { lane: 'api', key: 'unnamed' };

export function createCvChecker(options: CvCheckerOptions): CvChecker {
  const { maxBytes, maxPages } = options;
  const poolSize = options.poolSize ?? CV_CHECK_DEFAULTS.poolSize;
  const timeoutMs = options.timeoutMs ?? CV_CHECK_DEFAULTS.timeoutMs;
  const memoryLimitMb = options.memoryLimitMb ?? CV_CHECK_DEFAULTS.memoryLimitMb;
  requireInteger('maxBytes', maxBytes, 1);
  requireInteger('maxPages', maxPages, 1);
  requireInteger('poolSize', poolSize, 1);
  requireInteger('timeoutMs', timeoutMs, 100);
  requireInteger('memoryLimitMb', memoryLimitMb, MIN_MEMORY_LIMIT_MB);

  const onEvent = options.onEvent;
  const pool = new ParserPool({
    size: poolSize,
    timeoutMs,
    memoryLimitMb,
    heapLimitMb: HEAP_LIMIT_MB,
    recycleAfter: RECYCLE_AFTER,
    recycleAboveRssMb: RECYCLE_ABOVE_RSS_MB,
    ...(onEvent ? { onEvent } : {}),
  });

  // Each check past the header holds its file in memory (up to maxBytes) during the pre-scan; a
  // burst of uploads waits here, fairly across sources, rather than multiplying that. Twice the
  // pool keeps the parsers fed while the next files are pre-scanned.
  const limiter = new FairLimiter({
    slots: poolSize * 2,
    maxQueued: MAX_QUEUED,
    maxQueuedPerKey: MAX_QUEUED_PER_KEY,
    maxWaitMs: options.maxWaitMs ?? MAX_WAIT_MS,
  });

  async function check(
    filePath: string,
    share: CheckShare = DEFAULT_SHARE,
    detail: TextDetail = 'layout',
  ): Promise<CvCheckResult> {
    const started = performance.now();
    const verdict = (result: CvCheckResult, stage: CvCheckStage, error?: string): CvCheckResult => {
      onEvent?.({
        type: 'checked',
        outcome: result.ok ? 'ok' : result.reason,
        stage,
        ms: Math.round(performance.now() - started),
        ...(error ? { error } : {}),
      });
      return result;
    };

    const { size, header } = await readHeader(filePath);
    if (size > maxBytes) return verdict({ ok: false, reason: 'too_large' }, 'size');
    if (header.indexOf(PDF_MAGIC) < 0) return verdict({ ok: false, reason: 'wrong_type' }, 'magic');

    const refused = (result: CvCheckResult) => !result.ok;
    return limiter.run(
      share,
      async () => {
        const data = await readFile(filePath);
        const scan = await prescanPdf(data, {
          maxInflatedBytes: inflateBudget(size),
          deadlineMs: timeoutMs,
          maxPageObjects: maxPages * PAGE_OBJECTS_PER_PAGE + PAGE_OBJECTS_SLACK,
          maxOperators: maxPages * OPERATORS_PER_PAGE,
        });
        if (!scan.ok) {
          const reason = scan.cause === 'too_many_pages' ? 'too_many_pages' : 'corrupt';
          return verdict({ ok: false, reason }, 'prescan', scan.cause);
        }

        const outcome = await pool.run({ data, maxPages, detail });
        if (outcome.ok) return verdict({ ok: true, pages: outcome.pages, text: outcome.text }, 'parser');
        return verdict({ ok: false, reason: outcome.reason }, 'parser', outcome.error);
      },
      refused,
    );
  }

  const stats = (): CvCheckerStats => {
    const { refused, expired } = limiter.stats;
    return { pool: pool.stats, waiting: limiter.queued, running: limiter.running, refused, expired };
  };
  return { check, stats, close: () => pool.close() };
}

/** The bytes a file of `size` bytes may inflate to in the pre-scan before it is refused. */
export function inflateBudget(size: number): number {
  return Math.min(Math.max(size * INFLATE_RATIO, INFLATE_FLOOR), INFLATE_CEILING);
}

async function readHeader(filePath: string): Promise<{ size: number; header: Buffer }> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(Math.min(HEADER_WINDOW, size));
    const { bytesRead } = await file.read(header, 0, header.length, 0);
    return { size, header: header.subarray(0, bytesRead) };
  } finally {
    await file.close();
  }
}

function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`createCvChecker: ${name} must be an integer >= ${min}, got ${value}`);
  }
}
