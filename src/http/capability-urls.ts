import type { FastifyInstance } from 'fastify';

/**
 * Every part of a URL that carries a secret or a capability: whoever reads it can act as its
 * holder (set an invited user's password, claim or delete a candidate's CV, use an upload, send
 * the hosted form). The one declaration the log's redaction rule is compiled from (issue 25).
 *
 * `paths`: route patterns, each `:param` a secret segment (written `[param]` in the log); `*`
 * stands for a segment that is not secret. A pattern also covers what follows it (`/cv/:token`
 * covers `/cv/:token/claim`). `query`: parameter names whose values are secret, in any URL.
 *
 * A route whose path has a token-like parameter must be covered here, or the app does not start
 * (guardCapabilityRoutes): a new capability route cannot be forgotten.
 */
export const CAPABILITY_URLS = {
  paths: ['/console/invite/:token', '/console/reset/:token', '/cv/:token', '/uploads/:key'],
  // csrf: the hosted apply form's action; sig: the local store's presigned PUT; X-Amz-*: S3's;
  // shown: the one-time id of a console page showing a minted secret.
  query: ['csrf', 'sig', 'shown', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token'],
} as const;

/** A path parameter named like a secret: `token`, `key`, `inviteToken`, `apiKey`, `code`… */
const TOKEN_LIKE = /(?:token|key|secret|signature|sig|code|nonce|hash|password)$/i;

/** The characters that end a segment or a value in a URL or in the text around it (a JSON line). */
const VALUE = `[^/?#&;\\s"'\\\\<>]+`;

function escaped(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/**
 * A literal as written or, when `encoded`, also percent-encoded character by character (`cv` also
 * matches `c%76`, which the router decodes). The encoded form is only tried on text holding a `%`:
 * its alternations cost ten times the plain form's scan.
 */
function literal(text: string, encoded: boolean): string {
  if (!encoded) return escaped(text);
  return [...text].map((c) => `(?:${escaped(c)}|%${c.charCodeAt(0).toString(16)})`).join('');
}

interface PathRule {
  regex: RegExp;
  /** Per segment: the name written in place of a secret one, or null for a segment kept. */
  secrets: (string | null)[];
}

function pathRule(pattern: string, encoded: boolean): PathRule {
  const segments = pattern.split('/').filter(Boolean);
  const secrets = segments.map((s) => (s.startsWith(':') ? s.slice(1) : null));
  const source = segments
    .map((s) => (s.startsWith(':') || s === '*' ? `(\\/+${VALUE})` : `(\\/+${literal(s, encoded)})`))
    .join('');
  return { regex: new RegExp(source, encoded ? 'gi' : 'g'), secrets };
}

function queryRule(encoded: boolean): RegExp {
  const names = CAPABILITY_URLS.query.map((name) => literal(name, encoded)).join('|');
  return new RegExp(`([?&;](?:${names})=)${VALUE.replace('/?#', '#')}`, encoded ? 'gi' : 'g');
}

/**
 * Two forms of the rules: plain (as the service writes its links) and, for text holding a `%`,
 * one that also matches percent-encoded and differently cased names (the router decodes them).
 */
const RULES = [false, true].map((encoded) => ({
  paths: CAPABILITY_URLS.paths.map((pattern) => pathRule(pattern, encoded)),
  query: queryRule(encoded),
}));

/**
 * What any match needs: a `%`, the literal segment before a path's first secret, or a secret
 * query name. One scan that most log lines fail (~0.2 µs for a request line), where running every
 * rule cost ~2.5 µs a line.
 */
const MAYBE = new RegExp(
  [
    '%',
    ...CAPABILITY_URLS.paths.map((pattern) => {
      const segments = pattern.split('/').filter(Boolean);
      const first = segments.findIndex((s) => s.startsWith(':'));
      return `/${escaped(segments[first - 1] ?? '')}`;
    }),
    `[?&;](?:${CAPABILITY_URLS.query.map(escaped).join('|')})=`,
  ].join('|'),
);

/**
 * The text with every declared secret replaced: `/cv/<token>/claim` → `/cv/[token]/claim`,
 * `?csrf=<token>` → `?csrf=[redacted]`. Works on any text (a URL, a log line, an error message
 * naming a full URL); linear in the text's length (no pattern backtracks over a segment).
 */
export function redactSecrets(text: string): string {
  if (!MAYBE.test(text)) return text;
  const rules = RULES[text.includes('%') ? 1 : 0]!;
  let out = text;
  for (const rule of rules.paths) {
    out = out.replace(rule.regex, (...groups: string[]) =>
      rule.secrets
        .map((name, i) => {
          const part = groups[i + 1]!;
          return name === null ? part : `${/^\/+/.exec(part)![0]}[${name}]`;
        })
        .join(''),
    );
  }
  return out.replace(rules.query, '$1[redacted]');
}

/** Whether the declaration covers segment `index` of a route path as a secret. */
function covered(segments: string[], index: number): boolean {
  return CAPABILITY_URLS.paths.some((pattern) => {
    const declared = pattern.split('/').filter(Boolean);
    if (declared.length <= index || !declared[index]!.startsWith(':')) return false;
    return declared.every((d, i) => {
      const s = segments[i];
      if (s === undefined) return false;
      if (d.startsWith(':') || d === '*') return s.startsWith(':') || d === '*';
      return d === s;
    });
  });
}

/** The token-like parameters of a route path that the declaration does not cover. */
export function uncoveredParams(path: string): string[] {
  const segments = path.split('/').filter(Boolean);
  return segments.flatMap((segment, i) => {
    if (!segment.startsWith(':')) return [];
    const name = segment.slice(1).replace(/\(.*$/, '');
    return TOKEN_LIKE.test(name) && !covered(segments, i) ? [name] : [];
  });
}

const registered = new WeakMap<FastifyInstance, string[]>();

/**
 * Refuses (the app does not start) a route with a token-like path parameter the declaration does
 * not cover; keeps the paths registered, for the test that goes over them.
 */
export function guardCapabilityRoutes(app: FastifyInstance): void {
  const paths: string[] = [];
  registered.set(app, paths);
  app.addHook('onRoute', (route) => {
    paths.push(route.url);
    const missing = uncoveredParams(route.url);
    if (missing.length > 0) {
      throw new Error(
        `Route ${route.url}: parameter ${missing.join(', ')} looks like a secret but is not declared in CAPABILITY_URLS (src/http/capability-urls.ts), so it would be logged`,
      );
    }
  });
}

/** The paths registered on an app guarded by guardCapabilityRoutes. */
export function registeredPaths(app: FastifyInstance): string[] {
  return [...(registered.get(app) ?? [])];
}
