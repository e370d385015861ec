import { type Static, Type } from 'typebox';
import { PUBLIC_STATUSES } from './job.ts';
import { TypedAnswer } from './questions.ts';
import { SafePropertyName, Text } from './text.ts';
import { enumOf, LocaleSchema as Locale } from './vocabulary.ts';

const Email = Text({
  format: 'email',
  minLength: 3,
  maxLength: 254,
  description: "The candidate's own address.",
});

/** Maximum lengths of intake fields, enforced here and documented in the OpenAPI document. */
export const INTAKE_MAX = {
  name: 200,
  phone: 50,
  location: 200,
  coverNote: 10_000,
  answers: 50,
  question: 1_000,
  answer: 10_000,
  fileName: 255,
  userAgent: 1_000,
  ip: 100,
} as const;

export const ConsentTextQuery = Type.Object(
  { locale: Type.Optional(Locale) },
  { additionalProperties: false },
);

export const ConsentTextBody = Type.Object({
  consentTextId: Type.String(),
  version: Type.String({ description: 'Changes whenever the wording does; sent back in consent.version.' }),
  locale: Locale,
  text: Type.String({ description: 'Rendered unmodified beside the apply button.' }),
});
export type ConsentText = Static<typeof ConsentTextBody>;

/** Uploads bigger than the largest CV_MAX_BYTES an operator can set are refused at once. */
export const MAX_UPLOAD_BYTES = 104_857_600;

export const UploadCreate = Type.Object(
  {
    bytes: Type.Integer({
      minimum: 1,
      maximum: MAX_UPLOAD_BYTES,
      description:
        "The file's exact size in bytes. Not checked against the CV limit here: a file over the service's CV_MAX_BYTES (10 MiB by default) is answered 422 `cv_rejected` / `too_large` when an application or candidate names it, and is never stored. Over 104857600 (100 MiB) is 400 naming `bytes`. Bytes of uploads neither used nor expired are capped per account (429 `rate_limited`).",
    }),
    fileName: Type.Optional(Text({ minLength: 1, maxLength: INTAKE_MAX.fileName })),
  },
  { additionalProperties: false },
);

export const UploadSlotBody = Type.Object({
  uploadId: Type.String(),
  uploadUrl: Type.String({ description: 'Presigned PUT address for the PDF.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'PUT deadline.' }),
});
export type UploadSlot = Static<typeof UploadSlotBody>;

export const ConsentReceipt = Type.Object(
  {
    consentTextId: Text({ minLength: 1, maxLength: 100 }),
    version: Text({ minLength: 1, maxLength: 100 }),
    locale: Type.Optional(
      Text({
        maxLength: 10,
        examples: ['en'],
        description:
          'en, es, fr or pt (default en). Any other value names words never handed out: 422 consent_invalid.',
      }),
    ),
    acceptedAt: Type.Union([Text({ maxLength: 40 }), Type.Number()], {
      description:
        'ISO 8601 date-time with a zone (Z or an offset), or whole epoch milliseconds; not more than five minutes ahead of the service clock, not before the version was first handed out. Anything else: 422 consent_invalid naming consent.acceptedAt.',
    }),
    ip: Text({ maxLength: INTAKE_MAX.ip }),
    userAgent: Text({ maxLength: INTAKE_MAX.userAgent }),
  },
  { additionalProperties: false },
);
export type ConsentReceipt = Static<typeof ConsentReceipt>;

/** The account's attestation; fields beside `attested` are kept with it as the account's own record. */
export const LawfulBasis = Type.Object(
  { attested: Type.Boolean({ description: 'Must be true.' }) },
  {
    additionalProperties: Type.Union([Text({ maxLength: 1_000 }), Type.Boolean(), Type.Number()]),
    propertyNames: SafePropertyName,
    maxProperties: 10,
  },
);

const sourceText = (description: string) => Text({ maxLength: 200, description });

/** Where the candidate came from (extensions.md §5, Source); kept as sent. */
export const ApplicationSource = Type.Object(
  {
    channel: Type.Optional(
      sourceText('Your own name for the channel; default: the route (api, integrator_site, job_page).'),
    ),
    utmSource: Type.Optional(sourceText('utm_source of the address the candidate landed on.')),
    utmMedium: Type.Optional(sourceText('utm_medium.')),
    utmCampaign: Type.Optional(sourceText('utm_campaign.')),
    utmTerm: Type.Optional(sourceText('utm_term.')),
    utmContent: Type.Optional(sourceText('utm_content.')),
    referrer: Type.Optional(
      Text({
        maxLength: 200,
        format: 'uri',
        pattern: '^https?://[^\\u0000\\uD800-\\uDFFF]*$',
        description: 'An absolute http(s) URL.',
      }),
    ),
  },
  { additionalProperties: false, title: 'ApplicationSource' },
);

const CvRef = Type.Object(
  { uploadId: Text({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const ApplicationWrite = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: INTAKE_MAX.name }),
    email: Email,
    phone: Type.Optional(Text({ maxLength: INTAKE_MAX.phone })),
    location: Type.Optional(Text({ maxLength: INTAKE_MAX.location })),
    cv: CvRef,
    coverNote: Type.Optional(Text({ maxLength: INTAKE_MAX.coverNote })),
    answers: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object(
            {
              question: Text({ maxLength: INTAKE_MAX.question }),
              answer: Text({ maxLength: INTAKE_MAX.answer }),
            },
            { additionalProperties: false, title: 'FreeAnswer' },
          ),
          TypedAnswer,
        ]),
        {
          maxItems: INTAKE_MAX.answers,
          description:
            "`{ question, answer }` strings for the integrator's own questions, or `{ questionId, answer }` naming one of the job's questions, the answer typed by it (422 answers_invalid otherwise).",
        },
      ),
    ),
    consent: ConsentReceipt,
    lawfulBasis: LawfulBasis,
    source: Type.Optional(ApplicationSource),
  },
  { additionalProperties: false },
);
export type ApplicationWrite = Static<typeof ApplicationWrite>;

export const APPLICATION_STATUSES = ['received', 'withdrawn'] as const;
export const CV_STATUSES = ['processing', 'staged', 'claimed', 'deleted', 'failed'] as const;

export const ApplicationCreatedBody = Type.Object({
  applicationId: Type.String(),
  candidateId: Type.String({ description: 'Same value as applicationId.' }),
  status: enumOf(APPLICATION_STATUSES, "`received`; on a duplicate, the existing application's status."),
  cvStatus: enumOf(CV_STATUSES, "`processing`; on a duplicate, the existing application's current value."),
  job: Type.Optional(Type.Object({ id: Type.String(), status: enumOf(PUBLIC_STATUSES) })),
  duplicate: Type.Optional(Type.Literal(true)),
});
export type ApplicationCreated = Static<typeof ApplicationCreatedBody>;

export const ApplicationStatusBody = Type.Object({
  applicationId: Type.String(),
  jobId: Type.String(),
  candidateId: Type.String(),
  status: enumOf(APPLICATION_STATUSES),
  cvStatus: enumOf(CV_STATUSES),
  createdAt: Type.String({ format: 'date-time' }),
  claimedAt: Type.Optional(Type.String({ format: 'date-time' })),
  reason: Type.Optional(enumOf(['cv_unreadable'] as const, 'Present on withdrawn.')),
  erasedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        "When the candidate's personal data was erased (the account's retention, an erasure request, or the candidate's own delete). Ids, statuses and dates stay; cvStatus is `deleted` unless the candidate claimed the CV.",
    }),
  ),
});
export type ApplicationStatus = Static<typeof ApplicationStatusBody>;

export const CandidateWrite = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: INTAKE_MAX.name }),
    email: Email,
    cv: CvRef,
    sendClaimEmail: Type.Optional(Type.Boolean()),
    locale: Type.Optional(Locale),
    lawfulBasis: LawfulBasis,
  },
  { additionalProperties: false },
);
export type CandidateWrite = Static<typeof CandidateWrite>;

export const IMPORT_OUTCOMES = [
  'queued',
  'existing_account',
  'suppressed',
  'already_imported',
  'rejected',
] as const;

export const CandidateCreatedBody = Type.Object({
  candidateId: Type.String(),
  status: enumOf(IMPORT_OUTCOMES),
  cvStatus: enumOf(['processing', 'none'] as const),
  rejection: Type.Optional(
    Type.Object(
      {
        reason: enumOf(['not_a_cv'] as const),
        detail: Type.String({
          description: 'What is wrong, written to be shown to the person, in the import locale.',
        }),
        fix: Type.String({ description: 'What to send instead, written to be shown to the person.' }),
      },
      { description: 'Present on rejected: the same candidate-facing fields as cv_rejected.' },
    ),
  ),
});
export type CandidateCreated = Static<typeof CandidateCreatedBody>;

export const ApplicationParams = Type.Object({ applicationId: Text({ minLength: 1, maxLength: 64 }) });
