import { PREFER_NOT_TO_SAY, type Question } from '../../contract/questions.ts';

/** A job's demographic answers as counts; `count` null (and `fewerThan5`) under 5. */
export interface DemographicCounts {
  questions: {
    questionId: string;
    label: string;
    options: { value: string; label: string; count: number | null; fewerThan5: boolean }[];
  }[];
}

/**
 * The demographic answers of a job, as counts only (extensions.md §5): per question and value, every
 * listed option and `prefer_not_to_say`; a count under 5 (0 included) is not given.
 */
export function demographicCounts(
  questions: Question[],
  rows: { question_id: string; value: string; n: number }[],
): DemographicCounts {
  const count = (questionId: string, value: string) =>
    rows.find((r) => r.question_id === questionId && r.value === value)?.n ?? 0;
  const shown = (n: number) => (n < 5 ? { count: null, fewerThan5: true } : { count: n, fewerThan5: false });
  return {
    questions: questions
      .filter((q) => q.demographic === true)
      .map((q) => {
        const options =
          q.type === 'yes_no'
            ? [
                { value: 'yes', label: 'Yes' },
                { value: 'no', label: 'No' },
              ]
            : (q.options ?? []).filter((o) => o.value !== PREFER_NOT_TO_SAY);
        return {
          questionId: q.id,
          label: q.label,
          options: [...options, { value: PREFER_NOT_TO_SAY, label: 'Prefer not to say' }].map((o) => ({
            ...o,
            ...shown(count(q.id, o.value)),
          })),
        };
      }),
  };
}
