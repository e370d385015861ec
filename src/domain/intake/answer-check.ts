/**
 * The answers check (extensions.md §5, Refusal): each answer to one of the job's questions typed
 * by its question, every problem named per question, and what is stored of the answers: the
 * integrator's own `{ question, answer }` as sent, a typed answer beside its label and a display
 * string (what the existing readers show), and the demographic answers apart. Reads only: the
 * file answers' uploads are spent by the accepting transaction, like the CV's.
 */
import type { ApplicationWrite } from '../../contract/intake.ts';
import {
  type AnswerProblem,
  PREFER_NOT_TO_SAY,
  QUESTION_MAX,
  type Question,
} from '../../contract/questions.ts';
import { answersInvalid } from '../errors.ts';

/** An answer as the application's `answers` column keeps it. */
export interface StoredAnswer {
  question: string;
  answer: string;
  /** Typed answers only: the question answered, and the value as sent. */
  questionId?: string;
  value?: unknown;
}

export interface CheckedAnswers {
  stored: StoredAnswer[];
  /** The demographic answers, stored apart with nothing that leads back to the application. */
  demographic: { questionId: string; values: string[] }[];
  /** The uploads the file answers name, to spend with the CV's. */
  files: string[];
}

/** Whether an upload named by a file answer is a live PDF of this account's (read only). */
export type FileAnswerCheck = (uploadId: string) => Promise<{ usable: boolean; name: string | null }>;

type Answer = NonNullable<ApplicationWrite['answers']>[number];
type Problem = { questionId: string; problem: AnswerProblem };
type Typed = { questionId: string; answer: unknown };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return at.toISOString().slice(0, 10) === value;
}

function isEmpty(answer: unknown): boolean {
  return (
    answer === null ||
    (typeof answer === 'string' && answer.trim() === '') ||
    (Array.isArray(answer) && answer.length === 0)
  );
}

const labelOf = (q: Question, value: string) =>
  q.options?.find((o) => o.value === value)?.label ??
  (value === PREFER_NOT_TO_SAY ? 'Prefer not to say' : value);

function allowed(q: Question, value: string): boolean {
  return (
    (q.demographic === true && value === PREFER_NOT_TO_SAY) ||
    (q.options ?? []).some((o) => o.value === value)
  );
}

/** One answer against its question: the problem, or the value to keep and its display string. */
function judge(
  q: Question,
  answer: unknown,
): AnswerProblem | { value: unknown; display: string; values: string[] } {
  switch (q.type) {
    case 'short_text':
    case 'long_text': {
      if (typeof answer !== 'string') return 'wrong_type';
      const limit = q.maxLength ?? (q.type === 'short_text' ? QUESTION_MAX.shortText : QUESTION_MAX.longText);
      if (answer.length > limit) return 'too_long';
      return { value: answer, display: answer, values: [answer] };
    }
    case 'single_select': {
      if (typeof answer !== 'string') return 'wrong_type';
      if (!allowed(q, answer)) return 'not_an_option';
      return { value: answer, display: labelOf(q, answer), values: [answer] };
    }
    case 'multi_select': {
      if (!Array.isArray(answer) || answer.some((v) => typeof v !== 'string')) return 'wrong_type';
      const values = [...new Set(answer as string[])];
      if (values.some((v) => !allowed(q, v))) return 'not_an_option';
      return { value: values, display: values.map((v) => labelOf(q, v)).join(', '), values };
    }
    case 'yes_no': {
      if (q.demographic === true && answer === PREFER_NOT_TO_SAY)
        return { value: answer, display: 'Prefer not to say', values: [PREFER_NOT_TO_SAY] };
      if (typeof answer !== 'boolean') return 'wrong_type';
      return { value: answer, display: answer ? 'Yes' : 'No', values: [answer ? 'yes' : 'no'] };
    }
    case 'number': {
      if (typeof answer !== 'number' || !Number.isFinite(answer)) return 'wrong_type';
      if ((q.min !== undefined && answer < q.min) || (q.max !== undefined && answer > q.max))
        return 'out_of_range';
      return { value: answer, display: String(answer), values: [String(answer)] };
    }
    case 'date': {
      if (typeof answer !== 'string') return 'wrong_type';
      if (!isRealDate(answer)) return 'bad_date';
      return { value: answer, display: answer, values: [answer] };
    }
    case 'file': {
      const ref = answer as { uploadId?: unknown } | null;
      if (typeof ref !== 'object' || ref === null || Array.isArray(ref) || typeof ref.uploadId !== 'string')
        return 'wrong_type';
      return { value: { uploadId: ref.uploadId }, display: '', values: [ref.uploadId] };
    }
  }
}

/**
 * Checks the answers against the job's questions; throws 422 answers_invalid naming every problem.
 * `cvUploadId` may not be named by a file answer, nor one upload by two.
 */
export async function checkAnswers(
  questions: readonly Question[],
  answers: ApplicationWrite['answers'],
  cvUploadId: string,
  fileCheck: FileAnswerCheck,
): Promise<CheckedAnswers> {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const problems: Problem[] = [];
  const out: CheckedAnswers = { stored: [], demographic: [], files: [] };
  const seen = new Set<string>();
  const usedUploads = new Set<string>([cvUploadId]);
  for (const item of answers ?? []) {
    if (!('questionId' in item)) {
      out.stored.push(item as Answer as StoredAnswer);
      continue;
    }
    const { questionId, answer } = item as Typed;
    const q = byId.get(questionId);
    if (!q) {
      problems.push({ questionId, problem: 'unknown_question' });
      continue;
    }
    if (seen.has(questionId)) {
      problems.push({ questionId, problem: 'duplicate' });
      continue;
    }
    seen.add(questionId);
    if (isEmpty(answer)) continue; // judged as absent below
    const verdict = judge(q, answer);
    if (typeof verdict === 'string') {
      problems.push({ questionId, problem: verdict });
      continue;
    }
    if (q.type === 'file') {
      const uploadId = (verdict.value as { uploadId: string }).uploadId;
      const file = usedUploads.has(uploadId) ? { usable: false, name: null } : await fileCheck(uploadId);
      usedUploads.add(uploadId);
      if (!file.usable) {
        problems.push({ questionId, problem: 'upload_invalid' });
        continue;
      }
      out.files.push(uploadId);
      verdict.display = file.name ?? 'PDF attached';
    }
    if (q.demographic === true) out.demographic.push({ questionId, values: verdict.values });
    else out.stored.push({ questionId, question: q.label, answer: verdict.display, value: verdict.value });
  }
  for (const q of questions) {
    if (!q.required) continue;
    const given = (answers ?? []).find((a) => 'questionId' in a && (a as Typed).questionId === q.id);
    if (!given || isEmpty((given as Typed).answer)) problems.push({ questionId: q.id, problem: 'required' });
  }
  if (problems.length > 0) throw answersInvalid(problems);
  return out;
}
