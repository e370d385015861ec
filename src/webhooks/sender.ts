import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { forbiddenClass } from './address-policy.ts';

/** Resolves a host name to its addresses (tests inject one; no real DNS there). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** What one attempt came to: the endpoint's status code, or why it was not reached or answered. */
export type SendOutcome = { statusCode: number; error: null } | { statusCode: number | null; error: string };

export interface SenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE: http and private addresses allowed (development and tests). */
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
  /** At most this much of the answer is read; the rest is never downloaded. */
  maxResponseBytes?: number;
}

export class RefusedDestination extends Error {}

/**
 * Checks a webhook URL before it is saved: its scheme, and an IP literal's class. A host name is
 * checked on every delivery, on the addresses it resolves to then.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a valid absolute URL.';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'url must use https.';
  if (url.username || url.password) return 'url must not carry credentials.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(host) !== 0) {
    const why = forbiddenClass(host);
    if (why) return `url points at a ${why} address; webhooks go to public addresses only.`;
  }
  if (!allowPrivate && /(^|\.)localhost\.?$/i.test(host)) return 'url points at a loopback address.';
  return null;
}

/**
 * Sends a webhook: resolve, check every address, connect to a checked one (the name kept for SNI,
 * the certificate and Host), no redirects, a deadline, and a bounded read of the answer.
 */
export function createWebhookSender(options: SenderOptions) {
  const resolve = options.resolve ?? systemResolver;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxResponseBytes = options.maxResponseBytes ?? 4096;
  const agents = {
    'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
    'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
  };

  async function destination(url: URL): Promise<Target> {
    const problem = checkWebhookUrl(url.href, options.allowPrivate);
    if (problem) throw new RefusedDestination(`refused: ${problem}`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const family = net.isIP(host);
    const addresses = family !== 0 ? [{ address: host, family }] : await resolve(host);
    if (addresses.length === 0) throw new RefusedDestination(`refused: ${host} has no address.`);
    if (!options.allowPrivate) {
      for (const { address } of addresses) {
        const why = forbiddenClass(address);
        if (why) throw new RefusedDestination(`refused: ${host} resolves to a ${why} address.`);
      }
    }
    return addresses[0]!;
  }

  /** POSTs `body` to the one checked address; the status line or why not, within `left` ms. */
  function post(url: URL, target: Target, headers: Record<string, string>, body: string, left: number) {
    const transport = url.protocol === 'https:' ? https : http;
    const agent = agents[url.protocol as 'https:' | 'http:'];
    return new Promise<SendOutcome>((done) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        done(outcome);
      };
      const request = transport.request(url, requestOptions(agent, target, headers, body), (response) => {
        // The status line is the answer; the body is drained up to a few KB, then cut.
        finish(outcomeOf(response.statusCode ?? 0));
        drainBounded(response, maxResponseBytes);
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish({ statusCode: null, error: `no answer within ${timeoutMs / 1000} s` });
      }, left);
      request.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, error: `could not deliver: ${error.code ?? error.message}` });
      });
      request.end(body);
    });
  }

  return {
    /** Resolves and checks the destination, then posts to it, both within the one deadline. */
    async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
      const url = new URL(rawUrl);
      const started = Date.now();
      let target: Target;
      try {
        target = await withDeadline(destination(url), timeoutMs, 'resolving the host');
      } catch (error) {
        return { statusCode: null, error: (error as Error).message };
      }
      return post(url, target, headers, body, Math.max(1, timeoutMs - (Date.now() - started)));
    },
    close(): void {
      agents['https:'].destroy();
      agents['http:'].destroy();
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

type Target = { address: string; family: number };

function requestOptions(
  agent: http.Agent,
  target: Target,
  headers: Record<string, string>,
  body: string,
): http.RequestOptions {
  return {
    method: 'POST',
    agent,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'careers-webhooks/1',
    },
    // The one address that was checked is the one connected to.
    lookup: (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) callback(null, [target] as never);
      else callback(null, target.address, target.family);
    },
  };
}

function outcomeOf(statusCode: number): SendOutcome {
  return statusCode >= 200 && statusCode < 300
    ? { statusCode, error: null }
    : { statusCode, error: `answered ${statusCode}` };
}

/** Reads the answer's body away, destroying it past `maxBytes` or after 2 s. */
function drainBounded(response: http.IncomingMessage, maxBytes: number): void {
  let read = 0;
  const cut = setTimeout(() => response.destroy(), 2000).unref();
  response.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBytes) response.destroy();
  });
  response.on('error', () => undefined);
  response.on('close', () => clearTimeout(cut));
}

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s (${what})`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
