import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';

// Loaded on the first description sanitised, not at start (issue 14: ~35 ms and ~8 MB that a
// process serving only the API never needs). The package is CommonJS: required synchronously.
let sanitizer: typeof sanitizeHtml | null = null;
function sanitize(html: string, options: sanitizeHtml.IOptions): string {
  sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
  return sanitizer(html, options);
}

/**
 * The employer's rich-text description, reduced to an allow-list: structure and emphasis, and links
 * to http(s) and mailto only. No scripts, event handlers, styles, classes, iframes or images, so
 * nothing can run, track, or hide text from the candidate.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'ul',
    'ol',
    'li',
    'strong',
    'b',
    'em',
    'i',
    'u',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'a',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'template',
    'iframe',
    'object',
    'svg',
    'math',
  ],
  transformTags: {
    // A relative href would point into the careers service itself (e.g. another role's apply page).
    a: (tagName, { href }) => ({
      tagName,
      attribs: {
        ...(href !== undefined && /^\s*(https?:\/\/|mailto:)/i.test(href) ? { href } : {}),
        rel: 'nofollow noopener noreferrer ugc',
      },
    }),
    h1: 'h2',
  },
};

export function sanitizeDescription(html: string): string {
  return sanitize(html, OPTIONS);
}

/** The description as plain text (for meta descriptions). */
export function plainText(html: string): string {
  // Block ends become spaces first, so "services.</p><p>About" does not read "services.About".
  const spaced = html.replace(/<\/(?:p|li|h[1-6]|blockquote|div|ul|ol)\s*>|<br\s*\/?>/gi, ' ');
  return sanitize(spaced, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}
