import { Type } from 'typebox';
import { CV_STATUSES } from './intake.ts';
import { Text } from './text.ts';
import { enumOf } from './vocabulary.ts';

/**
 * The recruiter's pipeline over applications (extensions.md §4): stages, notes and the console's
 * list. The public ApplicationStatus is untouched; these shapes are the console API's.
 */
export const APPLICATION_STAGES = [
  'new',
  'reviewing',
  'shortlisted',
  'interviewing',
  'offered',
  'hired',
  'rejected',
] as const;
export type Stage = (typeof APPLICATION_STAGES)[number];

export const APPLICATION_SORTS = ['newest', 'oldest', 'name'] as const;
export type ApplicationSort = (typeof APPLICATION_SORTS)[number];

/** At most this many applications move in one bulk request. */
export const BULK_MOVE_MAX = 100;
/** A note's text, at most this many characters. */
export const NOTE_MAX_CHARS = 5000;

export const ApplicationParams = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  applicationId: Text({ minLength: 1, maxLength: 64 }),
});

export const JobApplicationsParams = Type.Object({
  accountId: Text({ minLength: 1, maxLength: 64 }),
  jobId: Text({ minLength: 1, maxLength: 64 }),
});

export const StageMove = Type.Object(
  { stage: enumOf(APPLICATION_STAGES, 'The pipeline stage to move to.') },
  { additionalProperties: false },
);

export const BulkStageMove = Type.Object(
  {
    applicationIds: Type.Array(Text({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: BULK_MOVE_MAX,
      description: `The job's applications to move, at most ${BULK_MOVE_MAX}; ids of other jobs move nothing.`,
    }),
    stage: enumOf(APPLICATION_STAGES, 'The pipeline stage to move to.'),
  },
  { additionalProperties: false },
);

export const NoteWrite = Type.Object(
  {
    text: Text({ minLength: 1, maxLength: NOTE_MAX_CHARS, description: 'The note, 1 to 5,000 characters.' }),
  },
  { additionalProperties: false },
);

export const ApplicationListQuery = Type.Object(
  {
    q: Type.Optional(Text({ maxLength: 200, description: 'Part of the name or email, any case.' })),
    stage: Type.Optional(enumOf(APPLICATION_STAGES)),
    source: Type.Optional(
      Text({ minLength: 1, maxLength: 64, description: 'The channel the application came by.' }),
    ),
    cvStatus: Type.Optional(enumOf(CV_STATUSES)),
    answer: Type.Optional(
      Text({
        maxLength: 82,
        pattern: '^[a-z0-9_]{1,40}:[a-z0-9_]{1,40}$',
        description:
          'questionId:value: applications whose answer to that select or yes/no question of the job has that value (yes or no for yes/no).',
      }),
    ),
    sort: Type.Optional(enumOf(APPLICATION_SORTS, 'newest (default), oldest or name.')),
    cursor: Type.Optional(Text({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);
