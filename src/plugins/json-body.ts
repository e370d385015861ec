import type { FastifyInstance } from 'fastify';
import { badRequest, unsupportedMediaType } from '../domain/errors.ts';

/**
 * The deepest nesting a JSON body may have. The deepest the API's own bodies go is four levels
 * (`answers[i].question`); a body nested deeper is a probe, and every recursive walk over it after
 * parsing (validation, the Idempotency-Key's canonical hash) would cost stack in proportion.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`: one pass over the characters,
 * no recursion, no allocation, strings skipped (a bracket inside a string does not count). It does
 * not check the text is JSON; the parser that runs after it does.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * JSON bodies: the size is bounded by the app's body limit (413 before anything is read past it);
 * the nesting is bounded here before the text is parsed, so no later walk over the value can
 * overflow the stack. Parsing itself is Fastify's (prototype poisoning refused).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      // The parser would read compressed bytes as text: refuse rather than answer a misleading 400.
      done(
        unsupportedMediaType('Content-Encoding is not supported: send the JSON body uncompressed.'),
        undefined,
      );
      return;
    }
    const text = body as string;
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        badRequest(`The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
