import { type Static, type TObject, type TProperties, Type } from 'typebox';
import { ANSWER_PROBLEMS } from './questions.ts';
import { enumOf, SCOPES } from './vocabulary.ts';

/** The spec's `cv_rejected.reason` values (api.md, Errors). */
export const CV_REJECT_REASONS = [
  'wrong_type',
  'too_large',
  'too_many_pages',
  'encrypted',
  'no_text_layer',
  'corrupt',
] as const;
export type CvRejectReason = (typeof CV_REJECT_REASONS)[number];

/** What a job can be missing at publish (`not_publishable.missing`). */
export const PUBLISH_REQUIREMENTS = ['title', 'description', 'category'] as const;
/** What a managed ad keeps fixed (`managed_ad_locked.fields`). */
export const LOCKED_WHEN_MANAGED = ['title', 'category'] as const;
const JOB_STATUSES = ['draft', 'published', 'closed', 'expired'] as const;

interface CatalogueEntry<P extends TProperties> {
  status: number;
  /** When the service answers it, as an integrator reads it (api.md's table where it has one). */
  when: string;
  /** The code's fields beside `code`, `message` and `requestId`. */
  extra: TObject<P>;
  /** A realistic answer, for the document's examples. */
  example: { message: string } & Static<TObject<P>>;
  /** A `Retry-After` header (seconds): on every answer, or when the service knows how long. */
  retryAfter?: RetryAfter;
}

type RetryAfter = 'always' | 'when_known';

const entry = <P extends TProperties = Record<never, never>>(
  status: number,
  when: string,
  example: { message: string } & Static<TObject<P>>,
  extra: P = {} as P,
  retryAfter?: RetryAfter,
): CatalogueEntry<P> => ({
  status,
  when,
  extra: Type.Object(extra),
  example,
  ...(retryAfter ? { retryAfter } : {}),
});

const field = Type.String({ description: 'The field, query parameter or header at fault.' });

/**
 * The one catalogue of errors the service answers with: each code's HTTP status, its extra fields
 * (typed, so the domain's named constructors and the OpenAPI document are derived from the same
 * table) and an example. A code is added here first; nothing else may invent one.
 */
export const ERROR_CATALOGUE = {
  bad_request: entry(
    400,
    'A malformed query parameter, path parameter or body; a missing Idempotency-Key where required; a forbidden field in a job write; a string holding a NUL character or an unpaired UTF-16 surrogate; a JSON body nested deeper than 32 levels; a path that does not percent-decode to UTF-8, or a path parameter over 200 characters.',
    { message: 'salary.min must not exceed salary.max.', field: 'salary.min' },
    { field: Type.Optional(field) },
  ),
  upload_invalid: entry(
    400,
    '`cv.uploadId` names no live upload: never issued to this account, already used, expired, or nothing was PUT.',
    {
      message:
        'cv.uploadId names no live upload: it has already been used. Start a new upload with POST /v1/uploads.',
    },
  ),
  unauthorized: entry(401, 'No key, or an invalid or revoked key.', {
    message: 'The API key is not valid, or has been revoked.',
  }),
  overage_cap_reached: entry(
    402,
    "The screening is past the ad's included screenings and would take the month's overage past the account's cap.",
    {
      message:
        "This screening's price would take the month's overage past the account's cap; a billing admin can raise it in the console.",
      priceCents: 1500,
      currency: 'AUD',
      capCents: 50000,
      spendCents: 49000,
    },
    {
      priceCents: Type.Integer({ description: "The template's price, locked at the call." }),
      currency: enumOf(['AUD', 'USD'] as const),
      capCents: Type.Integer({ description: "The account's monthly overage cap." }),
      spendCents: Type.Integer({ description: 'Overage committed this month (completed and still open).' }),
    },
  ),
  forbidden: entry(
    403,
    "The key lacks the route's scope.",
    {
      message: 'This key lacks the scope "jobs:write" that this route needs.',
      missingScope: 'jobs:write',
      acceptedScopes: ['jobs:write'],
    },
    {
      missingScope: Type.Optional(enumOf(SCOPES, 'The first of `acceptedScopes`.')),
      acceptedScopes: Type.Optional(
        Type.Array(enumOf(SCOPES), { minItems: 1, description: 'Every scope the route accepts.' }),
      ),
    },
  ),
  not_found: entry(
    404,
    "Not this account's (another account's id answers the same), a draft on a read, or an unknown id.",
    { message: 'Job was not found.' },
  ),
  conflict: entry(
    409,
    'An Idempotency-Key used by a different request or one still running; close or manage of a job that is not published; a screening already open; a taken company address.',
    { message: 'Only a published job can be closed; this one is draft.', status: 'draft' },
    {
      status: Type.Optional(enumOf(JOB_STATUSES, "The job's status, when the job's state is the conflict.")),
      field: Type.Optional(field),
    },
  ),
  job_not_open: entry(
    409,
    'An application to a job that is not published.',
    { message: 'The job is closed; only a published job takes applications.', status: 'closed' },
    { status: enumOf(['draft', 'closed', 'expired'] as const, "The job's status.") },
  ),
  managed_ad_locked: entry(
    409,
    'An edit (or a promotion of staged words) would change the title or category of a managed ad; nothing is written.',
    { message: 'This ad is managed: title cannot change while it is.', fields: ['title'] },
    {
      fields: Type.Array(enumOf(LOCKED_WHEN_MANAGED), {
        minItems: 1,
        description: 'The locked fields the edit would change.',
      }),
    },
  ),
  company_address_required: entry(409, 'A publish before the account chose a company address.', {
    message:
      'Choose a company address in the account console first, then publish again with a new Idempotency-Key.',
  }),
  ad_not_managed: entry(409, 'A screening on an ad that is not managed.', {
    message: 'Only a managed, published ad can screen candidates.',
  }),
  matching_disabled: entry(409, 'The matches of a role when the account switched automated matching off.', {
    message:
      'Automated matching is switched off for this account; an account admin switches it on in the console.',
  }),
  price_unavailable: entry(409, "The screening template's price cannot be read.", {
    message: "The template's price cannot be read; the screening was not sent.",
  }),
  dpa_required: entry(
    409,
    'A key with applications:write before the account accepted the data-processing addendum.',
    {
      message:
        'A key with applications:write can be minted only after an account admin accepts the data-processing addendum: in the console under Settings (/console/settings), or PATCH /console/v1/accounts/{accountId} with {"dpaAccepted": true} (npm run console -- account:dpa <accountId>).',
    },
  ),
  no_slot_available: entry(409, 'Managing an ad when every managed-ad slot of the account is taken.', {
    message: "Every one of the account's 5 managed-ad slots is taken.",
  }),
  request_timeout: entry(408, 'The request did not arrive in time; the connection is closed.', {
    message: 'The request body did not arrive within 15000 ms; the connection is closed.',
  }),
  payload_too_large: entry(413, 'The request body is larger than 1 MiB.', {
    message: 'The request body is larger than the service accepts (1 MiB).',
  }),
  unsupported_media_type: entry(
    415,
    'A body that is not JSON, or a compressed one (any Content-Encoding but identity).',
    {
      message: 'Send the body as JSON with Content-Type: application/json.',
    },
  ),
  not_publishable: entry(
    422,
    'A publish of a job missing what publishing needs (`category` only on the first publish).',
    {
      message: 'The job cannot be published without description, category.',
      missing: ['description', 'category'],
    },
    {
      missing: Type.Array(enumOf(PUBLISH_REQUIREMENTS), {
        minItems: 1,
        description: 'What the job lacks.',
      }),
    },
  ),
  consent_invalid: entry(
    422,
    'The receipt names a text or version never handed out, `acceptedAt` is unreadable or more than five minutes ahead, or `ip` or `userAgent` is empty.',
    { message: 'consent.ip must not be empty.', field: 'consent.ip' },
    { field: Type.String({ description: 'The receipt field at fault, e.g. `consent.version`.' }) },
  ),
  answers_invalid: entry(
    422,
    "An answer to one of the job's questions is refused: a required one missing, an unknown `questionId`, a wrong type, a value that is not an option, too long, out of range, a bad date, an unusable upload, or the same question twice. Checked after `attestation_required` and before the daily budget; it spends nothing.",
    {
      message: '2 answers are refused; see fields.',
      fields: [
        { questionId: 'years', problem: 'out_of_range' },
        { questionId: 'portfolio', problem: 'required' },
      ],
    },
    {
      fields: Type.Array(
        Type.Object(
          { questionId: Type.String(), problem: enumOf(ANSWER_PROBLEMS) },
          { additionalProperties: false },
        ),
        { minItems: 1, description: 'Every refused answer, one entry per question and problem.' },
      ),
    },
  ),
  attestation_required: entry(422, '`lawfulBasis.attested` was not `true`.', {
    message: 'lawfulBasis.attested must be true: the account attests its lawful basis.',
  }),
  cv_rejected: entry(
    422,
    'The PDF is not a readable CV; the file is discarded.',
    {
      message: 'The CV was refused: encrypted.',
      reason: 'encrypted',
      detail: "Your PDF is protected with a password, so we can't open it.",
      fix: 'Remove the password (for example, open the file and save or print it as a new PDF without protection), then upload the new file.',
    },
    {
      reason: enumOf(CV_REJECT_REASONS),
      detail: Type.String({ description: 'What is wrong, written to be shown to the candidate.' }),
      fix: Type.String({ description: 'What the candidate can do, written to be shown to them.' }),
    },
  ),
  rate_limited: entry(
    429,
    "The key's per-minute limit, the job's own daily allowance of applications, or too many requests without a valid credential from one address (on every route).",
    { message: 'This key is limited to 120 requests a minute; retry after 12 seconds.' },
    {},
    'always',
  ),
  daily_cap_reached: entry(
    429,
    "The account's daily applications or daily candidate imports are spent (UTC day).",
    {
      message: "The account's daily budget of 500 applications is spent; it resets at midnight UTC.",
      resetsAt: '2026-03-11T00:00:00.000Z',
    },
    { resetsAt: Type.String({ format: 'date-time', description: 'Midnight UTC, when the budget resets.' }) },
    'always',
  ),
  unsolicited_contact_limit: entry(
    429,
    'A screening of a person who did not apply to the role, past the weekly limit of unsolicited contact.',
    {
      message:
        'This person did not apply to the role and was already contacted 2 times in the last seven days (limit 2).',
      limit: 2,
    },
    { limit: Type.Integer({ description: 'Invitations allowed per person in any seven days.' }) },
    'always',
  ),
  header_too_large: entry(431, 'Request headers over 16 KiB.', {
    message: 'Request headers are larger than 16384 bytes.',
  }),
  internal: entry(500, 'An unexpected failure; the detail is in the service log under the requestId.', {
    message: 'Something went wrong on our side. Quote the requestId to support.',
  }),
  unavailable: entry(
    503,
    'A dependency of the service (the database, the PDF checker) is not available, or the instance is stopping.',
    { message: 'The CV checker is not available right now; retry the request shortly.' },
    {},
    'when_known',
  ),
};

type Catalogue = typeof ERROR_CATALOGUE;
export type ErrorCode = keyof Catalogue;
/** The extra fields of each code, as the error body carries them. */
export type ErrorExtras = { [C in ErrorCode]: Static<Catalogue[C]['extra']> };
export type ErrorExtra<C extends ErrorCode> = ErrorExtras[C];

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}
