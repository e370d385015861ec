// Decompression pre-scan, run in the service's own process before a PDF reaches pdf.js.
//
// pdf.js grows its decode buffers without any bound (a 4 KB file reached 4.6 GB of RSS here), so
// every stream pdf.js may decode for text extraction (page contents, forms, fonts, object streams)
// is inflated first, chunk by chunk, and only counted. Once the total passes the budget the file
// is refused. Image streams are skipped: pdf.js does not decode images to extract text (the
// parser child runs with maxImageSize 1), and a flat background picture legitimately inflates a
// thousandfold. What this cannot see (streams encrypted with an owner password, filters it does
// not know, a bomb mislabelled as an image) is left to the parser child's memory limit.
//
// The file is read whole (it is at most the size limit, checked before), but decoded output is
// not kept: large streams are inflated in 256 KiB chunks, small ones in one go capped at 1 MiB, so
// memory stays at a few MiB whatever a stream claims to expand to. All inflation runs on libuv's
// thread pool, and the synchronous scanning between streams yields to the event loop every few
// milliseconds.

import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import {
  ascii85Decode,
  asciiHexDecode,
  type Chunks,
  flateDecode,
  lzwDecode,
  runLengthDecode,
} from './decoders.ts';
import { isContentStream, OperatorCounter } from './operator-count.ts';
import { countPageObjects } from './page-count.ts';
import { findDictionaryStart, isWhiteSpace, type PdfValue, parseDictionary } from './pdf-syntax.ts';

export interface PrescanLimits {
  /** Total bytes all decoded streams may add up to. */
  maxInflatedBytes: number;
  /** Wall-clock limit for the whole scan. */
  deadlineMs: number;
  /** Refuse when the file writes more page objects than this in plain sight (see page-count.ts). */
  maxPageObjects?: number;
  /** Refuse when page content and form streams hold more operators than this (operator-count.ts). */
  maxOperators?: number;
}

export type PrescanResult =
  | {
      ok: true;
      streams: number;
      decodedStreams: number;
      inflatedBytes: number;
      operators: number;
      ms: number;
    }
  | {
      ok: false;
      cause: 'inflate_cap' | 'deadline' | 'too_many_pages' | 'operators';
      inflatedBytes: number;
      ms: number;
    };

type Filter =
  | { kind: 'flate' }
  | { kind: 'lzw'; earlyChange: number }
  | { kind: 'runlength' }
  | { kind: 'asciihex' }
  | { kind: 'ascii85' };

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');
const DICT_WINDOW = 64 * 1024;
const FEED_CHUNK = 64 * 1024;
const SYNC_SLICE_MS = 4;
const SMALL_INPUT = 64 * 1024;
const SMALL_OUTPUT = 1024 * 1024;
const SMALL_CONCURRENCY = 4;

const inflateAsync = promisify(inflate);

class BudgetExceeded extends Error {}
class TooManyOperators extends Error {}
class DeadlineExceeded extends Error {}

/** Scans the PDF at a path, or its bytes when the caller already holds them. */
export async function prescanPdf(file: string | Uint8Array, limits: PrescanLimits): Promise<PrescanResult> {
  const started = performance.now();
  const data =
    typeof file === 'string'
      ? await readFile(file)
      : Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (
    limits.maxPageObjects !== undefined &&
    countPageObjects(data, limits.maxPageObjects) > limits.maxPageObjects
  ) {
    return { ok: false, cause: 'too_many_pages', inflatedBytes: 0, ms: performance.now() - started };
  }
  const scan = new StreamScan(limits, started);
  try {
    await scan.run(data);
  } catch (error) {
    const { inflatedBytes } = scan;
    const ms = performance.now() - started;
    if (error instanceof BudgetExceeded) return { ok: false, cause: 'inflate_cap', inflatedBytes, ms };
    if (error instanceof DeadlineExceeded) return { ok: false, cause: 'deadline', inflatedBytes, ms };
    if (error instanceof TooManyOperators) return { ok: false, cause: 'operators', inflatedBytes, ms };
    throw error;
  }
  const { streams, decodedStreams, inflatedBytes, operators } = scan;
  return { ok: true, streams, decodedStreams, inflatedBytes, operators, ms: performance.now() - started };
}

/**
 * One scan's walk over the file's streams: each decodable stream inflated and counted against the
 * budget (small flate streams a few at a time on the thread pool, the rest chunk by chunk), the
 * operators of content streams counted, the deadline checked between chunks.
 */
class StreamScan {
  streams = 0;
  decodedStreams = 0;
  inflatedBytes = 0;
  /** One counter per stream, one total. */
  operators = 0;
  readonly #limits: PrescanLimits;
  readonly #started: number;
  readonly #maxOperators: number;
  readonly #inFlight = new Set<Promise<void>>();
  #failure: Error | undefined;
  #sliceStarted = performance.now();

  constructor(limits: PrescanLimits, started: number) {
    this.#limits = limits;
    this.#started = started;
    this.#maxOperators = limits.maxOperators ?? Number.POSITIVE_INFINITY;
  }

  /** Walks every stream; on a refusal, waits for the small decodes in flight before throwing. */
  async run(data: Buffer): Promise<void> {
    try {
      for (const stream of findStreams(data)) {
        this.streams++;
        if (performance.now() - this.#sliceStarted > SYNC_SLICE_MS) {
          await yieldToEventLoop();
          this.#sliceStarted = performance.now();
        }
        this.#checkpoint();
        // A decode awaited the thread pool, so the event loop ran: the slice starts again.
        if (await this.#scanStream(data, stream)) this.#sliceStarted = performance.now();
      }
      await Promise.all(this.#inFlight);
      this.#checkpoint();
    } catch (error) {
      await Promise.all(this.#inFlight);
      throw error;
    }
  }

  /** Counts one stream; answers whether it was decoded (false: counted as it stands, or left). */
  async #scanStream(data: Buffer, stream: StreamSpan): Promise<boolean> {
    const filters = decodableFilters(stream.dict, data, stream.start, stream.end);
    const bytes = data.subarray(stream.start, stream.end);
    const content = isContentStream(stream.dict);
    if (filters.length === 0) {
      // Unfiltered content is counted as it stands; a filter we cannot decode is left to pdf.js.
      if (content && !stream.dict?.has('Filter') && !stream.dict?.has('F'))
        this.#countOperators(new OperatorCounter(), bytes, true);
      return false;
    }
    this.decodedStreams++;
    if (filters.length === 1 && filters[0]!.kind === 'flate' && bytes.length <= SMALL_INPUT) {
      const task: Promise<void> = this.#decodeSmallFlate(bytes, content)
        .catch((error: Error) => {
          this.#failure ??= error;
        })
        .finally(() => this.#inFlight.delete(task));
      this.#inFlight.add(task);
      if (this.#inFlight.size >= SMALL_CONCURRENCY) await Promise.race(this.#inFlight);
    } else {
      await this.#decodeStreaming(bytes, filters, content);
    }
    return true;
  }

  #countOperators(counter: OperatorCounter, bytes: Uint8Array, last: boolean): void {
    const before = counter.count;
    counter.feed(bytes);
    if (last) counter.end();
    this.operators += counter.count - before;
    if (this.operators > this.#maxOperators) throw new TooManyOperators();
  }

  #spend(bytes: number): void {
    this.inflatedBytes += bytes;
    if (this.inflatedBytes > this.#limits.maxInflatedBytes) throw new BudgetExceeded();
  }

  #checkpoint(): void {
    if (this.#failure) throw this.#failure;
    if (performance.now() - this.#started > this.#limits.deadlineMs) throw new DeadlineExceeded();
  }

  async *#counted(source: Chunks): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      this.#spend(chunk.length);
      yield chunk;
    }
  }

  async #decodeStreaming(bytes: Uint8Array, filters: Filter[], content: boolean): Promise<void> {
    let chunks: Chunks = slices(bytes);
    for (const filter of filters) chunks = this.#counted(decoderFor(filter, chunks));
    const counter = new OperatorCounter();
    for await (const chunk of chunks) {
      if (content) this.#countOperators(counter, chunk, false);
      this.#checkpoint();
    }
    if (content) this.#countOperators(counter, new Uint8Array(0), true);
  }

  // One thread-pool round trip per stream instead of a stream pipeline, a few at a time: a file
  // with 10,000 page streams scans in 0.8 s instead of 2.2 s. The output is capped, so at most
  // SMALL_CONCURRENCY x SMALL_OUTPUT bytes are ever held.
  async #decodeSmallFlate(bytes: Uint8Array, content: boolean): Promise<void> {
    const remaining = this.#limits.maxInflatedBytes - this.inflatedBytes;
    try {
      const out = await inflateAsync(bytes, {
        maxOutputLength: Math.max(1, Math.min(SMALL_OUTPUT, remaining + 1)),
      });
      this.#spend(out.length);
      if (content) this.#countOperators(new OperatorCounter(), out, true);
      return;
    } catch (error) {
      if (error instanceof BudgetExceeded || error instanceof TooManyOperators) throw error;
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' && remaining < SMALL_OUTPUT) {
        throw new BudgetExceeded();
      }
      // Larger than the one-shot cap, or damaged: the streaming path counts what pdf.js would get.
    }
    await this.#decodeStreaming(bytes, [{ kind: 'flate' }], content);
  }
}

async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += FEED_CHUNK) yield bytes.subarray(i, i + FEED_CHUNK);
}

function decoderFor(filter: Filter, source: Chunks): Chunks {
  switch (filter.kind) {
    case 'flate':
      return flateDecode(source);
    case 'lzw':
      return lzwDecode(source, filter.earlyChange);
    case 'runlength':
      return runLengthDecode(source);
    case 'asciihex':
      return asciiHexDecode(source);
    case 'ascii85':
      return ascii85Decode(source);
  }
}

interface StreamSpan {
  dict: Map<string, PdfValue> | undefined;
  start: number;
  end: number;
}

/** Yields each `stream … endstream` body with the dictionary before it, in file order. */
function* findStreams(data: Buffer): Generator<StreamSpan> {
  let pos = 0;
  for (;;) {
    const keyword = data.indexOf(STREAM, pos);
    if (keyword < 0) return;
    pos = keyword + STREAM.length;
    // The keyword follows a dictionary and is followed by an end of line; "endstream" and words
    // inside other streams fail one of the two tests.
    let close = keyword;
    while (close > 0 && isWhiteSpace(data[close - 1])) close--;
    if (data[close - 1] !== 0x3e || data[close - 2] !== 0x3e) continue;
    let start = pos;
    if (data[start] === 0x0d) start++;
    if (data[start] === 0x0a) start++;
    if (start === pos) continue;

    const open = findDictionaryStart(data, close, DICT_WINDOW);
    const dict = open >= 0 ? parseDictionary(data, open, close) : undefined;
    const end = streamEnd(data, start, dict);
    yield { dict, start, end };
    pos = end;
  }
}

// Trusts /Length only when "endstream" really follows it, as pdf.js does; otherwise searches.
function streamEnd(data: Buffer, start: number, dict: Map<string, PdfValue> | undefined): number {
  const length = dict?.get('Length');
  if (length?.kind === 'number' && Number.isInteger(length.value) && length.value >= 0) {
    const end = start + length.value;
    let after = end;
    while (after < data.length && isWhiteSpace(data[after])) after++;
    if (end <= data.length && data.subarray(after, after + ENDSTREAM.length).equals(ENDSTREAM)) return end;
  }
  const found = data.indexOf(ENDSTREAM, start);
  return found < 0 ? data.length : found;
}

const FILTER_NAMES: Record<string, Filter['kind']> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'runlength',
  RL: 'runlength',
  ASCIIHexDecode: 'asciihex',
  AHx: 'asciihex',
  ASCII85Decode: 'ascii85',
  A85: 'ascii85',
};

/**
 * The leading run of filters the pre-scan can decode. A chain stops at the first filter it does
 * not decode (image codecs, Crypt), since what follows would only be guessed.
 */
function decodableFilters(
  dict: Map<string, PdfValue> | undefined,
  data: Buffer,
  start: number,
  end: number,
): Filter[] {
  const subtype = dict?.get('Subtype');
  if (subtype?.kind === 'name' && subtype.value === 'Image') return [];
  // pdf.js looks up the abbreviations first (F before Filter, DP before DecodeParms); so do we.
  const declared = dict?.get('F') ?? dict?.get('Filter');
  let names: (string | undefined)[];
  if (declared?.kind === 'name') {
    names = [declared.value];
  } else if (declared?.kind === 'array') {
    names = declared.items.map((v) => (v.kind === 'name' ? v.value : undefined));
  } else if (declared === undefined && dict !== undefined) {
    return [];
  } else {
    // An indirect /Filter, or a dictionary we could not read: pdf.js only inflates data with a
    // valid zlib header, so a stream that has one is measured as Flate.
    return looksLikeZlib(data, start, end) ? [{ kind: 'flate' }] : [];
  }
  const params = decodeParms(dict);
  const filters: Filter[] = [];
  for (const [index, name] of names.entries()) {
    const kind = name === undefined ? undefined : FILTER_NAMES[name];
    if (kind === undefined) break;
    if (kind === 'lzw') {
      const early = params[index]?.get('EarlyChange');
      filters.push({ kind, earlyChange: early?.kind === 'number' && early.value === 0 ? 0 : 1 });
    } else {
      filters.push({ kind });
    }
  }
  // pdf.js refuses Flate data without a valid zlib header (so do encrypted streams look).
  if (filters[0]?.kind === 'flate' && !looksLikeZlib(data, start, end)) return [];
  return filters;
}

function decodeParms(dict: Map<string, PdfValue> | undefined): (Map<string, PdfValue> | undefined)[] {
  const value = dict?.get('DP') ?? dict?.get('DecodeParms');
  if (value?.kind === 'dict') return [value.entries];
  if (value?.kind === 'array') return value.items.map((v) => (v.kind === 'dict' ? v.entries : undefined));
  return [];
}

function looksLikeZlib(data: Buffer, start: number, end: number): boolean {
  if (end - start < 2) return false;
  const cmf = data[start]!;
  const flg = data[start + 1]!;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && (flg & 0x20) === 0;
}
