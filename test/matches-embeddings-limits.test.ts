// The embedding provider's answer is read under a hard byte cap whatever its headers say, and its
// key never travels over plain http off the machine (issue 25.4).
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../src/config.ts';
import { EmbeddingError, httpEmbeddings } from '../src/domain/matches/embeddings.ts';

const CAP = 64 * 1024;
const HUGE = 64 * 1024 * 1024;

/** What the server managed to send of each huge answer before the client hung up. */
const sent: { bytes: number; finished: boolean }[] = [];
let server: http.Server;
let raw: net.Server;
let base: string;
let rawBase: string;

/** Streams `total` bytes of a JSON array that never closes, as fast as the client reads. */
function pump(res: http.ServerResponse, total: number): void {
  const record = { bytes: 0, finished: false };
  sent.push(record);
  const chunk = Buffer.alloc(16 * 1024, '1,');
  res.write('{"data":[');
  const more = () => {
    while (record.bytes < total) {
      record.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    record.finished = true;
    res.end(']}');
  };
  more();
}

before(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/chunked') {
      // No content-length at all: chunked, 64 MB.
      res.writeHead(200, { 'content-type': 'application/json' });
      pump(res, HUGE);
    } else if (req.url === '/small') {
      const body = JSON.stringify({ data: [{ index: 0, embedding: [1, 2, 3] }] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  // A server that declares no length at all and sends its body until it closes the connection
  // (HTTP/1.0 style), written on a raw socket.
  raw = net.createServer((socket) => {
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"data":[');
      const record = { bytes: 0, finished: false };
      sent.push(record);
      const chunk = Buffer.alloc(16 * 1024, '1,');
      const more = () => {
        while (record.bytes < HUGE) {
          record.bytes += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', more);
        }
        record.finished = true;
        socket.end(']}');
      };
      socket.on('error', () => undefined);
      more();
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawBase = `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => raw.close(resolve));
});

const provider = (url: string) =>
  httpEmbeddings({ url, model: 'm', timeoutMs: 60_000, maxResponseBytes: CAP });

describe('the answer is read under a hard byte cap', () => {
  for (const [name, path] of [
    ['chunked, no content-length', '/chunked'],
    ['no length, body until close', ''],
  ] as const) {
    test(`a 64 MB answer (${name}) is refused past the cap, the rest never downloaded`, async () => {
      const before = sent.length;
      const url = path ? `${base}${path}` : rawBase;
      await assert.rejects(provider(url).embed(['a']), (error: unknown) => {
        assert.ok(error instanceof EmbeddingError);
        assert.equal(error.message, 'the answer is too large');
        assert.equal(error.outcome, 'error');
        return true;
      });
      // The client hung up: the server could not write the whole answer.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const record = sent[before];
      assert.ok(record, 'the server was asked');
      assert.equal(record.finished, false, `the whole ${HUGE} bytes went out`);
      assert.ok(record.bytes < HUGE / 2, `${record.bytes} bytes sent`);
    });
  }

  test('an answer under the cap still reads', async () => {
    assert.deepEqual(await provider(`${base}/small`).embed(['a']), [[1, 2, 3]]);
  });
});

describe('EMBEDDINGS_URL with a key', () => {
  const env = (url: string, key?: string) => ({
    EMBEDDINGS_URL: url,
    EMBEDDINGS_MODEL: 'm',
    ...(key ? { EMBEDDINGS_API_KEY: key } : {}),
  });

  test('http with a key is refused, naming the variable; https, no key, or loopback pass', () => {
    for (const url of [
      'http://embeddings.example/v1/embeddings',
      'http://10.0.0.5:8080/v1/embeddings',
      'http://[fd00::1]/v1/embeddings',
    ]) {
      assert.throws(
        () => parseConfig(env(url, 'sk-secret')),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, /EMBEDDINGS_URL/);
          assert.match(error.message, /https/);
          assert.doesNotMatch(error.message, /sk-secret/);
          return true;
        },
        url,
      );
    }
    assert.equal(
      parseConfig(env('https://embeddings.example/v1/embeddings', 'sk-secret')).embeddings?.apiKey,
      'sk-secret',
    );
    assert.equal(parseConfig(env('http://embeddings.internal/v1/embeddings')).embeddings?.apiKey, null);
    for (const local of [
      'http://127.0.0.1:8080/v1/embeddings',
      'http://localhost:8080/v1/embeddings',
      'http://[::1]/e',
    ])
      assert.equal(parseConfig(env(local, 'sk-secret')).embeddings?.url, local);
  });
});
