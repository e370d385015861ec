import type { components } from './schema.ts';

type Schemas = components['schemas'];

/** The `error` object of every code the API answers, discriminated on `code`. */
export type ApiErrorObject = Schemas[Extract<keyof Schemas, `${string}Error`>];
/** Every error code of the API. */
export type ApiErrorCode = ApiErrorObject['code'];
/** The `error` object of one code, with that code's extra fields (`reason`, `resetsAt`, …). */
export type ApiErrorOf<C extends ApiErrorCode> = Extract<ApiErrorObject, { code: C }>;

/**
 * A refusal of the API: `error` is the body's typed error object, so
 * `switch (err.error.code) { case 'cv_rejected': err.error.reason … }` narrows to the code's fields.
 */
export class CareersApiError extends Error {
  readonly status: number;
  readonly error: ApiErrorObject;
  /** The x-request-id of the answer: quote it to support. */
  readonly requestId: string;
  /** Seconds the service asked to wait (Retry-After), when it sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, error: ApiErrorObject, retryAfterSeconds: number | undefined) {
    super(`${status} ${error.code}: ${error.message}`);
    this.name = 'CareersApiError';
    this.status = status;
    this.error = error;
    this.requestId = error.requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Narrows to one code: `if (err.is('daily_cap_reached')) err.error.resetsAt`. */
  is<C extends ApiErrorCode>(code: C): this is CareersApiError & { error: ApiErrorOf<C> } {
    return this.error.code === code;
  }
}

/** Any failure that is not an API answer: network, a non-JSON body, a PUT refused by the store. */
export class CareersTransportError extends Error {
  readonly status: number | undefined;
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'CareersTransportError';
    this.status = options.status;
  }
}

/** Retry-After in seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The typed error of a refused answer's body, or a transport error when it is not the API's. */
export function errorFromAnswer(response: Response, body: unknown): CareersApiError | CareersTransportError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new CareersApiError(
      response.status,
      error as ApiErrorObject,
      retryAfterSeconds(response.headers.get('retry-after')),
    );
  }
  return new CareersTransportError(`${response.status} ${response.statusText}: not an API error body`, {
    status: response.status,
  });
}
