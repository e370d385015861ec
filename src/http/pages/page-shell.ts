import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../lib/html.ts';

/** No scripts at all; inline styles only; forms post back to this origin. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;margin:0;color:#1b1b1f;background:#f6f6f8}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
section.cv{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem}ul{padding-left:1.25rem}
.muted{color:#555}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin:1.5rem 0}
button{font:inherit;padding:.65rem 1.1rem;border-radius:6px;border:1px solid #1b1b1f;background:#1b1b1f;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#a40000;border-color:#a40000}button:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}`;

/** One HTML page with the service's security headers; the body is already-escaped HTML. */
export function sendPage(
  reply: FastifyReply,
  status: number,
  lang: string,
  title: string,
  body: string,
): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', PAGE_CSP)
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`,
    );
}
