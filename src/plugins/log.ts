import type { FastifyServerOptions } from 'fastify';

/**
 * The logged request: claim-link tokens and upload signatures are secrets carried in URLs, so the
 * logged URL keeps the route's shape and drops them. Neither the address nor the headers are kept.
 */
export function serializeRequest(req: { method: string; url: string }): { method: string; url: string } {
  const url = req.url
    .replace(/^\/cv\/[^/?]+/, '/cv/[token]')
    .replace(/^(\/uploads\/[^?]+)\?.*$/, '$1?[signature]');
  return { method: req.method, url };
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return { level, serializers: { req: serializeRequest } };
}
