// Pre-scan step: counts the page objects a PDF declares in plain sight (`/Type /Page`, not
// `/Pages`), so that a 10,000-page file is refused as too long in a few milliseconds, before its
// streams are inflated and before a parser child is spent on it. Pages inside compressed object
// streams are not seen here; pdf.js still counts those from the page tree.

import { isWhiteSpace } from './pdf-syntax.ts';

const TYPE = Buffer.from('/Type');
const PAGE = Buffer.from('/Page');

/**
 * Page objects written uncompressed in the file (every revision counted: an upper bound). With
 * `stopAbove`, counting stops once the count passes it: the verdict is known, the rest unread.
 */
export function countPageObjects(data: Buffer, stopAbove = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let at = data.indexOf(TYPE); at >= 0; at = data.indexOf(TYPE, at + TYPE.length)) {
    let next = at + TYPE.length;
    while (next < data.length && (isWhiteSpace(data[next]) || data[next] === 0x25)) {
      // A comment between the key and the value runs to the end of the line.
      if (data[next] === 0x25)
        while (next < data.length && data[next] !== 0x0a && data[next] !== 0x0d) next++;
      else next++;
    }
    if (data.compare(PAGE, 0, PAGE.length, next, next + PAGE.length) !== 0) continue;
    if (!isRegular(data[next + PAGE.length]) && ++count > stopAbove) return count;
  }
  return count;
}

// A regular character continues the name (/Pages, /PageLabel); a delimiter or space ends it.
function isRegular(b: number | undefined): boolean {
  if (b === undefined || isWhiteSpace(b)) return false;
  return !'()<>[]{}/%'.includes(String.fromCharCode(b));
}
