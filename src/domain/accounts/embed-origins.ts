import { EMBED_ORIGINS_MAX } from '../../contract/console.ts';
import { badRequest } from '../errors.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * One origin that may frame the hosted pages, normalised (`https://host[:port]`, lower case, no
 * default port), or null when it is not one: https, or http for localhost and 127.0.0.1 only
 * (development); no path, query, fragment, user or wildcard. It goes into a CSP header, so
 * nothing but an origin's own characters may pass.
 */
export function normaliseEmbedOrigin(input: string): string | null {
  const text = input.trim();
  if (!/^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?\/?$/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!url.hostname || url.hostname.startsWith('.') || url.hostname.endsWith('.')) return null;
  if (!url.hostname.includes('.') && !LOCAL_HOSTS.has(url.hostname)) return null;
  return url.origin;
}

/** The list as stored: each normalised, duplicates dropped; a 400 naming the first bad one. */
export function checkEmbedOrigins(list: readonly string[]): string[] {
  if (list.length > EMBED_ORIGINS_MAX)
    throw badRequest(`embedOrigins takes at most ${EMBED_ORIGINS_MAX} origins.`, { field: 'embedOrigins' });
  const out: string[] = [];
  for (const [i, input] of list.entries()) {
    const origin = normaliseEmbedOrigin(input);
    if (origin === null)
      throw badRequest(
        `embedOrigins[${i}] is not an origin: https://host[:port], or http:// for localhost and 127.0.0.1.`,
        { field: 'embedOrigins' },
      );
    if (!out.includes(origin)) out.push(origin);
  }
  return out;
}
