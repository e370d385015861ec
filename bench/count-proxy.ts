/**
 * A TCP relay that counts what a server sends its database: statements on the PostgreSQL wire
 * protocol (each simple Query, each Execute of the extended protocol), commands on Redis's RESP.
 * bench/run.ts puts one in front of PostgreSQL and one in front of Redis in its counting phase, so
 * that the service and the baseline are shown to run the same statements per request; it is never
 * in the path of a measured round.
 */
import net from 'node:net';

export interface CountingProxy {
  port: number;
  /** Statements (PostgreSQL) or commands (Redis) relayed since the last reset, by name. */
  counts(): Map<string, number>;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

type Counter = (chunk: Buffer) => void;

/** A statement's first words, as a name to count it by. */
function shorten(sql: string): string {
  return sql.replace(/\s+/g, ' ').replace(/\0$/, '').trim().slice(0, 60).toLowerCase();
}

/** Frontend messages: a start-up packet (no type byte), then type byte + int32 length. */
function postgresCounter(count: (name: string) => void): Counter {
  let buffer: Buffer = Buffer.alloc(0);
  let started = false;
  let parsed = 'execute';
  const named = new Map<string, string>();
  return (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        buffer = buffer.subarray(length);
        // An SSLRequest or GSSENCRequest is answered with one byte, then the real start-up follows.
        if (code !== 80877103 && code !== 80877104) started = true;
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) return;
      const type = String.fromCharCode(buffer[0]!);
      if (type === 'Q') {
        count(shorten(buffer.subarray(5, length).toString('utf8')));
      } else if (type === 'P') {
        // Parse: statement name (C string), then the text; pg parses unnamed statements each time.
        const body = buffer.subarray(5, length + 1);
        const nameEnd = body.indexOf(0);
        const text = shorten(body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)).toString('utf8'));
        named.set(body.subarray(0, nameEnd).toString('utf8'), text);
      } else if (type === 'B') {
        // Bind: portal name, then the statement's name ('' for the unnamed one).
        const body = buffer.subarray(5, length + 1);
        const portalEnd = body.indexOf(0);
        parsed =
          named.get(body.subarray(portalEnd + 1, body.indexOf(0, portalEnd + 1)).toString('utf8')) ??
          'execute';
      } else if (type === 'E') {
        count(parsed);
      }
      buffer = buffer.subarray(length + 1);
    }
  };
}

/** RESP: each command is an array of bulk strings; its first element names it. */
function redisCounter(count: (name: string) => void): Counter {
  let buffer: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      const parsed = parseCommand(buffer);
      if (parsed === null) return;
      count(parsed.name);
      buffer = buffer.subarray(parsed.length);
    }
  };
}

function parseCommand(buffer: Buffer): { name: string; length: number } | null {
  const lineEnd = (from: number) => {
    const at = buffer.indexOf('\r\n', from);
    return at < 0 ? null : at;
  };
  let end = lineEnd(0);
  if (end === null) return null;
  if (buffer[0] !== 0x2a) return { name: buffer.subarray(0, end).toString().split(' ')[0]!, length: end + 2 };
  const items = Number(buffer.subarray(1, end).toString());
  let at = end + 2;
  let name = '';
  for (let i = 0; i < items; i++) {
    end = lineEnd(at);
    if (end === null) return null;
    const size = Number(buffer.subarray(at + 1, end).toString());
    const start = end + 2;
    if (buffer.length < start + size + 2) return null;
    if (i === 0)
      name = buffer
        .subarray(start, start + size)
        .toString()
        .toLowerCase();
    at = start + size + 2;
  }
  return { name, length: at };
}

export async function countingProxy(target: string, protocol: 'postgres' | 'redis'): Promise<CountingProxy> {
  const url = new URL(target);
  const port = Number(url.port || (protocol === 'postgres' ? 5432 : 6379));
  const tally = new Map<string, number>();
  const count = (name: string) => tally.set(name, (tally.get(name) ?? 0) + 1);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, url.hostname);
    sockets.add(client).add(upstream);
    const counter = protocol === 'postgres' ? postgresCounter(count) : redisCounter(count);
    client.on('data', (chunk: Buffer) => {
      counter(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    counts: () => new Map(tally),
    total: () => [...tally.values()].reduce((a, b) => a + b, 0),
    reset: () => tally.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
