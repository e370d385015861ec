import { type Static, Type } from 'typebox';
import { Text } from './text.ts';
import { enumOf } from './vocabulary.ts';

/** A job's own application questions (extensions.md §5, Questions). */
export const QUESTION_TYPES = [
  'short_text',
  'long_text',
  'single_select',
  'multi_select',
  'yes_no',
  'number',
  'date',
  'file',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const SELECT_TYPES: readonly QuestionType[] = ['single_select', 'multi_select'];
/** The types a demographic question may take: only answers that can be counted. */
export const DEMOGRAPHIC_TYPES: readonly QuestionType[] = ['single_select', 'multi_select', 'yes_no'];
/** Accepted on every demographic question, listed by its author or not. */
export const PREFER_NOT_TO_SAY = 'prefer_not_to_say';

export const QUESTION_MAX = {
  questions: 30,
  label: 500,
  helpText: 1_000,
  options: 100,
  optionLabel: 200,
  shortText: 500,
  longText: 10_000,
} as const;

const Id = Text({ pattern: '^[a-z0-9_]{1,40}$', description: 'Lower-case letters, digits and _; 1 to 40.' });

export const QuestionOption = Type.Object(
  { value: Id, label: Text({ minLength: 1, maxLength: QUESTION_MAX.optionLabel }) },
  { additionalProperties: false },
);

const questionProperties = {
  id: Type.String({
    pattern: '^[a-z0-9_]{1,40}$',
    description: 'Unique within the job; kept across edits (answers name it as `questionId`).',
  }),
  label: Text({ minLength: 1, maxLength: QUESTION_MAX.label }),
  type: enumOf(QUESTION_TYPES),
  options: Type.Optional(
    Type.Array(QuestionOption, {
      maxItems: QUESTION_MAX.options,
      description: 'For single_select and multi_select only: 2 to 100 options with distinct values.',
    }),
  ),
  helpText: Type.Optional(Text({ maxLength: QUESTION_MAX.helpText })),
  maxLength: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: QUESTION_MAX.longText,
      description: 'short_text and long_text only: the longest answer (default 500 and 10000).',
    }),
  ),
  min: Type.Optional(Type.Number({ minimum: -1e12, maximum: 1e12, description: 'number only.' })),
  max: Type.Optional(Type.Number({ minimum: -1e12, maximum: 1e12, description: 'number only.' })),
  demographic: Type.Optional(
    Type.Boolean({
      description:
        'Voluntary equal-opportunity question (single_select, multi_select or yes_no; never required). Its answers are stored apart from the application, never shown with it, and read only as counts; `prefer_not_to_say` is always accepted.',
    }),
  ),
};

export const QuestionWrite = Type.Object(
  {
    ...questionProperties,
    id: Id,
    required: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  },
  { additionalProperties: false, title: 'Question (write)' },
);

export const Question = Type.Object(
  { ...questionProperties, required: Type.Boolean() },
  { title: 'Question' },
);
export type Question = Static<typeof Question>;

export const QuestionsWrite = Type.Union(
  [Type.Array(QuestionWrite, { maxItems: QUESTION_MAX.questions }), Type.Null()],
  {
    description:
      "The job's application questions, at most 30; [] or null clears them. On a published ad they are staged like the other words.",
  },
);

/** An answer to one of the job's questions, typed by the question (§5, Answers). */
export const TypedAnswer = Type.Object(
  {
    questionId: Type.String({ pattern: '^[a-z0-9_]{1,40}$', maxLength: 40 }),
    answer: Type.Union(
      [
        Text({ maxLength: QUESTION_MAX.longText }),
        Type.Boolean(),
        Type.Number(),
        Type.Array(Text({ maxLength: 40 }), { maxItems: QUESTION_MAX.options }),
        Type.Object({ uploadId: Text({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
      ],
      {
        description:
          'short_text/long_text: a string; single_select: an option value; multi_select: an array of option values; yes_no: a boolean; number: a number within min/max; date: YYYY-MM-DD; file: { uploadId } of a PDF uploaded like a CV.',
      },
    ),
  },
  { additionalProperties: false, title: 'TypedAnswer' },
);

export const ANSWER_PROBLEMS = [
  'required',
  'unknown_question',
  'wrong_type',
  'not_an_option',
  'too_long',
  'out_of_range',
  'bad_date',
  'upload_invalid',
  'duplicate',
] as const;
export type AnswerProblem = (typeof ANSWER_PROBLEMS)[number];
