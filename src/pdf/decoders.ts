// Streaming decoders for the PDF filters that can expand data, used by the pre-scan to measure
// how much a stream inflates to. Each takes and yields chunks lazily, so memory stays at a few
// chunks however large the output would be; the consumer stops pulling when its budget is spent.

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflate } from 'node:zlib';

export type Chunks = AsyncIterable<Uint8Array>;

// 256 KiB: a bomb is refused after a few chunks, and per-chunk overhead was most of its cost at 64 KiB.
const CHUNK = 256 * 1024;

export async function* flateDecode(source: Chunks): AsyncGenerator<Uint8Array> {
  const inflate = createInflate({ chunkSize: CHUNK });
  const feeding = pipeline(Readable.from(source, { objectMode: false }), inflate).catch(() => {});
  try {
    for await (const chunk of inflate) yield chunk as Buffer;
  } catch (error) {
    // Damaged or truncated data: pdf.js stops decoding at the same point, so counting stops too.
    // Anything else (the budget running out upstream) must reach the caller.
    if (!isZlibError(error)) throw error;
  } finally {
    inflate.destroy();
    await feeding;
  }
}

// LZW can expand ~2,700x, so input is fed in small slices to keep each yielded chunk small.
const LZW_SLICE = 256;

const LZW_CLEAR = 256;
const LZW_END = 257;
const LZW_TABLE_SIZE = 4096;

/** The codes of an LZW stream, most significant bit first, at the width the table says. */
class LzwCodeReader {
  #bits = 0;
  #bitCount = 0;

  push(byte: number): void {
    this.#bits = ((this.#bits << 8) | byte) >>> 0;
    this.#bitCount += 8;
  }

  /** The next code of `width` bits, or -1 until enough bits have come. */
  take(width: number): number {
    if (this.#bitCount < width) return -1;
    const code = (this.#bits >>> (this.#bitCount - width)) & ((1 << width) - 1);
    this.#bitCount -= width;
    this.#bits &= (1 << this.#bitCount) - 1;
    return code;
  }
}

/** LZWDecode's string table: codes 0–255 are the bytes, 256 clears, 257 ends, 258 on are learnt. */
class LzwTable {
  readonly #prefix = new Int16Array(LZW_TABLE_SIZE);
  readonly #suffix = new Uint8Array(LZW_TABLE_SIZE);
  readonly #length = new Uint16Array(LZW_TABLE_SIZE);
  readonly #scratch = new Uint8Array(LZW_TABLE_SIZE + 1);
  readonly #earlyChange: number;
  #next = 258;
  #previous = -1;
  /** The width of the next code, 9 to 12 bits. */
  width = 9;

  constructor(earlyChange: number) {
    this.#earlyChange = earlyChange;
    for (let i = 0; i < 256; i++) {
      this.#prefix[i] = -1;
      this.#suffix[i] = i;
      this.#length[i] = 1;
    }
  }

  clear(): void {
    this.#next = 258;
    this.width = 9;
    this.#previous = -1;
  }

  /**
   * The bytes `code` stands for, learning the entry it makes with the previous code; null where the
   * stream is invalid. A code one past the table (KwKwK) is the previous string plus its own first
   * byte; anything further is invalid, and pdf.js stops there too.
   */
  expand(code: number): Uint8Array | null {
    const known = code < this.#next;
    if (!known && (code !== this.#next || this.#previous < 0)) return null;
    const base = known ? code : this.#previous;
    const n = this.#length[base]!;
    for (let i = n - 1, c = base; i >= 0; i--) {
      this.#scratch[i] = this.#suffix[c]!;
      c = this.#prefix[c]!;
    }
    const firstOfEntry = this.#scratch[0]!;
    if (!known) this.#scratch[n] = firstOfEntry;
    const bytes = this.#scratch.slice(0, known ? n : n + 1);
    this.#learn(firstOfEntry);
    this.#previous = code;
    if (this.#next + this.#earlyChange >= 1 << this.width && this.width < 12) this.width++;
    return bytes;
  }

  /** The previous code's string plus `byte` becomes the next entry, while the table has room. */
  #learn(byte: number): void {
    const previous = this.#previous;
    if (previous < 0 || this.#next >= LZW_TABLE_SIZE) return;
    this.#prefix[this.#next] = previous;
    this.#suffix[this.#next] = byte;
    this.#length[this.#next] = this.#length[previous]! + 1;
    this.#next++;
  }
}

/** Decodes one slice of input into `out`; true when the stream ended (its end code, or invalid). */
function lzwDecodeSlice(
  slice: Uint8Array,
  reader: LzwCodeReader,
  table: LzwTable,
  out: Uint8Array[],
): boolean {
  for (const byte of slice) {
    reader.push(byte);
    for (let code = reader.take(table.width); code >= 0; code = reader.take(table.width)) {
      if (code === LZW_CLEAR) {
        table.clear();
        continue;
      }
      if (code === LZW_END) return true;
      const bytes = table.expand(code);
      if (bytes === null) return true;
      out.push(bytes);
    }
  }
  return false;
}

export async function* lzwDecode(source: Chunks, earlyChange: number): AsyncGenerator<Uint8Array> {
  const reader = new LzwCodeReader();
  const table = new LzwTable(earlyChange);
  for await (const input of source) {
    for (let sliceStart = 0; sliceStart < input.length; sliceStart += LZW_SLICE) {
      const out: Uint8Array[] = [];
      const ended = lzwDecodeSlice(input.subarray(sliceStart, sliceStart + LZW_SLICE), reader, table, out);
      if (out.length > 0) yield concat(out);
      if (ended) return;
    }
  }
}

export async function* runLengthDecode(source: Chunks): AsyncGenerator<Uint8Array> {
  let literal = 0; // bytes still to copy from a literal run
  let repeat = false; // the next byte is to be repeated `repeatCount` times
  let repeatCount = 0;
  for await (const input of source) {
    const out: Uint8Array[] = [];
    let i = 0;
    while (i < input.length) {
      if (literal > 0) {
        const take = Math.min(literal, input.length - i);
        out.push(input.slice(i, i + take));
        literal -= take;
        i += take;
      } else if (repeat) {
        out.push(new Uint8Array(repeatCount).fill(input[i]!));
        repeat = false;
        i++;
      } else {
        const n = input[i++]!;
        if (n === 128) {
          if (out.length > 0) yield concat(out);
          return;
        }
        if (n < 128) literal = n + 1;
        else {
          repeat = true;
          repeatCount = 257 - n;
        }
      }
    }
    if (out.length > 0) yield concat(out);
  }
}

export async function* asciiHexDecode(source: Chunks): AsyncGenerator<Uint8Array> {
  let high = -1;
  for await (const input of source) {
    const out = new Uint8Array(Math.ceil(input.length / 2));
    let n = 0;
    for (const b of input) {
      if (b === 0x3e) {
        if (high >= 0) out[n++] = high << 4;
        yield out.subarray(0, n);
        return;
      }
      const v = hex(b);
      if (v < 0) continue;
      if (high < 0) high = v;
      else {
        out[n++] = (high << 4) | v;
        high = -1;
      }
    }
    if (n > 0) yield out.subarray(0, n);
  }
}

export async function* ascii85Decode(source: Chunks): AsyncGenerator<Uint8Array> {
  let group = 0;
  let count = 0;
  for await (const input of source) {
    const out = new Uint8Array(input.length * 4 + 4);
    let n = 0;
    for (const b of input) {
      if (b === 0x7e) {
        if (count > 1) {
          for (let i = count; i < 5; i++) group = group * 85 + 84;
          for (let i = 0; i < count - 1; i++) out[n++] = (group >>> (24 - 8 * i)) & 0xff;
        }
        yield out.subarray(0, n);
        return;
      }
      if (b === 0x7a && count === 0) {
        n += 4; // 'z' stands for four zero bytes
        continue;
      }
      if (b < 0x21 || b > 0x75) continue;
      group = group * 85 + (b - 0x21);
      if (++count === 5) {
        out[n++] = (group >>> 24) & 0xff;
        out[n++] = (group >>> 16) & 0xff;
        out[n++] = (group >>> 8) & 0xff;
        out[n++] = group & 0xff;
        group = 0;
        count = 0;
      }
    }
    if (n > 0) yield out.subarray(0, n);
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

function hex(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
