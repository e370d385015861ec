// Messages between the parser pool (parent) and parse-worker.ts (child), sent over the IPC channel
// with `serialization: 'advanced'` (structured clone).

import type { PdfPage } from './types.ts';

/**
 * How much of the text the child sends back. The verdict is the same for all three (every page's
 * text is read and counted either way):
 *   'none'   the verdict and the page count only (accepting an application needs no more);
 *   'plain'  each page's text items, fonts not named (a candidate import's "is it a CV?" test);
 *   'layout' the items with their real font names, bold and italic (the virtual CV's builder).
 * Naming the fonts takes an operator list per page, which builds every glyph's outline: it doubled
 * the child's time on a 2-page CV (issue 14).
 */
export type TextDetail = 'none' | 'plain' | 'layout';

export interface ParseRequest {
  type: 'parse';
  id: number;
  /** The PDF's bytes: the child may not read the service's files (permission model). */
  data: Uint8Array;
  maxPages: number;
  /** 'layout' when absent. */
  detail?: TextDetail;
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
  /** `rssMb`: the child's resident memory once the document is done with (the pool recycles on it). */
  | { type: 'result'; id: number; outcome: ParseOutcome; rssMb: number }
  | SandboxReport;
