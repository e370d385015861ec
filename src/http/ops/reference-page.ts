import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { App, Route } from '../types.ts';

/**
 * The API reference at /v1/reference, rendered in the browser by Scalar from /v1/openapi.json.
 * Scalar's page and its bundle (~5 MB) come from its Fastify plugin, which is imported on the
 * first visit only (importing it costs ~0.6 s and ~35 MB that a service nobody reads the
 * reference of never pays): the plugin renders them once into a throwaway instance, and this
 * route serves the copies. The bundle's URL carries the package's version, so it is cached for a
 * year and an upgrade changes the URL. Nothing is fetched from a CDN; fonts are the system's.
 * The page runs under a Content-Security-Policy (`referenceCsp`) and may not be framed.
 */

const PLUGIN = '@scalar/fastify-api-reference';
const BUNDLE_PATH = '/v1/reference/js/scalar.js';

function pluginVersion(): string {
  const entry = fileURLToPath(import.meta.resolve(PLUGIN));
  const manifest = new URL('../package.json', `file://${entry}`);
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

interface Rendered {
  html: string;
  bundle: string;
  csp: string;
}

/**
 * The page's policy: scripts from the service and the page's own inline initialiser (by its hash,
 * so no other inline script runs), no eval; styles inline (Scalar sets them at run time); data:
 * and blob: images and fonts (icons, the document's download); fetches to the service and to the
 * document's servers (the "try it" client); nothing may frame it, no form posts, no base change.
 */
export function referenceCsp(html: string, apiOrigins: readonly string[]): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  const connect = [...new Set(["'self'", ...apiOrigins])];
  return [
    "default-src 'none'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origins of the document's `servers`: where the page's "try it" client sends requests. */
function serverOrigins(app: App): string[] {
  const servers = (app.swagger() as { servers?: { url: string }[] }).servers ?? [];
  return servers.flatMap(({ url }) => {
    try {
      const { origin } = new URL(url);
      return /^https?:/.test(origin) ? [origin] : [];
    } catch {
      return [];
    }
  });
}

async function render(version: string, title: string, apiOrigins: string[]): Promise<Rendered> {
  const { default: scalar } = await import(PLUGIN);
  const scratch = Fastify({ logger: false });
  try {
    await scratch.register(scalar, {
      routePrefix: '/reference',
      configuration: {
        url: '/v1/openapi.json',
        cdn: `${BUNDLE_PATH}?v=${version}`,
        pageTitle: title,
        withDefaultFonts: false,
        hideClientButton: false,
        telemetry: false,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
      },
    });
    await scratch.ready();
    const page = await scratch.inject({ method: 'GET', url: '/reference/' });
    const bundle = await scratch.inject({ method: 'GET', url: '/reference/js/scalar.js' });
    if (page.statusCode !== 200 || bundle.statusCode !== 200) throw new Error('the reference did not render');
    return { html: page.body, bundle: bundle.body, csp: referenceCsp(page.body, apiOrigins) };
  } finally {
    await scratch.close();
  }
}

export function registerReferencePage(app: App, title: string): void {
  const version = pluginVersion();
  let rendered: Promise<Rendered> | null = null;
  const once = () => {
    rendered ??= render(version, title, serverOrigins(app)).catch((error: unknown) => {
      rendered = null;
      throw error;
    });
    return rendered;
  };

  app.get('/v1/reference', { schema: { hide: true } }, async (_request, reply) => {
    const { html, csp } = await once();
    reply.header('cache-control', 'public, max-age=300');
    reply.header('content-security-policy', csp);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').send(html);
  });

  app.get(BUNDLE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const { bundle } = await once();
    const versioned = (request.query as { v?: string }).v === version;
    reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    return reply.type('application/javascript; charset=utf-8').send(bundle);
  });
}

/** GET /v1/reference and its script. */
export const referencePage: Route = (app) => registerReferencePage(app, 'Careers API reference');
