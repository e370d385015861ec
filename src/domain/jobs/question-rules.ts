/**
 * The rules of a job's question set beyond its schema (extensions.md §5, Questions): ids unique,
 * options only on (and required by) the selects, bounds only where they mean something, and a
 * demographic question voluntary and countable. A refusal is 400 naming the field.
 */
import { DEMOGRAPHIC_TYPES, QUESTION_MAX, type Question, SELECT_TYPES } from '../../contract/questions.ts';
import { badRequest } from '../errors.ts';

const TEXT_TYPES = ['short_text', 'long_text'];

function refuse(field: string, message: string): never {
  throw badRequest(`${field} ${message}`, { field });
}

function checkOptions(q: Question, at: string): void {
  const isSelect = SELECT_TYPES.includes(q.type);
  if (!isSelect) {
    if (q.options !== undefined)
      refuse(`${at}.options`, `is only for single_select and multi_select questions.`);
    return;
  }
  const options = q.options ?? [];
  if (options.length < 2 || options.length > QUESTION_MAX.options)
    refuse(`${at}.options`, `must list 2 to ${QUESTION_MAX.options} options for a ${q.type} question.`);
  const seen = new Set<string>();
  options.forEach((option, j) => {
    if (seen.has(option.value)) refuse(`${at}.options[${j}].value`, `"${option.value}" is listed twice.`);
    seen.add(option.value);
  });
}

function checkBounds(q: Question, at: string): void {
  if (q.maxLength !== undefined && !TEXT_TYPES.includes(q.type))
    refuse(`${at}.maxLength`, 'is only for short_text and long_text questions.');
  for (const bound of ['min', 'max'] as const)
    if (q[bound] !== undefined && q.type !== 'number')
      refuse(`${at}.${bound}`, 'is only for number questions.');
  if (q.min !== undefined && q.max !== undefined && q.min > q.max)
    refuse(`${at}.min`, 'must not exceed max.');
}

export function checkQuestions(questions: Question[]): void {
  const ids = new Set<string>();
  questions.forEach((q, i) => {
    const at = `questions[${i}]`;
    if (ids.has(q.id))
      refuse(`${at}.id`, `"${q.id}" is used by an earlier question; ids are unique within a job.`);
    ids.add(q.id);
    checkOptions(q, at);
    checkBounds(q, at);
    if (q.demographic === true) {
      if (q.required === true)
        refuse(`${at}.required`, 'must be false: a demographic question is voluntary.');
      if (!DEMOGRAPHIC_TYPES.includes(q.type))
        refuse(`${at}.type`, 'of a demographic question must be single_select, multi_select or yes_no.');
    }
  });
}
