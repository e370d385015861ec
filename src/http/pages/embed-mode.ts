import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Text } from '../../contract/text.ts';
import { html, type SafeHtml } from '../../lib/html.ts';

/**
 * A hosted page shown inside the careers embed (`/embed/{company}.js`, extensions.md §9): compact,
 * themed with the host's accent, resizing its iframe through /assets/embed-frame.js, and every
 * link and form carrying `embed=1` (and the accent) so the next page stays in the same mode.
 */
export interface EmbedMode {
  /** Six hex digits, no `#`; null: the service's own colours. */
  accent: string | null;
}

/** The query parameters of a page in the embed (all pages that may be embedded accept them). */
export const EmbedQuery = {
  embed: Type.Optional(Text({ maxLength: 5 })),
  accent: Type.Optional(Text({ maxLength: 7 })),
};

/** A hex colour (`#abc`, `aabbcc`…) as six lower-case digits; null when it is not one. */
export function readAccent(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(value.trim());
  if (!m) return null;
  const hex = m[1]!.toLowerCase();
  return hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
}

/** The embed mode a request asks for (`embed=1`), or null for the page as anyone sees it. */
export function readEmbed(request: FastifyRequest): EmbedMode | null {
  const query = request.query as { embed?: unknown; accent?: unknown };
  return query.embed === '1' ? { accent: readAccent(query.accent) } : null;
}

/** The mode as query parameters (`embed=1&accent=…`), '' when not embedded. */
export function embedQuery(mode: EmbedMode | null): string {
  if (!mode) return '';
  return mode.accent ? `embed=1&accent=${mode.accent}` : 'embed=1';
}

/** The mode as hidden inputs of a GET form (a GET form's action loses its own query). */
export function embedInputs(mode: EmbedMode | null): SafeHtml | null {
  if (!mode) return null;
  return html`<input type="hidden" name="embed" value="1">${mode.accent && html`<input type="hidden" name="accent" value="${mode.accent}">`}`;
}

/** Black or white, whichever reads better on the accent (WCAG relative luminance). */
function textOn(accent: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(accent.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#fff' : '#000';
}

/**
 * The compact layout, the accent (validated hex only, so it cannot break out of the style), and
 * the script that reports the page's height to the host page.
 */
export function embedHead(mode: EmbedMode | null): SafeHtml | null {
  if (!mode) return null;
  const accent = mode.accent;
  const theme =
    accent &&
    `button,a.button{background:#${accent};border-color:#${accent};color:${textOn(accent)}}li.job{border-left:4px solid #${accent}}`;
  return html`<style>body{background:transparent}main{padding:.5rem .25rem;max-width:none}h1{font-size:1.25rem}form.filters{margin:.5rem 0}${theme}</style><script src="/assets/embed-frame.js" defer></script>`;
}
