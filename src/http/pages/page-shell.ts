import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from '../../lib/html.ts';

const CSP_BASE =
  "default-src 'none'; script-src 'self'; connect-src 'self' https:; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'";

/** Scripts only from this origin (none inline); inline styles; forms post back to this origin; never framed. */
export const PAGE_CSP = `${CSP_BASE}; frame-ancestors 'none'`;

/**
 * The page's framing headers: framed by nobody (CSP `frame-ancestors 'none'` and the older
 * `X-Frame-Options: DENY`), or, for an account's page, by the origins it lists (`embedOrigins`,
 * normalised by the account service, so each is an origin and nothing else). X-Frame-Options
 * cannot name origins, so it is left out then: browsers that know CSP ignore it anyway.
 */
export function framing(frameOrigins: readonly string[] = []): Record<string, string> {
  if (frameOrigins.length === 0) return { 'content-security-policy': PAGE_CSP, 'x-frame-options': 'DENY' };
  return { 'content-security-policy': `${CSP_BASE}; frame-ancestors ${frameOrigins.join(' ')}` };
}

const STYLE = html`<style>body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;margin:0;color:#1b1b1f;background:#f6f6f8}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem;overflow-wrap:anywhere}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:1rem 0 .25rem;color:#333}
section.cv{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem}dl.cv-contact{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem;margin:.5rem 0}dl.cv-contact dt{font-weight:600}dl.cv-contact dd{margin:0}ul.cv-links{list-style:none;margin:0;padding:0}@media (max-width:30rem){dl.cv-contact{grid-template-columns:minmax(0,1fr);gap:0}dl.cv-contact dd{margin-bottom:.4rem}}ul{padding-left:1.25rem}
.muted{color:#555}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin:1.5rem 0}
button{font:inherit;padding:.65rem 1.1rem;border-radius:6px;border:1px solid #1b1b1f;background:#1b1b1f;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#a40000;border-color:#a40000}button:focus-visible,a:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
a.button{display:inline-block;padding:.65rem 1.1rem;border-radius:6px;background:#1b1b1f;color:#fff;text-decoration:none;font-weight:600}
header.site{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}nav.langs a{margin-left:.5rem}
ul.facts{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem}.logo{max-height:48px;max-width:160px}
.description{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem}
label{display:block;font-weight:600;margin-top:1rem}input[type=text],input[type=email],input[type=tel],textarea{width:100%;box-sizing:border-box;font:inherit;padding:.5rem;border:1px solid #767676;border-radius:4px}
.error{color:#a40000;font-weight:600;margin:.25rem 0}.hint{color:#555;font-size:.95rem;margin:.25rem 0}.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.consent{background:#fff;border-left:4px solid #1b1b1f;padding:.75rem 1rem;margin:1.25rem 0}.alert{background:#fde8e8;border:1px solid #a40000;padding:.75rem 1rem;border-radius:6px}
li.job{background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;margin:.5rem 0;list-style:none}ul.joblist{padding:0}</style>`;

/**
 * One HTML page with the service's security headers; `body`, `head` and `before` are SafeHtml (a
 * template's output: a plain string does not compile). Pages are private (no-store, noindex)
 * unless the caller says they are public.
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  lang: string,
  title: string,
  body: SafeHtml,
  /** `before`: what comes before the page's main content, outside `<main>` (a site header and navigation). */
  options: {
    head?: SafeHtml;
    public?: boolean;
    before?: SafeHtml;
    /** The account's `embedOrigins`: who may frame this page (none: nobody). */
    frameOrigins?: readonly string[];
    /** A public page that search engines should still skip (the embedded copy of one). */
    noindex?: boolean;
  } = {},
): FastifyReply {
  const robots = (!options.public || options.noindex) && html`<meta name="robots" content="noindex">`;
  return reply
    .code(status)
    .headers(framing(options.frameOrigins))
    .header('referrer-policy', options.public ? 'strict-origin-when-cross-origin' : 'no-referrer')
    .header('cache-control', options.public ? 'public, max-age=60' : 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      String(
        html`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${robots}<title>${title}</title>${STYLE}${options.head}</head><body>${options.before}<main id="main">${body}</main></body></html>`,
      ),
    );
}
