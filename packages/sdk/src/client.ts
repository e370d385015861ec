import createClient, { type Client } from 'openapi-fetch';
import { CareersTransportError, errorFromAnswer } from './errors.ts';
import { retryingFetch } from './retry.ts';
import type {
  AuthoredJob,
  CreateApplicationRequest,
  CreateApplicationResponse,
  CreateCandidateRequest,
  CreateCandidateResponse,
  CreateJobRequest,
  CreateUploadResponse,
  EditJobRequest,
  GetApplicationResponse,
  GetConsentTextResponse,
  ListJobsResponse,
  PublishJobRequest,
  PublishJobResponse,
  paths,
  TriggerScreeningRequest,
  TriggerScreeningResponse,
} from './schema.ts';

export interface CareersClientOptions {
  /** The service's address, e.g. `https://careers.example.com`. */
  baseUrl: string;
  /** An API key's secret; sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Retries of 429 and 503 answers (default 3); Retry-After is honoured. */
  retries?: number;
  /** Longest Retry-After worth waiting for, in ms (default 60 000); past it the error is thrown. */
  maxRetryDelayMs?: number;
  /** The Idempotency-Key of a POST that names none (default `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** Per call: the Idempotency-Key to send, to retry a call across process restarts with the same key. */
export interface WriteOptions {
  idempotencyKey?: string;
}

export type ListJobsQuery = NonNullable<paths['/v1/jobs']['get']['parameters']['query']>;
export type Locale = NonNullable<
  NonNullable<paths['/v1/consent-text']['get']['parameters']['query']>['locale']
>;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; a refusal becomes a typed CareersApiError. */
function unwrap<T>(answer: Answer<T>): T {
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  throw errorFromAnswer(answer.response, answer.error);
}

/**
 * The careers API's client: typed calls of the public API, an Idempotency-Key on every POST
 * (kept across retries), retries of 429 and 503 that honour Retry-After, the upload in one call,
 * and refusals thrown as `CareersApiError` to switch on. `raw` is the openapi-fetch client for
 * anything else.
 */
export function createCareersClient(options: CareersClientOptions) {
  const newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  const baseFetch = options.fetch ?? globalThis.fetch;
  const send = retryingFetch(baseFetch, {
    retries: options.retries ?? 3,
    maxDelayMs: options.maxRetryDelayMs ?? 60_000,
    baseDelayMs: 500,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  });
  const raw: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: send,
    headers: { authorization: `Bearer ${options.apiKey}` },
  });
  // A POST the caller sent without a key gets one, so its retries cannot act twice.
  raw.use({
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', newKey());
      }
      return request;
    },
  });
  const key = (write: WriteOptions | undefined) => ({ 'idempotency-key': write?.idempotencyKey ?? newKey() });

  const jobs = {
    list: async (query: ListJobsQuery = {}): Promise<ListJobsResponse> =>
      unwrap(await raw.GET('/v1/jobs', { params: { query } })),
    get: async (jobId: string) =>
      unwrap(await raw.GET('/v1/jobs/{jobId}', { params: { path: { jobId } } })).job,
    create: async (body: CreateJobRequest, write?: WriteOptions): Promise<AuthoredJob> =>
      unwrap(await raw.POST('/v1/jobs', { params: { header: key(write) }, body })).job,
    edit: async (jobId: string, body: EditJobRequest) =>
      unwrap(await raw.PATCH('/v1/jobs/{jobId}', { params: { path: { jobId } }, body })),
    publish: async (
      jobId: string,
      body: PublishJobRequest = {},
      write?: WriteOptions,
    ): Promise<PublishJobResponse> =>
      unwrap(
        await raw.POST('/v1/jobs/{jobId}/publish', { params: { path: { jobId }, header: key(write) }, body }),
      ),
    close: async (jobId: string, write?: WriteOptions) =>
      unwrap(await raw.POST('/v1/jobs/{jobId}/close', { params: { path: { jobId }, header: key(write) } }))
        .job,
  };

  const uploads = {
    /** A presigned PUT slot for a file of `bytes` bytes. */
    createSlot: async (
      bytes: number,
      fileName?: string,
      write?: WriteOptions,
    ): Promise<CreateUploadResponse> =>
      unwrap(
        await raw.POST('/v1/uploads', {
          params: { header: key(write) },
          body: fileName === undefined ? { bytes } : { bytes, fileName },
        }),
      ),
    /** Slot → PUT of the PDF with the headers the URL is signed for → the `uploadId` to apply with. */
    upload: async (pdf: Uint8Array, fileName?: string): Promise<string> => {
      const slot = await uploads.createSlot(pdf.byteLength, fileName);
      const put = await baseFetch(slot.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': String(pdf.byteLength) },
        body: new Uint8Array(pdf),
      }).catch((cause: unknown) => {
        throw new CareersTransportError('The PUT of the file failed.', { cause });
      });
      if (!put.ok) {
        const body = await put.json().catch(() => undefined);
        throw errorFromAnswer(put, body);
      }
      await put.body?.cancel();
      return slot.uploadId;
    },
  };

  return {
    raw,
    jobs,
    uploads,
    consentText: async (locale?: Locale): Promise<GetConsentTextResponse> =>
      unwrap(
        await raw.GET('/v1/consent-text', { params: { query: locale === undefined ? {} : { locale } } }),
      ),
    applications: {
      create: async (
        jobId: string,
        body: CreateApplicationRequest,
        write?: WriteOptions,
      ): Promise<CreateApplicationResponse> =>
        unwrap(
          await raw.POST('/v1/jobs/{jobId}/applications', {
            params: { path: { jobId }, header: key(write) },
            body,
          }),
        ),
      /** The real call's checks (job, consent, attestation, answers, upload) without sending anything. */
      validate: async (jobId: string, body: CreateApplicationRequest) =>
        unwrap(
          await raw.POST('/v1/jobs/{jobId}/applications/validate', { params: { path: { jobId } }, body }),
        ),
      get: async (applicationId: string): Promise<GetApplicationResponse> =>
        unwrap(await raw.GET('/v1/applications/{applicationId}', { params: { path: { applicationId } } })),
    },
    candidates: {
      create: async (body: CreateCandidateRequest, write?: WriteOptions): Promise<CreateCandidateResponse> =>
        unwrap(await raw.POST('/v1/candidates', { params: { header: key(write) }, body })),
    },
    screening: {
      trigger: async (
        jobId: string,
        candidateId: string,
        body: TriggerScreeningRequest,
        write?: WriteOptions,
      ): Promise<TriggerScreeningResponse> =>
        unwrap(
          await raw.POST('/v1/jobs/{jobId}/candidates/{candidateId}/screening', {
            params: { path: { jobId, candidateId }, header: key(write) },
            body,
          }),
        ),
    },
    /**
     * Test keys only (`cak_test_…`; a live key gets 404): move a test job, CV or screening now, as
     * time, the candidate or the console would, with the events the real change emits.
     */
    test: {
      expireJob: async (jobId: string) =>
        unwrap(await raw.POST('/v1/test/jobs/{jobId}/expire', { params: { path: { jobId } } })).job,
      manageJob: async (jobId: string) =>
        unwrap(await raw.POST('/v1/test/jobs/{jobId}/manage', { params: { path: { jobId } } })),
      unmanageJob: async (jobId: string) =>
        unwrap(await raw.POST('/v1/test/jobs/{jobId}/unmanage', { params: { path: { jobId } } })),
      moveCv: async (
        applicationId: string,
        to: 'staged' | 'claimed' | 'deleted' | 'failed',
      ): Promise<GetApplicationResponse> =>
        unwrap(
          await raw.POST('/v1/test/applications/{applicationId}/cv', {
            params: { path: { applicationId } },
            body: { to },
          }),
        ),
      completeScreening: async (screeningId: string) =>
        unwrap(
          await raw.POST('/v1/test/screenings/{screeningId}/complete', { params: { path: { screeningId } } }),
        ).screening,
    },
  };
}

export type CareersClient = ReturnType<typeof createCareersClient>;
