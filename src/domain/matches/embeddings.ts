// An optional embedding provider: one more score component (semantic similarity of the role's
// words and the CV's) when an operator configures one. Off by default: with no provider there is
// no network call and the ranking is exactly the lexical one (rank.ts).

/** Turns texts into vectors, in order; rejects on any failure (the caller falls back). */
export interface EmbeddingProvider {
  /** Names the vectors: a profile embedded by another model is embedded again. */
  readonly model: string;
  /** At most this many texts per call. */
  readonly batchSize: number;
  embed(texts: string[]): Promise<number[][]>;
}

export interface HttpEmbeddingOptions {
  /** The full address of an OpenAI-compatible embeddings endpoint (…/v1/embeddings). */
  url: string;
  model: string;
  apiKey?: string | null;
  /** Per call; past it the call is abandoned. */
  timeoutMs?: number;
  batchSize?: number;
  /** The most of an answer that is read (16 MB); past it the download stops and the call fails. */
  maxResponseBytes?: number;
}

/** Longest text sent for one item: a CV's words or a role's, cut well under providers' limits. */
export const MAX_TEXT_CHARS = 4_000;
/** Larger vectors are refused as malformed (the common models give 256 to 3,072 numbers). */
const MAX_DIMENSIONS = 8_192;
/** No more than this of an answer is read, whatever its headers say. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** How one provider call ended: answered with vectors, failed (refused, 5xx, malformed), or silent past the timeout. */
export type EmbeddingOutcome = 'ok' | 'error' | 'timeout';

export class EmbeddingError extends Error {
  override name = 'EmbeddingError';
  readonly outcome: Exclude<EmbeddingOutcome, 'ok'>;
  constructor(message: string, outcome: Exclude<EmbeddingOutcome, 'ok'> = 'error') {
    super(message);
    this.outcome = outcome;
  }
}

/**
 * Told of each provider call's outcome and of each generation that ranked lexically because of the
 * provider (metrics and the log). Never given a text, a vector or anything of a candidate: the
 * reason is the error's own words (`the provider answered 500`, `no answer within 5000 ms`).
 */
export interface EmbeddingObserver {
  call(outcome: EmbeddingOutcome): void;
  fallback(reason: string): void;
}

/** The provider over HTTP: POST { model, input: [...] } → { data: [{ index, embedding }] }. */
export function httpEmbeddings(options: HttpEmbeddingOptions): EmbeddingProvider {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const batchSize = options.batchSize ?? 32;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return {
    model: options.model,
    batchSize,
    async embed(texts: string[]): Promise<number[][]> {
      if (texts.length === 0) return [];
      if (texts.length > batchSize) throw new EmbeddingError(`more than ${batchSize} texts in one call`);
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model,
            input: texts.map((text) => text.slice(0, MAX_TEXT_CHARS)),
          }),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        throw timedOut
          ? new EmbeddingError(`no answer within ${timeoutMs} ms`, 'timeout')
          : new EmbeddingError('the provider could not be reached');
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new EmbeddingError(`the provider answered ${response.status}`);
      }
      let body: unknown;
      try {
        body = JSON.parse(await readCapped(response, maxBytes));
      } catch (error) {
        if (error instanceof EmbeddingError) throw error;
        // The timeout covers the body too: a provider that sends its headers and stalls is silent.
        if ((error as Error).name === 'TimeoutError')
          throw new EmbeddingError(`no answer within ${timeoutMs} ms`, 'timeout');
        throw new EmbeddingError('the answer is not JSON');
      }
      return vectorsOf(body, texts.length);
    },
  };
}

/**
 * The answer's text, read chunk by chunk and abandoned (the connection dropped) as soon as it passes
 * `maxBytes`: a declared length is only a reason to refuse sooner, never to trust the body.
 */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new EmbeddingError('the answer is too large');
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The vectors of an OpenAI-shaped answer, in input order; refuses anything malformed. */
export function vectorsOf(body: unknown, expected: number): number[][] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected)
    throw new EmbeddingError(`expected ${expected} embeddings in data`);
  const out: number[][] = new Array(expected);
  let dimensions = -1;
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    const vector = item?.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= expected || out[index] !== undefined)
      throw new EmbeddingError('embedding indexes do not match the input');
    if (!Array.isArray(vector) || vector.length === 0 || vector.length > MAX_DIMENSIONS)
      throw new EmbeddingError('an embedding is not a vector');
    if (dimensions !== -1 && vector.length !== dimensions)
      throw new EmbeddingError('embeddings differ in length');
    dimensions = vector.length;
    for (const value of vector)
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw new EmbeddingError('an embedding holds something other than numbers');
    out[index] = vector as number[];
  });
  return out;
}

/** Cosine similarity; 0 when either vector is empty, of another length, or all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
