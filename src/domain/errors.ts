/**
 * The one catalogue of errors the service answers with. Each code has one HTTP status; the extra
 * fields a code carries are typed here and rendered beside `code`, `message` and `requestId`.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  upload_invalid: 400,
  unauthorized: 401,
  overage_cap_reached: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  job_not_open: 409,
  managed_ad_locked: 409,
  company_address_required: 409,
  ad_not_managed: 409,
  price_unavailable: 409,
  dpa_required: 409,
  no_slot_available: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_publishable: 422,
  consent_invalid: 422,
  attestation_required: 422,
  cv_rejected: 422,
  rate_limited: 429,
  daily_cap_reached: 429,
  unsolicited_contact_limit: 429,
  header_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorExtra = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorExtra;
  /** Seconds for a `Retry-After` header, where the code calls for one. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}, retryAfterSeconds?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.extra = extra;
    this.retryAfterSeconds = retryAfterSeconds;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} was not found.`);
export const badRequest = (message: string, extra: ErrorExtra = {}): AppError =>
  new AppError('bad_request', message, extra);
export const conflict = (message: string, extra: ErrorExtra = {}): AppError =>
  new AppError('conflict', message, extra);
