import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseConfig } from '../src/config.ts';
import { intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { pdfFixture, uploadPdf } from './support/intake.ts';

/**
 * Issue 25 B: requestTimeout and connectionTimeout were 0. A client that sent headers announcing
 * 100 bytes and sent 2 held its connection for ever on any route that reads the body first; 150
 * of them from one address (ulimit -n 256) made /healthz unreachable. Real sockets, real server.
 */

const BODY_TIMEOUT_MS = 1_000;
const MAX_PER_ADDRESS = 5;

const ctx = useTestApp({
  listen: true,
  env: {
    HTTP_HEADERS_TIMEOUT_MS: '1500',
    HTTP_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    HTTP_UPLOAD_MIN_BYTES_PER_SECOND: '4096',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(MAX_PER_ADDRESS),
  },
});

function port(): number {
  return Number(new URL(ctx.baseUrl).port);
}

/** A raw connection from `localAddress`: what it receives, and when it was closed. */
function connect(localAddress = '127.0.0.1') {
  const socket = net.connect({ host: '127.0.0.1', port: port(), localAddress });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
  const connected = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return { socket, closed, connected, received: () => received };
}

function get(path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: port(), path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

describe('a slow body is cut off', () => {
  for (const path of ['/console/login', '/cv/some-token/claim', '/apply/job_x/upload', '/console/jobs']) {
    test(`POST ${path}: Content-Length 100 and 2 bytes → 408 and closed after the body timeout`, async () => {
      const client = connect();
      await client.connected;
      const started = performance.now();
      const type = path.endsWith('upload') ? 'application/json' : 'application/x-www-form-urlencoded';
      client.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: careers.test\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\nab`,
      );
      const closedAt = await Promise.race([client.closed, sleep(30_000).then(() => null)]);
      assert.ok(closedAt !== null, 'the connection was closed');
      assert.ok(
        closedAt - started >= BODY_TIMEOUT_MS * 0.9,
        `not before the timeout: ${closedAt - started} ms`,
      );
      assert.match(client.received(), /^HTTP\/1\.1 408 /);
      assert.match(client.received(), /"code":"request_timeout"/);
    });
  }

  test('headers that never end → 408 and closed after the headers timeout', async () => {
    const client = connect();
    await client.connected;
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: careers.test\r\n');
    const closedAt = await Promise.race([client.closed, sleep(30_000).then(() => null)]);
    assert.ok(closedAt !== null, 'the connection was closed');
    assert.match(client.received(), /^HTTP\/1\.1 408 /);
  });
});

describe('connections per client address', () => {
  test(`the ${MAX_PER_ADDRESS + 1}th connection from one address is refused; another address still reaches /healthz`, async () => {
    const held = Array.from({ length: MAX_PER_ADDRESS }, () => connect());
    await Promise.all(held.map((c) => c.connected));
    const over = connect();
    const closedAt = await Promise.race([over.closed, sleep(10_000).then(() => null)]);
    assert.ok(closedAt !== null, 'the connection over the cap is closed');
    assert.match(over.received(), /^HTTP\/1\.1 503 /);
    assert.match(over.received(), /"code":"unavailable"/);
    assert.equal(await get('/healthz', '127.0.0.2'), 200, 'another address is served');
    // One held connection closes: the address may connect again.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await sleep(50);
    assert.equal(await get('/healthz', '127.0.0.1'), 200);
    for (const c of held) c.socket.destroy();
  });
});

describe('a CV upload slower than the body timeout but above the minimum rate', () => {
  test('succeeds (its deadline counts its bytes at HTTP_UPLOAD_MIN_BYTES_PER_SECOND)', async () => {
    const intake = await intakeAccount(ctx.app);
    const bytes = pdfFixture('cv-2-pages.pdf');
    const slot = await uploadPdf(ctx, intake.api, bytes, { put: false });
    const url = new URL(slot.uploadUrl);
    assert.equal(url.port, String(port()), 'the presigned URL points at the listening app');
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: port(),
          method: 'PUT',
          path: `${url.pathname}${url.search}`,
          headers: { 'content-type': 'application/pdf', 'content-length': bytes.length },
          agent: false,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      void (async () => {
        // Eight pieces over ~2.5 s: longer than the body timeout, well above 4 KiB/s.
        const piece = Math.ceil(bytes.length / 8);
        for (let at = 0; at < bytes.length; at += piece) {
          req.write(bytes.subarray(at, at + piece));
          await sleep(350);
        }
        req.end();
      })();
    });
    assert.equal(status, 200);
    assert.ok(performance.now() - started > BODY_TIMEOUT_MS, 'the upload took longer than the body timeout');
  });
});

describe('configuration', () => {
  test('defaults; the per-address cap is off by default behind a proxy; bad values are refused', () => {
    const direct = parseConfig({}).http.connections;
    assert.deepEqual(
      { ...direct },
      {
        headersTimeoutMs: 10_000,
        bodyTimeoutMs: 15_000,
        uploadMinBytesPerSecond: 16_384,
        uploadMaxBytes: 10_485_760,
        keepAliveTimeoutMs: 5_000,
        idleTimeoutMs: 60_000,
        maxConnectionsPerAddress: 64,
      },
    );
    assert.equal(parseConfig({ TRUST_PROXY: '1' }).http.connections.maxConnectionsPerAddress, 0);
    assert.equal(
      parseConfig({ TRUST_PROXY: '1', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '500' }).http.connections
        .maxConnectionsPerAddress,
      500,
    );
    assert.throws(() => parseConfig({ HTTP_BODY_TIMEOUT_MS: 'soon' }), /HTTP_BODY_TIMEOUT_MS/);
    assert.throws(() => parseConfig({ HTTP_HEADERS_TIMEOUT_MS: '0' }), /HTTP_HEADERS_TIMEOUT_MS/);
  });
});
