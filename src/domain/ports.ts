/**
 * What intake and the CV builds need of the file store and the PDF checker (src/blob-store and
 * src/pdf provide them): beside the areas, so neither imports the other for them.
 */
export interface CvFileStore {
  presignPut(key: string, options: { bytes: number; expiresAt: Date }): Promise<string>;
  size(key: string): Promise<number | null>;
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  delete(key: string): Promise<void>;
  putFile(key: string, filePath: string): Promise<void>;
}

import type { CheckShare } from '../pdf/fair-limiter.ts';
import type { TextDetail } from '../pdf/protocol.ts';
import type { CvRejectReason } from '../pdf/types.ts';

export type { CheckShare, CvRejectReason, TextDetail };

export type CvVerdict =
  | { ok: true; pages: number; text: { items: { str: string }[] }[] }
  | { ok: false; reason: CvRejectReason };

export interface CvInspector {
  /**
   * `share` names who asks, so that one source cannot take the checker (issue 11, item 2);
   * `detail`, how much of the text a pass brings back ('layout' by default; 'none' brings none).
   */
  check(filePath: string, share?: CheckShare, detail?: TextDetail): Promise<CvVerdict>;
}

export interface CvLimits {
  maxBytes: number;
  maxPages: number;
}
