// Work and education entries, anchored on their dates. OpenResume splits a section into entries
// by line spacing and takes the first bold line as the company; that loses roles when spacing is
// even and confuses title and employer. Here an entry starts where a header follows a
// description, or after a wider gap; a run of headers holding several date lines is then cut so
// each date gets the lines around it, using where the date sat in the run's first entry.
// Title vs employer (and degree vs school) is decided per piece by lexicon scores, then by the
// style and order the CV used for the pieces that were clear.

import type { DateRange } from './dates.ts';
import { bodyText, prepare } from './entry-blocks.ts';
import { assign, hasAnyWord, type Piece, pieceConfidence, pieces } from './entry-roles.ts';
import type { Line } from './layout.ts';
import {
  COMPANY_WORDS,
  DEGREE_WORDS,
  INSTITUTION_WORDS,
  JOB_TITLE_WORDS,
  SENIORITY_WORDS,
} from './lexicon.ts';
import { clamp01, fold, trimPunct, words } from './text.ts';
import type { EducationField, FieldMeta, VirtualCvEducation, VirtualCvWork, WorkField } from './types.ts';

const key = (text: string) => fold(text).replace(/[’`´]/g, "'");

function titleScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, JOB_TITLE_WORDS)) score += 3;
  if (hasAnyWord(p.text, SENIORITY_WORDS)) score += 1;
  if (hasAnyWord(p.text, COMPANY_WORDS)) score -= 2;
  if (p.afterMarker) score -= 3;
  if (words(p.text).length > 8) score -= 2;
  return score;
}

function employerScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, COMPANY_WORDS)) score += 3;
  if (p.afterMarker) score += 3;
  if (hasAnyWord(p.text, JOB_TITLE_WORDS)) score -= 3;
  if (/^\p{Lu}/u.test(p.text)) score += 0.5;
  return score;
}

function meta(confidence: number, page: number, raw?: string): FieldMeta {
  return { confidence: clamp01(confidence), origin: 'text', page, ...(raw ? { raw } : {}) };
}

/**
 * Puts an entry's dates and their field confidence on it. A lone date is both ends of a role
 * (`single: 'both'`) and the end of a course of study (`'end'`).
 */
function putDates<F extends 'startDate' | 'endDate'>(
  target: { startDate?: string; endDate?: string; isCurrent: boolean },
  fields: Partial<Record<F, FieldMeta>>,
  date: DateRange | undefined,
  single: 'both' | 'end',
  page: number,
): void {
  if (!date) return;
  const start = date.kind === 'single' ? (single === 'both' ? date.end : undefined) : date.start;
  const end = date.kind === 'single' || !date.isCurrent ? date.end : undefined;
  const at = meta(dateConfidence(date), page, date.raw);
  if (start) {
    target.startDate = start;
    (fields as Partial<Record<'startDate' | 'endDate', FieldMeta>>).startDate = at;
  }
  if (end) {
    target.endDate = end;
    (fields as Partial<Record<'startDate' | 'endDate', FieldMeta>>).endDate = at;
  }
  target.isCurrent = date.kind !== 'single' && date.isCurrent;
}

function dateConfidence(date: DateRange): number {
  return date.kind === 'range' ? (date.hasMonth ? 0.92 : 0.85) : date.kind === 'open' ? 0.75 : 0.65;
}

export function extractWork(lines: Line[]): VirtualCvWork[] {
  const { entries } = prepare(lines);
  const withPieces = entries.map((entry) => ({ ...pieces(entry.head), entry }));
  const assigned = assign(withPieces, titleScore, employerScore);
  const out: VirtualCvWork[] = [];
  for (const [i, a] of assigned.entries()) {
    const { entry } = a;
    const dateLine = entry.head.find((l) => l.date);
    const date = dateLine?.date;
    const page = entry.head[0]?.line.page ?? entry.body[0]?.line.page ?? 1;
    const body = bodyText(entry.body);
    // An entry with neither a date nor a title-like piece is leftover text, not a role.
    if (!date && !(a.first && titleScore(a.first) > 0)) {
      if (out.length > 0 && entry.body.length > 0) out.at(-1)!.highlights.push(...body.highlights);
      continue;
    }
    const fields: Partial<Record<WorkField, FieldMeta>> = {};
    const work: VirtualCvWork = { highlights: body.highlights, isCurrent: false, x: { fields } };
    if (a.first) {
      work.position = a.first.text;
      fields.position = meta(pieceConfidence(a.margin, titleScore(a.first)), page);
    }
    if (a.second) {
      work.name = a.second.text;
      fields.name = meta(pieceConfidence(a.margin, employerScore(a.second)), page);
    }
    const location = withPieces[i]!.location;
    if (location) {
      work.location = location;
      fields.location = meta(0.7, page);
    }
    putDates(work, fields, date, 'both', page);
    if (body.summary) work.summary = body.summary;
    out.push(work);
  }
  return out;
}

const CONNECTOR = /^(?:of|in|on|en|em|de|del|da|do|des|du|in|:|-|–|—)\s+/iu;

/** "Bachelor of Information Technology" → studyType "Bachelor", area "Information Technology". */
export function splitQualification(text: string): { studyType?: string; area?: string } {
  const k = key(text);
  let best: string | undefined;
  for (const word of DEGREE_WORDS) {
    if (
      (k.startsWith(`${word} `) || k === word || k.startsWith(`${word}'`)) &&
      (!best || word.length > best.length)
    )
      best = word;
  }
  if (!best) return { studyType: text };
  const studyType = text.slice(0, best.length).trim();
  const area = trimPunct(
    text
      .slice(best.length)
      .trim()
      .replace(CONNECTOR, '')
      .replace(/^\((.*)\)$/, '$1'),
  );
  return area ? { studyType, area } : { studyType };
}

function degreeScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, DEGREE_WORDS)) score += 4;
  if (hasAnyWord(p.text, INSTITUTION_WORDS)) score -= 3;
  return score;
}

function schoolScore(p: Piece): number {
  let score = 0;
  if (hasAnyWord(p.text, INSTITUTION_WORDS)) score += 4;
  if (hasAnyWord(p.text, DEGREE_WORDS)) score -= 3;
  if (/^\p{Lu}/u.test(p.text)) score += 0.5;
  return score;
}

export function extractEducation(lines: Line[]): VirtualCvEducation[] {
  const { entries } = prepare(lines);
  const withPieces = entries.map((entry) => ({ ...pieces(entry.head), entry }));
  const assigned = assign(withPieces, degreeScore, schoolScore);
  const out: VirtualCvEducation[] = [];
  for (const a of assigned) {
    const { entry } = a;
    const date = entry.head.find((l) => l.date)?.date;
    const page = entry.head[0]?.line.page ?? 1;
    if (!date && !a.first) continue;
    if (!date && !(a.first && (degreeScore(a.first) > 0 || schoolScore(a.first) > 0))) continue;
    const fields: Partial<Record<EducationField, FieldMeta>> = {};
    const education: VirtualCvEducation = { isCurrent: false, x: { fields } };
    if (a.first) {
      const { studyType, area } = splitQualification(a.first.text);
      const c = meta(pieceConfidence(a.margin, degreeScore(a.first)), page, a.first.text);
      if (studyType) {
        education.studyType = studyType;
        fields.studyType = c;
      }
      if (area) {
        education.area = area;
        fields.area = c;
      }
    }
    if (a.second) {
      education.institution = a.second.text;
      fields.institution = meta(pieceConfidence(a.margin, schoolScore(a.second)), page);
    }
    putDates(education, fields, date, 'end', page);
    out.push(education);
  }
  return out;
}
