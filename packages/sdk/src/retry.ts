import { retryAfterSeconds } from './errors.ts';

export interface RetryOptions {
  /** Retries after the first attempt, for 429 and 503 answers (default 3). */
  retries: number;
  /** A Retry-After longer than this is not waited for: the answer is returned (default 60 s). */
  maxDelayMs: number;
  /** The wait without a Retry-After: 500 ms, doubling per attempt. */
  baseDelayMs: number;
  sleep: (ms: number) => Promise<void>;
}

const RETRIED = new Set([429, 503]);

/**
 * A fetch that retries 429 and 503 answers, waiting what Retry-After says. The request is sent
 * again as it was, headers included, so a POST keeps its Idempotency-Key and a retry whose first
 * attempt did go through is answered with the first answer (Idempotent-Replayed), never twice.
 */
export function retryingFetch(base: typeof fetch, options: RetryOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await base(request.clone());
      if (!RETRIED.has(response.status) || attempt >= options.retries) return response;
      const asked = retryAfterSeconds(response.headers.get('retry-after'));
      const delay = asked === undefined ? options.baseDelayMs * 2 ** attempt : asked * 1000;
      if (delay > options.maxDelayMs) return response;
      await response.body?.cancel();
      await options.sleep(delay);
    }
  };
}
