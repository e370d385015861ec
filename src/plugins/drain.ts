import type { Socket } from 'node:net';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { unavailable } from '../domain/errors.ts';

/**
 * The HTTP drain on SIGTERM (issue 25, item 7): every request that reached the service before the
 * signal gets its real answer, and nothing that comes after it is served.
 *
 * Node's own `server.close()` destroys every connection idle at that moment, and a connection whose
 * first request is still unread in its buffer counts as idle: a request written before the signal
 * was reset. And closing the listener resets the connections the kernel has accepted but Node has
 * not yet taken from the backlog. So the drain:
 *  1. serves the FIRST request of every connection accepted before the listener closed, with
 *     `Connection: close` (it was sent before the signal, or at the same moment);
 *  2. answers a later request on a kept-alive connection 503 `unavailable` (a new request);
 *  3. closes the listener only once no connection has arrived for QUIET_MS (the kernel's backlog of
 *     connections made before the signal is taken first; closing it would reset them), judged
 *     after a poll phase: timers run before the loop polls, so a busy main thread would otherwise
 *     mistake a backlog it has not yet looked at for quiet;
 *  4. closes a kept-alive connection as soon as it is idle, and a connection that has sent nothing
 *     within FRESH_CONNECTION_WAIT_MS of the signal;
 *  5. resolves once no connection is left (the caller cuts the rest at the end of the grace).
 */
export const FRESH_CONNECTION_WAIT_MS = 1_000;
const SWEEP_MS = 50;
/** The listener closes once no connection has arrived for this long after the signal … */
const QUIET_MS = 100;
/** … and at the latest this long after it. */
const MAX_ACCEPT_MS = 1_000;

interface ConnectionState {
  /** Requests this connection has carried. */
  requests: number;
  /** Requests running on it now. */
  active: number;
}

export interface Drain {
  /** Stops accepting and resolves when every connection has closed. */
  start(): Promise<void>;
}

/** Resolves in the check phase, right after a poll phase: I/O ready before the call has been taken. */
function afterPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const drains = new WeakMap<FastifyInstance, Drain>();

/** The drain of an app built by buildApp. */
export function drainOf(app: FastifyInstance): Drain {
  const drain = drains.get(app);
  if (!drain) throw new Error('the app was not built with registerDrain');
  return drain;
}

export function registerDrain(app: FastifyInstance): Drain {
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;
  let lastAcceptAt = 0;
  app.server.on('connection', (socket: Socket) => {
    lastAcceptAt = Date.now();
    connections.set(socket, { requests: 0, active: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (request, response) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.requests += 1;
    state.active += 1;
    response.once('close', () => {
      state.active -= 1;
    });
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    reply.header('connection', 'close');
    const state = connections.get(request.raw.socket);
    if (state && state.requests > 1) {
      throw unavailable(
        'The service is shutting down; send the request again (another instance will answer).',
        1,
      );
    }
  });

  const drain: Drain = {
    async start() {
      draining = true;
      const since = Date.now();
      // The connections the kernel accepted before the signal are taken first: the listener closes
      // once no connection has come for QUIET_MS (at most MAX_ACCEPT_MS after the signal).
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 2));
        // Timers run before the loop polls for I/O: after the main thread was busy, a connection
        // waiting in the backlog would look like quiet. A poll phase runs before the next check.
        await afterPoll();
        const now = Date.now();
        const quiet = now - Math.max(since, lastAcceptAt) >= QUIET_MS;
        if (quiet || now - since >= MAX_ACCEPT_MS) break;
      }
      // net's close stops accepting without http's close, which would destroy the idle connections.
      if (app.server.listening) net.Server.prototype.close.call(app.server);
      await new Promise<void>((resolve) => {
        const sweep = () => {
          for (const [socket, state] of connections) {
            const silent = state.requests === 0 && Date.now() - since >= FRESH_CONNECTION_WAIT_MS;
            if (state.active === 0 && (state.requests > 0 || silent)) socket.destroy();
          }
          if (connections.size === 0) {
            clearInterval(timer);
            resolve();
          }
        };
        // The same for the sweep: data waiting in a socket is read before it counts as silent.
        const timer = setInterval(() => setImmediate(sweep), SWEEP_MS);
        setImmediate(sweep);
      });
    },
  };
  drains.set(app, drain);
  return drain;
}
