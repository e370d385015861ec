import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ConnectionLimits } from '../config.ts';
import { requestTimeout, unavailable } from '../domain/errors.ts';
import { addressBucket } from '../lib/client-address.ts';
import { newId } from '../lib/ids.ts';
import { renderError } from './error-handler.ts';

/** The defaults config.ts gives (for an app built without a configuration: tests, tools). */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 15_000,
  uploadMinBytesPerSecond: 16_384,
  uploadMaxBytes: 10_485_760,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnectionsPerAddress: 64,
};

/** How often Node looks for requests past their headers or request timeout (its default is 30 s). */
const CHECK_INTERVAL_MS = 1_000;

/** The time a body of `bytes` may take: the body timeout, and for a CV PUT its bytes at the minimum rate. */
function bodyDeadlineMs(limits: ConnectionLimits, upload: boolean, bytes: number): number {
  if (!upload) return limits.bodyTimeoutMs;
  const declared = Math.min(Number.isFinite(bytes) ? bytes : limits.uploadMaxBytes, limits.uploadMaxBytes);
  return limits.bodyTimeoutMs + Math.ceil((declared / limits.uploadMinBytesPerSecond) * 1000);
}

/**
 * Node's own timeouts, as Fastify options. `requestTimeout` (headers and body) is the backstop,
 * set above the longest body deadline (a CV PUT of CV_MAX_BYTES); the body deadlines themselves
 * are kept per request (bodyDeadlines). `connectionTimeout` closes a socket idle that long.
 */
export function serverTimeouts(limits: ConnectionLimits): Partial<FastifyServerOptions> {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.headersTimeoutMs + bodyDeadlineMs(limits, true, Number.POSITIVE_INFINITY) + 5_000,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: CHECK_INTERVAL_MS },
  } as Partial<FastifyServerOptions>;
}

/**
 * Every request with a body must have received it within its deadline, counted from its headers:
 * HTTP_BODY_TIMEOUT_MS, and for the CV PUT (`/uploads/…`) that plus its declared bytes at
 * HTTP_UPLOAD_MIN_BYTES_PER_SECOND. Past it the request is answered 408 `request_timeout` and the
 * connection closed: a client that announces 100 bytes and sends 2 no longer holds a connection.
 */
export function registerBodyDeadlines(app: FastifyInstance, limits: ConnectionLimits): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const length = raw.headers['content-length'];
    const chunked = raw.headers['transfer-encoding'] !== undefined;
    if (raw.complete || (!chunked && (length === undefined || length === '0'))) return done();
    const upload = request.routeOptions.url === '/uploads/:key';
    const ms = bodyDeadlineMs(limits, upload, chunked ? Number.POSITIVE_INFINITY : Number(length));
    const timer = setTimeout(() => cutOff(request, reply, ms), ms);
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    reply.raw.once('close', clear);
    done();
  });
}

function cutOff(request: FastifyRequest, reply: FastifyReply, ms: number): void {
  if (request.raw.complete) return;
  const socket = request.raw.socket;
  request.log.info({ timeoutMs: ms }, 'request body too slow: answered 408, connection closed');
  if (reply.sent || reply.raw.headersSent) {
    socket.destroy();
    return;
  }
  // Answered here rather than through Fastify, which is still waiting for the body: the reply is
  // taken over so that nothing answers twice, and the socket closed once the answer is written.
  reply.hijack();
  const { statusCode, body } = renderError(requestTimeout('body', ms), request.id);
  reply.raw.writeHead(statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': request.id,
    connection: 'close',
  });
  reply.raw.end(body, () => socket.destroy());
}

/**
 * At most `max` open connections per client address (the socket's peer, counted as the
 * per-address limits count: IPv6 by its /64); 0 turns the cap off. A connection over it is
 * answered 503 and closed before any of its requests is read.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const bucket = addressBucket(socket.remoteAddress);
    const count = (open.get(bucket) ?? 0) + 1;
    if (count > max) {
      refuse(socket, max);
      return;
    }
    open.set(bucket, count);
    socket.once('close', () => {
      const left = (open.get(bucket) ?? 1) - 1;
      if (left <= 0) open.delete(bucket);
      else open.set(bucket, left);
    });
  });
}

function refuse(socket: Socket, max: number): void {
  // Nothing the connection sends is read: its requests never reach the app.
  socket.pause();
  const requestId = newId('req');
  const { statusCode, body } = renderError(
    unavailable(`This address already has ${max} open connections; close one and retry.`, 1),
    requestId,
  );
  socket.end(
    `HTTP/1.1 ${statusCode} Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  setTimeout(() => socket.destroy(), 1_000).unref();
}
