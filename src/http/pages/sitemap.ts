import type { Services } from '../../domain/services.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { Route } from '../types.ts';

const SITEMAP_MAX = 50_000;
const PAGE = 1000;
/** How long one built sitemap is served; the answer's cache-control says the same. */
export const SITEMAP_TTL_MS = 5 * 60_000;

async function buildSitemap(publicJobs: Services['publicJobs']): Promise<string> {
  const urls: SafeHtml[] = [];
  let cursor: string | null = null;
  do {
    const page = await publicJobs.feed(cursor, PAGE);
    if (page === null) break;
    for (const job of page.jobs) {
      if (job.url)
        urls.push(
          html`<url><loc>${job.url}</loc>${job.updatedAt && html`<lastmod>${job.updatedAt}</lastmod>`}</url>`,
        );
    }
    cursor = page.nextCursor;
  } while (cursor !== null && urls.length < SITEMAP_MAX);
  // The same escaping serves XML: element text and quoted attributes.
  return String(
    html`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.slice(0, SITEMAP_MAX)}</urlset>\n`,
  );
}

/**
 * GET /sitemap.xml: every live job page, built at most once per SITEMAP_TTL_MS per process and
 * shared by the requests meanwhile (concurrent ones wait for the same build), so an anonymous
 * request never costs the database more than nothing: the up to 50 feed queries of a build run
 * once per five minutes, whatever the traffic.
 */
export const sitemap: Route = (app, { services: { publicJobs, clock } }) => {
  let cached: { builtAtMs: number; xml: Promise<string> } | null = null;
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const now = clock.now().getTime();
    if (cached === null || now - cached.builtAtMs >= SITEMAP_TTL_MS) {
      const xml = buildSitemap(publicJobs);
      const entry = { builtAtMs: now, xml };
      cached = entry;
      // A failed build is not served to the next request.
      xml.catch(() => {
        if (cached === entry) cached = null;
      });
    }
    const body = await cached.xml;
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', `public, max-age=${SITEMAP_TTL_MS / 1000}`)
      .send(body);
  });
};
