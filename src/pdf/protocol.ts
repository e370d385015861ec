// Messages between the parser pool (parent) and parse-worker.ts (child), sent over the IPC channel
// with `serialization: 'advanced'` (structured clone).

import type { PdfPage } from './types.ts';

export interface ParseRequest {
  type: 'parse';
  id: number;
  /** The PDF's bytes: the child may not read the service's files (permission model). */
  data: Uint8Array;
  maxPages: number;
}

export type ParseOutcome =
  | { ok: true; pages: number; text: PdfPage[] }
  | { ok: false; reason: 'encrypted' | 'too_many_pages' | 'no_text_layer' | 'corrupt'; error?: string };

/** Tests only: asks the child to try what its sandbox must refuse (see parse-worker.ts). */
export interface SandboxProbe {
  type: 'probe';
  id: number;
  path: string;
}

export interface SandboxReport {
  type: 'probe';
  id: number;
  /** 'allowed', or the error code that refused it. */
  read: string;
  connect: string;
  fetch: string;
  spawn: string;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; outcome: ParseOutcome }
  | SandboxReport;
