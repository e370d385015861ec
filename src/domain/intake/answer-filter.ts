/**
 * Filtering a job's applications by an answer (issue 28 item 7): the choices a recruiter may
 * filter by (a select's options, yes or no; never a demographic question, whose answers are not
 * stored with the application), and the JSON an application's `answers` column contains when
 * its answer has that value.
 */
import type { Question } from '../../contract/questions.ts';
import { badRequest } from '../errors.ts';

export interface AnswerChoice {
  questionId: string;
  label: string;
  options: { value: string; label: string }[];
}

const FILTERABLE = ['single_select', 'multi_select', 'yes_no'];

/** The job's questions a list can be filtered by, with their values. */
export function answerChoices(questions: readonly Question[]): AnswerChoice[] {
  return questions
    .filter((q) => FILTERABLE.includes(q.type) && q.demographic !== true)
    .map((q) => ({
      questionId: q.id,
      label: q.label,
      options:
        q.type === 'yes_no'
          ? [
              { value: 'yes', label: 'Yes' },
              { value: 'no', label: 'No' },
            ]
          : (q.options ?? []).map((o) => ({ value: o.value, label: o.label })),
    }));
}

/**
 * `questionId:value` as the stored answers' containment probe (`answers @> probe`); 400 naming
 * `answer` when it names no filterable question or no value of it.
 */
export function answerProbe(questions: readonly Question[], filter: string): string {
  const [questionId = '', value = ''] = filter.split(':', 2);
  const q = questions.find((x) => x.id === questionId);
  const choice = q ? answerChoices([q])[0] : undefined;
  if (!q || !choice?.options.some((o) => o.value === value))
    throw badRequest('answer must be questionId:value for a select or yes/no question of the job.', {
      field: 'answer',
    });
  const stored = q.type === 'yes_no' ? value === 'yes' : q.type === 'multi_select' ? [value] : value;
  return JSON.stringify([{ questionId, value: stored }]);
}
