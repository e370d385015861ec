// Messages between the parser pool (parent) and parse-worker.ts (child), sent over the IPC channel
// with `serialization: 'advanced'` (structured clone).

import type { PdfPage } from './types.ts';

export interface ParseRequest {
  type: 'parse';
  id: number;
  path: string;
  maxPages: number;
}

export type ParseOutcome =
  | { ok: true; pages: number; text: PdfPage[] }
  | { ok: false; reason: 'encrypted' | 'too_many_pages' | 'no_text_layer' | 'corrupt'; error?: string };

export type WorkerMessage = { type: 'ready' } | { type: 'result'; id: number; outcome: ParseOutcome };
