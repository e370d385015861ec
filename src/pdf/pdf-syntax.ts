// Just enough PDF object syntax to read a stream's dictionary (its filters, parameters, length and
// subtype) in the pre-scan. It never follows references and gives up on anything odd: the
// pre-scan is a cheap first line, the parser child's limits are the second.

export type PdfValue =
  | { kind: 'name'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'ref' }
  | { kind: 'array'; items: PdfValue[] }
  | { kind: 'dict'; entries: Map<string, PdfValue> }
  | { kind: 'other' };

const MAX_DEPTH = 16;

function isWhite(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;
}

function isDelimiter(b: number): boolean {
  // ( ) < > [ ] { } / %
  return (
    b === 0x28 ||
    b === 0x29 ||
    b === 0x3c ||
    b === 0x3e ||
    b === 0x5b ||
    b === 0x5d ||
    b === 0x7b ||
    b === 0x7d ||
    b === 0x2f ||
    b === 0x25
  );
}

/** Not white space and not a delimiter: ( ) < > [ ] { } / % */
export function isRegular(b: number): boolean {
  return !isWhite(b) && !isDelimiter(b);
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

class Parser {
  readonly buf: Uint8Array;
  readonly end: number;
  pos: number;

  constructor(buf: Uint8Array, start: number, end: number) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  skipWhiteAndComments(): void {
    const { buf, end } = this;
    while (this.pos < end) {
      const b = buf[this.pos]!;
      if (isWhite(b)) {
        this.pos++;
      } else if (b === 0x25) {
        while (this.pos < end && buf[this.pos] !== 0x0a && buf[this.pos] !== 0x0d) this.pos++;
      } else {
        return;
      }
    }
  }

  // Names are compared after #xx decoding, so /Fl#61teDecode cannot slip past as an unknown filter.
  readName(): string {
    const { buf, end } = this;
    this.pos++;
    let out = '';
    while (this.pos < end && isRegular(buf[this.pos]!)) {
      const b = buf[this.pos]!;
      if (b === 0x23 && this.pos + 2 < end) {
        const hi = hexValue(buf[this.pos + 1]!);
        const lo = hexValue(buf[this.pos + 2]!);
        if (hi >= 0 && lo >= 0) {
          out += String.fromCharCode(hi * 16 + lo);
          this.pos += 3;
          continue;
        }
      }
      out += String.fromCharCode(b);
      this.pos++;
    }
    return out;
  }

  readToken(): string {
    const start = this.pos;
    while (this.pos < this.end && isRegular(this.buf[this.pos]!)) this.pos++;
    return String.fromCharCode(...this.buf.subarray(start, this.pos));
  }

  skipLiteralString(): void {
    const { buf, end } = this;
    let depth = 0;
    while (this.pos < end) {
      const b = buf[this.pos++]!;
      if (b === 0x5c) this.pos++;
      else if (b === 0x28) depth++;
      else if (b === 0x29 && --depth === 0) return;
    }
  }

  parseValue(depth: number): PdfValue | undefined {
    if (depth > MAX_DEPTH) return undefined;
    this.skipWhiteAndComments();
    if (this.pos >= this.end) return undefined;
    const b = this.buf[this.pos]!;
    if (b === 0x2f) return { kind: 'name', value: this.readName() };
    if (b === 0x3c && this.buf[this.pos + 1] === 0x3c) return this.parseDict(depth);
    if (b === 0x3c) {
      const close = this.buf.indexOf(0x3e, this.pos);
      if (close < 0 || close >= this.end) return undefined;
      this.pos = close + 1;
      return { kind: 'other' };
    }
    if (b === 0x28) {
      this.skipLiteralString();
      return { kind: 'other' };
    }
    if (b === 0x5b) return this.parseArray(depth);
    if (!isRegular(b)) return undefined;
    const token = this.readToken();
    const number = Number(token);
    if (token !== '' && Number.isFinite(number)) {
      // "12 0 R" is a reference; peek ahead without consuming anything else.
      const save = this.pos;
      this.skipWhiteAndComments();
      const generation = this.readToken();
      this.skipWhiteAndComments();
      if (/^\d+$/.test(token) && /^\d+$/.test(generation) && this.buf[this.pos] === 0x52) {
        this.pos++;
        return { kind: 'ref' };
      }
      this.pos = save;
      return { kind: 'number', value: number };
    }
    return { kind: 'other' };
  }

  parseArray(depth: number): PdfValue | undefined {
    this.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipWhiteAndComments();
      if (this.pos >= this.end) return undefined;
      if (this.buf[this.pos] === 0x5d) {
        this.pos++;
        return { kind: 'array', items };
      }
      const item = this.parseValue(depth + 1);
      if (!item) return undefined;
      items.push(item);
    }
  }

  parseDict(depth: number): PdfValue | undefined {
    this.pos += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipWhiteAndComments();
      if (this.pos >= this.end) return undefined;
      if (this.buf[this.pos] === 0x3e && this.buf[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return { kind: 'dict', entries };
      }
      if (this.buf[this.pos] !== 0x2f) return undefined;
      const key = this.readName();
      const value = this.parseValue(depth + 1);
      if (!value) return undefined;
      entries.set(key, value);
    }
  }
}

/** Parses the dictionary that starts at `start` (`<<`) and ends before `end`. */
export function parseDictionary(
  buf: Uint8Array,
  start: number,
  end: number,
): Map<string, PdfValue> | undefined {
  const value = new Parser(buf, start, end).parseValue(0);
  return value?.kind === 'dict' ? value.entries : undefined;
}

/**
 * Finds the `<<` that opens the dictionary closed by the `>>` ending at `closeEnd` (exclusive),
 * looking back at most `window` bytes. Literal strings containing `<<` or `>>` can fool it; the
 * caller then treats the stream as having an unknown filter.
 */
export function findDictionaryStart(buf: Uint8Array, closeEnd: number, window: number): number {
  const floor = Math.max(0, closeEnd - window);
  let depth = 0;
  for (let i = closeEnd - 2; i >= floor; i--) {
    if (buf[i] === 0x3e && buf[i + 1] === 0x3e) {
      depth++;
      i--;
    } else if (buf[i] === 0x3c && buf[i + 1] === 0x3c) {
      if (--depth === 0) return i;
      i--;
    }
  }
  return -1;
}

export function isWhiteSpace(b: number | undefined): boolean {
  return b !== undefined && isWhite(b);
}
