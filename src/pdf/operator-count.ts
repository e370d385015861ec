// Pre-scan step: counts the operators of page content (and form XObject) streams as they are
// inflated. pdf.js walks every operator of a page twice (text, then fonts), so a 12 KB file with a
// million `(a) Tj` — well within the inflate budget — held a parser child for its whole deadline.
// A real CV page has a few hundred to a few thousand operators. The count is a tokenizer's
// approximation (strings, names, comments and hex strings skipped; a run of letters is one
// operator), exact for what pdf.js would execute except inside inline image data.

import { isRegular, type PdfValue } from './pdf-syntax.ts';

const State = { Normal: 0, Word: 1, String: 2, Comment: 3, Name: 4, Hex: 5 } as const;
type State = (typeof State)[keyof typeof State];

export class OperatorCounter {
  count = 0;
  #state: State = State.Normal;
  #depth = 0;
  #escape = false;

  feed(bytes: Uint8Array): void {
    let state = this.#state;
    let count = this.count;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      switch (state) {
        case State.Word:
          if (isRegular(b)) continue;
          count++;
          state = State.Normal;
          break;
        case State.String:
          if (this.#escape) this.#escape = false;
          else if (b === 0x5c) this.#escape = true;
          else if (b === 0x28) this.#depth++;
          else if (b === 0x29 && --this.#depth === 0) state = State.Normal;
          continue;
        case State.Comment:
          if (b === 0x0a || b === 0x0d) state = State.Normal;
          continue;
        case State.Name:
          if (isRegular(b)) continue;
          state = State.Normal;
          break;
        case State.Hex:
          // `>` ends a hex string; `<<` opened a dictionary instead.
          if (b === 0x3e || b === 0x3c) state = State.Normal;
          continue;
      }
      // Normal: what starts here?
      if (b === 0x28) {
        state = State.String;
        this.#depth = 1;
      } else if (b === 0x25) state = State.Comment;
      else if (b === 0x2f) state = State.Name;
      else if (b === 0x3c) state = State.Hex;
      else if (isLetter(b) || b === 0x27 || b === 0x22) state = State.Word;
    }
    this.#state = state;
    this.count = count;
  }

  /** A word still open at the end of the stream is an operator too. */
  end(): void {
    if (this.#state === State.Word) this.count++;
    this.#state = State.Normal;
    this.#depth = 0;
    this.#escape = false;
  }
}

function isLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

const NOT_CONTENT_KEYS = ['Length1', 'Length2', 'Length3', 'N', 'FunctionType', 'ShadingType', 'PatternType'];

/**
 * Page contents and form XObjects: no /Type (or /XObject), no /Subtype (or /Form), and none of the
 * keys of fonts, ICC profiles, functions, shadings or patterns. An unreadable dictionary is not
 * counted (the inflate budget still applies to it).
 */
export function isContentStream(dict: Map<string, PdfValue> | undefined): boolean {
  if (!dict) return false;
  const type = dict.get('Type');
  if (type && !(type.kind === 'name' && type.value === 'XObject')) return false;
  const subtype = dict.get('Subtype');
  if (subtype && !(subtype.kind === 'name' && subtype.value === 'Form')) return false;
  if (type && !subtype) return false;
  return !NOT_CONTENT_KEYS.some((key) => dict.has(key));
}
