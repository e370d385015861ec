/** What an email address is replaced with. */
export const SCRUBBED_EMAIL = '[email]';

/** The protocol's own bounds: a local part of 64 characters, a domain of 253. */
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

/** ASCII characters that end a local part: separators, quotes, brackets, URL punctuation. */
const NOT_LOCAL = new Set([...' \t\r\n@<>()[]{},;:"\'`\\=&?/#|'].map((c) => c.charCodeAt(0)));

function isLocal(code: number): boolean {
  if (code < 0x21 || code === 0x7f) return false;
  if (code < 0x80) return !NOT_LOCAL.has(code);
  return !isWideSpace(code);
}

/** A domain: letters, digits, dots and hyphens (any non-ASCII letter, for internationalised ones). */
function isDomain(code: number): boolean {
  if (code >= 0x80) return !isWideSpace(code);
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2e ||
    code === 0x2d
  );
}

function isWideSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Removes personal data that leaks into operational text — email addresses (an SMTP server names
 * the recipient it refused; a library echoes the address it could not parse). Used on what is
 * stored as a task's last error and on every log line.
 *
 * An explicit scan, not a regular expression: from each `@` it looks back at most 64 characters
 * and ahead at most 253, never past the previous match, so any text — a megabyte of letters, a
 * megabyte of `a@a@` — costs a bounded number of steps per character.
 */
export function scrubPersonalData(text: string): string {
  let at = text.indexOf('@');
  if (at === -1) return text;
  const parts: string[] = [];
  let copied = 0;
  while (at !== -1) {
    let start = at;
    while (start > copied && at - start < MAX_LOCAL && isLocal(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && end - at - 1 < MAX_DOMAIN && isDomain(text.charCodeAt(end))) end++;
    // A sentence's full stop or a dangling hyphen is not part of the domain.
    while (end > at + 1 && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x2d)) end--;
    if (start < at && end > at + 1) {
      parts.push(text.slice(copied, start), SCRUBBED_EMAIL);
      copied = end;
      at = text.indexOf('@', end);
    } else {
      at = text.indexOf('@', at + 1);
    }
  }
  parts.push(text.slice(copied));
  return parts.join('');
}
