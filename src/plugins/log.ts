import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { redactSecrets } from '../http/capability-urls.ts';
import { scrubPersonalData } from '../lib/scrub.ts';

/**
 * The logged request: the secrets and capabilities URLs carry (CAPABILITY_URLS: invitation and
 * claim tokens, upload ids and signatures, the hosted form's csrf) are dropped, the route's shape
 * kept. Console query strings carry what an operator searches by (a recipient's address, a name):
 * their values are dropped, their names kept. Neither the address nor the headers are kept.
 */
export function serializeRequest(req: { method: string; url: string }): { method: string; url: string } {
  let url = redactSecrets(req.url);
  const query = url.indexOf('?');
  if (query !== -1 && url.startsWith('/console')) {
    const names = url
      .slice(query + 1)
      .split('&')
      .filter(Boolean)
      .map((pair) => `${pair.split('=', 1)[0]!.slice(0, 100)}=[redacted]`);
    url = `${url.slice(0, query)}?${names.join('&')}`;
  }
  return { method: req.method, url };
}

/**
 * Every log line passes through redactSecrets and scrubPersonalData on its way out, whatever wrote
 * it (the request log, an error's message or stack naming a URL, an SMTP reply): the one rule for
 * secrets in URLs, then one bounded pass per line that holds an `@`.
 */
export function scrubbing(stream: pino.DestinationStream): pino.DestinationStream {
  return { write: (line: string) => stream.write(scrubPersonalData(redactSecrets(line))) };
}

let stdout: (pino.DestinationStream & { flushSync(): void }) | null = null;

// Lines are written in batches of at least this many bytes, or after FLUSH_MS, whichever is first.
const BATCH_BYTES = 8192;
const FLUSH_MS = 100;

/**
 * Standard output, written asynchronously and in batches: a synchronous write per line was a tenth
 * of the CPU of a loaded instance (issue 14's profile), and an asynchronous write per line still
 * 18 % of it under a flood of cheap requests. Lines gather until 8 KB are waiting (a few dozen
 * lines) or 100 ms have passed; what is buffered is flushed synchronously when the process exits,
 * so only a SIGKILL can lose the last 100 ms of lines.
 */
function asyncStdout() {
  if (stdout === null) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
    let waiting = false;
    setInterval(() => {
      if (!waiting) return;
      waiting = false;
      try {
        destination.flush();
      } catch {
        // Destroyed at exit: flushSync has written what was left.
      }
    }, FLUSH_MS).unref();
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // Nothing more can be done for a log line at exit.
      }
    });
    stdout = {
      write(line: string) {
        waiting = true;
        return destination.write(line);
      },
      flushSync: () => destination.flushSync(),
    };
  }
  return stdout;
}

/** The service's logger; `stream` (standard output by default) receives the scrubbed lines. */
export function loggerOptions(
  level: string,
  stream?: pino.DestinationStream,
): FastifyServerOptions['logger'] {
  return { level, serializers: { req: serializeRequest }, stream: scrubbing(stream ?? asyncStdout()) };
}

const unlogged = new WeakSet<FastifyRequest>();

/**
 * Leaves this request out of the request log: refusals answered from memory during a flood (a key
 * over its limit, an address over its failure budget) would otherwise cost more to log than to
 * answer. Whoever calls it logs the flood once instead; /metrics still counts every answer.
 */
export function leaveUnlogged(request: FastifyRequest): void {
  unlogged.add(request);
}

/**
 * One line per request, when it is answered, carrying the request id (as every line of the request
 * does), method, URL, status and time. Fastify's own logging writes two lines per request; one is
 * what an access log needs. The line is the one pino would write (same fields, same order), put
 * together here and handed to the logger's stream (scrubbing included): pino's serialising of the
 * object was a twentieth of a cheap request's CPU (issue 14).
 */
export function registerRequestLog(app: FastifyInstance): void {
  const root = app.log as unknown as pino.Logger;
  const internals = root as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as pino.DestinationStream;
  // The root logger's bindings as pino writes them: `,"pid":…,"hostname":"…"`.
  const bindings = internals[pino.symbols.chindingsSym] as string;
  app.addHook('onResponse', (request, reply, done) => {
    if (unlogged.has(request) || !root.isLevelEnabled('info')) return done();
    const { method, url } = serializeRequest(request);
    stream.write(
      `{"level":30,"time":${Date.now()}${bindings},"requestId":${JSON.stringify(request.id)},"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
    );
    done();
  });
}
