import { type CvRejectReason, type ErrorCode, type ErrorExtra, errorStatus } from '../contract/errors.ts';
import type { Scope } from '../contract/vocabulary.ts';

export type { ErrorCode, ErrorExtra };

/** A code whose extras are all optional may leave them out; one with a required extra may not. */
type ExtraArgs<C extends ErrorCode> =
  Record<never, never> extends ErrorExtra<C>
    ? [extra?: ErrorExtra<C>, retryAfterSeconds?: number]
    : [extra: ErrorExtra<C>, retryAfterSeconds?: number];

/**
 * An answer the service refuses with: a code of the catalogue, a message for the developer, and
 * the code's typed extra fields. Thrown by services and the HTTP layer; infrastructure throws its
 * own errors, which the edge maps to these. Build one with the named constructors below.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly extra: ErrorExtra<C>;
  /** Seconds for a `Retry-After` header, where the code calls for one. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: C, message: string, ...[extra, retryAfterSeconds]: ExtraArgs<C>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.extra = extra ?? ({} as ErrorExtra<C>);
    this.retryAfterSeconds = retryAfterSeconds;
  }
  get status(): number {
    return errorStatus(this.code);
  }
}

// 400
export const badRequest = (message: string, extra: ErrorExtra<'bad_request'> = {}) =>
  new AppError('bad_request', message, extra);
export const uploadInvalid = (why: string) =>
  new AppError(
    'upload_invalid',
    `cv.uploadId names no live upload: ${why}. Start a new upload with POST /v1/uploads.`,
  );

// 401, 402, 403
export const unauthorized = (message: string) => new AppError('unauthorized', message);
export const overageCapReached = (extra: ErrorExtra<'overage_cap_reached'>) =>
  new AppError(
    'overage_cap_reached',
    "This screening's price would take the month's overage past the account's cap; a billing admin can raise it in the console.",
    extra,
  );
export const forbidden = (message: string) => new AppError('forbidden', message);
/**
 * A key holding none of the scopes a route accepts. `missingScope` stays the first of them (the one
 * a single-scope route needs); `acceptedScopes` and the message name every one that would do.
 */
export const missingScope = (...accepted: [Scope, ...Scope[]]) => {
  const quoted = accepted.map((scope) => `"${scope}"`);
  const message =
    quoted.length === 1
      ? `This key lacks the scope ${quoted[0]} that this route needs.`
      : `This key lacks a scope this route accepts: one of ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}.`;
  return new AppError('forbidden', message, { missingScope: accepted[0], acceptedScopes: [...accepted] });
};

// 404
export const notFound = (what: string) => new AppError('not_found', `${what} was not found.`);
export const noRoute = (method: string, path: string) =>
  new AppError('not_found', `No route ${method} ${path}.`);

// 409
export const conflict = (message: string, extra: ErrorExtra<'conflict'> = {}) =>
  new AppError('conflict', message, extra);
export const expiredNeedsPublish = () =>
  conflict(
    'The job has expired: a new expiresAt cannot reopen it. Publish it again with POST /v1/jobs/{jobId}/publish (it comes back unmanaged, expiry chosen by expiryDays); edit expiresAt after that.',
    { field: 'expiresAt' },
  );
export const jobNotOpen = (status: ErrorExtra<'job_not_open'>['status']) =>
  new AppError('job_not_open', `The job is ${status}; only a published job takes applications.`, {
    status,
  });
export const managedAdLocked = (fields: ErrorExtra<'managed_ad_locked'>['fields']) =>
  new AppError(
    'managed_ad_locked',
    `This ad is managed: ${fields.join(' and ')} cannot change while it is.`,
    {
      fields,
    },
  );
export const companyAddressRequired = () =>
  new AppError(
    'company_address_required',
    'Choose a company address in the account console first, then publish again with a new Idempotency-Key.',
  );
export const adNotManaged = () =>
  new AppError('ad_not_managed', 'Only a managed, published ad can screen candidates.');
export const priceUnavailable = () =>
  new AppError('price_unavailable', "The template's price cannot be read; the screening was not sent.");
export const dpaRequired = () =>
  new AppError(
    'dpa_required',
    'A key with applications:write can be minted only after an account admin accepts the data-processing addendum: in the console under Settings (/console/settings), or PATCH /console/v1/accounts/{accountId} with {"dpaAccepted": true} (npm run console -- account:dpa <accountId>).',
  );
export const noSlotAvailable = (slots: number) =>
  new AppError('no_slot_available', `Every one of the account's ${slots} managed-ad slots is taken.`);

// 413, 415
export const payloadTooLarge = () =>
  new AppError('payload_too_large', 'The request body is larger than the service accepts (1 MiB).');
export const unsupportedMediaType = (message: string) => new AppError('unsupported_media_type', message);

// 422
export const notPublishable = (missing: ErrorExtra<'not_publishable'>['missing']) =>
  new AppError('not_publishable', `The job cannot be published without ${missing.join(', ')}.`, { missing });
/** `field` is the receipt's own field name; the error names it as `consent.<field>`. */
export const consentInvalid = (field: string, why: string) =>
  new AppError('consent_invalid', `consent.${field} ${why}.`, { field: `consent.${field}` });
export const attestationRequired = () =>
  new AppError(
    'attestation_required',
    'lawfulBasis.attested must be true: the account attests its lawful basis.',
  );
export const answersInvalid = (fields: ErrorExtra<'answers_invalid'>['fields']) =>
  new AppError(
    'answers_invalid',
    `${fields.length === 1 ? '1 answer is' : `${fields.length} answers are`} refused; see fields.`,
    { fields },
  );
export const cvRejected = (reason: CvRejectReason, words: { detail: string; fix: string }) =>
  new AppError('cv_rejected', `The CV was refused: ${reason}.`, { reason, ...words });

// 429
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', message, {}, retryAfterSeconds);
/** `what` names the budget: "applications" or "candidate imports". */
export const dailyCapReached = (what: string, budget: number, day: { end: Date; secondsLeft: number }) =>
  new AppError(
    'daily_cap_reached',
    `The account's daily budget of ${budget} ${what} is spent; it resets at midnight UTC.`,
    { resetsAt: day.end.toISOString() },
    day.secondsLeft,
  );
export const unsolicitedContactLimit = (contacts: number, limit: number, retryAfterSeconds: number) =>
  new AppError(
    'unsolicited_contact_limit',
    `This person did not apply to the role and was already contacted ${contacts} times in the last seven days (limit ${limit}).`,
    { limit },
    retryAfterSeconds,
  );

// 408
export const requestTimeout = (what: 'body' | 'headers', ms: number) =>
  new AppError(
    'request_timeout',
    `The request ${what} did not arrive within ${ms} ms; the connection is closed.`,
  );

// 431, 500, 503
export const headerTooLarge = (maxBytes: number) =>
  new AppError('header_too_large', `Request headers are larger than ${maxBytes} bytes.`);
export const internal = (message = 'Something went wrong on our side. Quote the requestId to support.') =>
  new AppError('internal', message);
export const unavailable = (message: string, retryAfterSeconds?: number) =>
  new AppError('unavailable', message, {}, retryAfterSeconds);

/** The codes that carry nothing beyond their message, by status: what Fastify's own 4xx become. */
const PLAIN_BY_STATUS = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'header_too_large',
} as const satisfies Record<number, ErrorCode>;

/** A refusal that only has an HTTP status (Fastify's own 4xx); a status without a plain code is 400. */
export function errorForStatus(status: number, message: string): AppError {
  const code = PLAIN_BY_STATUS[status as keyof typeof PLAIN_BY_STATUS] ?? 'bad_request';
  return new AppError(code, message);
}
export const matchingDisabled = () =>
  new AppError(
    'matching_disabled',
    'Automated matching is switched off for this account; an account admin switches it on in the console.',
  );
export const adNotManagedForMatches = () =>
  new AppError(
    'ad_not_managed',
    'Only a managed, published ad has matches; manage the ad in the console first.',
  );
