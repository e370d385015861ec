/**
 * HTML templates that escape every interpolation unless told otherwise (DESIGN.md "pages").
 *
 *   html`<p class="x">${text}</p>`   → a SafeHtml; `text` (a string, a number) is escaped
 *
 * What a template writes literally is trusted (it is this codebase's own markup); what it
 * interpolates is escaped, except a SafeHtml (another template's output), embedded as is. An array
 * embeds its items one after the other; null, undefined and false embed nothing (`cond && html`…``).
 * Attribute values are always written quoted in a template (`href="${url}"`): escaping `"` and `'`
 * is then all an attribute needs. A URL an attribute takes from data goes through `safeUrl`.
 *
 * The only ways to make a SafeHtml from other text are `unsafeRaw` (HTML sanitised elsewhere, e.g.
 * the job description from sanitize-html) and `jsonScript` (JSON-LD). test/html-escaping.test.ts
 * counts the callers of `unsafeRaw` and refuses markup built any other way.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values (module-private on purpose). */
function escapeText(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** How this module (and only it) makes a SafeHtml: set by the class's static block. */
let mint: (markup: string) => SafeHtml;
/** True only while `mint` constructs: `new SafeHtml(…)` from anywhere else throws. */
let minting = false;

/**
 * Markup that is safe to send: a template's output, or text made safe by this module. Nominal: a
 * string, or any object made elsewhere, is not one (the private field), and only this module can
 * construct one (the private constructor; `mint`).
 */
export class SafeHtml {
  readonly #html: string;
  private constructor(markup: string) {
    if (!minting) throw new TypeError('SafeHtml: made only by html`…` and the helpers of src/lib/html.ts');
    this.#html = markup;
  }
  static {
    mint = (markup) => {
      minting = true;
      try {
        return new SafeHtml(markup);
      } finally {
        minting = false;
      }
    };
  }
  toString(): string {
    return this.#html;
  }
  toJSON(): string {
    return this.#html;
  }
}

/** What a template may interpolate. `true` is not here: `cond && x` must not print "true". */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (typeof value === 'string') return escapeText(value);
  if (typeof value === 'number') return escapeText(String(value));
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  // Anything else (an object, `true`, a bigint, a function) is a mistake, not something to print.
  throw new TypeError(`html: cannot interpolate a ${typeof value}`);
}

/** The tagged template: literal parts as written, every interpolation escaped unless a SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return mint(out);
}

/** Text escaped as a SafeHtml (what `html\`${text}\`` gives). */
export function escaped(value: HtmlValue): SafeHtml {
  return mint(render(value));
}

/** Items embedded with `separator` between them (escaped unless a SafeHtml). */
export function joinHtml(items: readonly HtmlValue[], separator: HtmlValue): SafeHtml {
  const sep = render(separator);
  return mint(
    items
      .map(render)
      .filter((part) => part !== '')
      .join(sep),
  );
}

/**
 * Markup trusted as it is, unescaped: only for HTML already made safe elsewhere (sanitize-html's
 * output). Every caller is counted by test/html-escaping.test.ts.
 */
export function unsafeRaw(markup: string): SafeHtml {
  return mint(markup);
}

/**
 * A JSON-LD element: `<script type="application/ld+json">` with `value` as JSON in which no
 * string can close the element or open a comment (`<`, `>` and `&` as \u escapes) and U+2028/9
 * are escaped too.
 */
export function jsonScript(value: unknown): SafeHtml {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return mint(`<script type="application/ld+json">${json}</script>`);
}

const SAFE_SCHEME = /^(?:https?|mailto):/i;
/** A scheme is letters, digits, + - . before a colon that comes before any / ? or #. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * A URL for an href or src taken from data: http(s), mailto or a relative reference pass; any other
 * scheme (javascript:, data:, vbscript:…) becomes "#". Control characters and whitespace a browser
 * strips before reading the scheme (`java\tscript:`) are stripped here before it is judged too.
 * Interpolated into a quoted attribute, the answer is escaped as any text is.
 */
export function safeUrl(url: string | null | undefined): string {
  if (url === null || url === undefined) return '#';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a browser ignores these in a URL
  const judged = url.replace(/[\u0000-\u0020\u007f]+/g, '');
  if (HAS_SCHEME.test(judged) && !SAFE_SCHEME.test(judged)) return '#';
  return url;
}
