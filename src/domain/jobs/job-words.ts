/**
 * The rules of an ad's words (what an edit of a published ad stages, and what publishing needs),
 * apart from the transactions of the job service that applies them.
 */
import { isDeepStrictEqual } from 'node:util';
import { LOCKED_WHEN_MANAGED, type PUBLISH_REQUIREMENTS } from '../../contract/errors.ts';
import { WORD_FIELDS } from '../../contract/job.ts';
import type { Question } from '../../contract/questions.ts';
import { sanitizeDescription } from '../../lib/sanitize.ts';
import { parseInstant } from '../../lib/time.ts';
import { badRequest } from '../errors.ts';
import { checkQuestions } from './question-rules.ts';

/** An ad's words as stored (JSONB): the fields of contract/job.ts's word schema. */
export type Words = Record<string, unknown>;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export function pickWords(input: Words): Words {
  const words: Words = {};
  for (const field of WORD_FIELDS) if (input[field] !== undefined) words[field] = input[field];
  // Sanitised on write with the hosted page's allow-list: integrators who render the description
  // get the same safe HTML the page shows (no scripts, handlers, styles or foreign schemes).
  if (typeof words.description === 'string') words.description = sanitizeDescription(words.description);
  // [] clears like null (stored absent); `required` is stored explicitly, false by default.
  if (Array.isArray(words.questions))
    words.questions =
      words.questions.length === 0
        ? null
        : (words.questions as Record<string, unknown>[]).map((q) => ({
            ...q,
            required: q.required === true,
          }));
  return words;
}

/** Words as stored: a field cleared with null is absent, so clearing an absent field is no change. */
export function mergeWords(base: Words, sent: Words): Words {
  const words: Words = { ...base, ...sent };
  for (const key of Object.keys(words)) if (words[key] === null) delete words[key];
  return words;
}

export function checkWords(words: Words): void {
  if (Array.isArray(words.questions)) checkQuestions(words.questions as Question[]);
  const salary = words.salary as { min?: number; max?: number; currency?: string } | null | undefined;
  if (salary?.min !== undefined && salary.max !== undefined && salary.min > salary.max) {
    throw badRequest('salary.min must not exceed salary.max.', { field: 'salary.min' });
  }
  if (salary?.currency !== undefined && !CURRENCIES.has(salary.currency)) {
    throw badRequest(`salary.currency "${salary.currency}" is not an ISO 4217 currency code.`, {
      field: 'salary.currency',
    });
  }
}

export function readExpiry(value: string | null | undefined, now: Date): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const at = parseInstant(value);
  if (at === null) throw badRequest('expiresAt must be an ISO 8601 date-time.', { field: 'expiresAt' });
  if (at.getTime() <= now.getTime())
    throw badRequest('expiresAt must be in the future.', { field: 'expiresAt' });
  return at;
}

/** Which of title and category would change on a managed ad, directly or by promotion. */
export function lockedChanges(
  live: Words,
  sent: Words,
  promotedLive: Words | null,
): (typeof LOCKED_WHEN_MANAGED)[number][] {
  return LOCKED_WHEN_MANAGED.filter(
    (field) =>
      (field in sent && !isDeepStrictEqual(sent[field], live[field])) ||
      (promotedLive !== null && !isDeepStrictEqual(promotedLive[field], live[field])),
  );
}

/** What the words lack to be published; `category` is required only on the first publish. */
export function missingToPublish(
  words: Words,
  firstPublish: boolean,
): (typeof PUBLISH_REQUIREMENTS)[number][] {
  const missing: (typeof PUBLISH_REQUIREMENTS)[number][] = [];
  if (typeof words.title !== 'string' || words.title.trim() === '') missing.push('title');
  if (typeof words.description !== 'string' || words.description.trim() === '') missing.push('description');
  if (firstPublish && !words.category) missing.push('category');
  return missing;
}
