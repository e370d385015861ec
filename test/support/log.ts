// A log destination for a test app: every line written to it, kept to be read by the test.
import { Writable } from 'node:stream';

export function captureLog() {
  /** The lines as written (one JSON object each); clear with `lines.length = 0`. */
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  /** The lines written so far, parsed. */
  const records = <T = Record<string, unknown>>(): T[] => lines.map((line) => JSON.parse(line) as T);
  return { stream, lines, records };
}
