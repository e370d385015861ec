import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { forbiddenClass } from '../src/webhooks/address-policy.ts';
import { checkWebhookUrl, createWebhookSender, type Resolver } from '../src/webhooks/sender.ts';
import { consoleCall, newAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';

/** A fake DNS: names to addresses, and a record of every name asked. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: Resolver = async (host) => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

const FORBIDDEN: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.8.9.10', 'loopback'],
  ['::1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['fd12:3456::1', 'private'],
  ['169.254.1.1', 'link-local'],
  ['fe80::1', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT'],
  ['169.254.169.254', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['192.0.2.7', 'reserved'],
  // Issue 25: IPv4-translated (RFC 2765/6052) ::ffff:0:0:0/96 carries an IPv4 address too.
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['::ffff:0:7f00:1', 'loopback'],
  ['::ffff:0:a9fe:a9fe', 'metadata'],
  ['::ffff:0:10.0.0.1', 'private'],
  ['::ffff:0:8.8.8.8', 'reserved'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::192.168.0.1', 'private'],
  ['64:ff9b:1::8.8.8.8', 'reserved'],
  ['64:ff9b:1:a00:1::', 'reserved'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:c0a8:101::', 'private'],
  ['2002:6440:1::', 'carrier-grade NAT'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
  ['2001:2::1', 'reserved'],
  ['::127.0.0.1', 'reserved'],
  ['::2', 'reserved'],
  ['100::1', 'reserved'],
  ['5f00::1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['fec0::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['fdff:ffff::1', 'private'],
  ['fc00::1', 'private'],
  ['febf::1', 'link-local'],
  ['ff05::2', 'multicast'],
  ['ff02::1:ff00:1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['0.1.2.3', 'unspecified'],
  ['100.64.0.0', 'carrier-grade NAT'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.1', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
];
const PUBLIC = [
  '93.184.215.14',
  '8.8.8.8',
  '172.32.0.1',
  '100.128.0.1',
  '198.20.0.1',
  '2606:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
];

describe('the address policy', () => {
  test('each forbidden class is named', () => {
    for (const [address, why] of FORBIDDEN) assert.equal(forbiddenClass(address), why, address);
  });
  test('a zone index does not hide the class', () => {
    assert.equal(forbiddenClass('fe80::1%eth0'), 'link-local');
    assert.equal(forbiddenClass('::ffff:0:7f00:1%1'), 'loopback');
  });
  test('public unicast addresses pass', () => {
    for (const address of PUBLIC) assert.equal(forbiddenClass(address), null, address);
  });
  test('saving: https only, no credentials, no forbidden IP literal or localhost', () => {
    assert.equal(checkWebhookUrl('https://hooks.example.com/in', false), null);
    assert.match(checkWebhookUrl('http://hooks.example.com/in', false)!, /https/);
    assert.match(checkWebhookUrl('https://user:pw@hooks.example.com/', false)!, /credentials/);
    assert.match(checkWebhookUrl('https://169.254.169.254/latest', false)!, /metadata/);
    assert.match(checkWebhookUrl('https://[::1]:8443/', false)!, /loopback/);
    assert.match(checkWebhookUrl('https://localhost/', false)!, /loopback/);
    assert.match(checkWebhookUrl('https://0x7f.1/', false)!, /loopback/);
    assert.match(checkWebhookUrl('https://[::ffff:0:127.0.0.1]/', false)!, /loopback/);
    assert.match(checkWebhookUrl('https://[64:ff9b::a9fe:a9fe]/', false)!, /metadata/);
    assert.equal(checkWebhookUrl('http://127.0.0.1:9/', true), null);
  });
});

describe('delivery checks the address it connects to', () => {
  let server: http.Server;
  let port = 0;
  const hits: { host: string | undefined; url: string | undefined }[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      hits.push({ host: req.headers.host, url: req.url });
      if (req.url === '/redirect')
        res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 2000);
      else if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 120);
        let sent = 0;
        const pump = () => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent < 64) res.once('drain', pump);
          else res.end();
        };
        pump();
      } else res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a name resolving to any forbidden class is refused before connecting', async () => {
    const table: Record<string, string[]> = {};
    for (const [address] of FORBIDDEN) table[`to-${address.replace(/[:.]/g, '-')}.example.com`] = [address];
    table['mixed.example.com'] = ['93.184.215.14', '10.0.0.5'];
    const dns = fakeDns(table);
    const sender = createWebhookSender({ allowPrivate: false, resolve: dns.resolve });
    try {
      for (const [address, why] of FORBIDDEN) {
        const name = `to-${address.replace(/[:.]/g, '-')}.example.com`;
        const outcome = await sender.send(`https://${name}/in`, {}, '{}');
        assert.equal(outcome.statusCode, null);
        assert.equal(outcome.error, `refused: ${name} resolves to a ${why} address.`, address);
      }
      const mixed = await sender.send('https://mixed.example.com/in', {}, '{}');
      assert.match(mixed.error!, /private/);
      const literal = await sender.send(`https://127.0.0.1:${port}/`, {}, '{}');
      assert.match(literal.error!, /loopback/);
      const plain = await sender.send('http://mixed.example.com/in', {}, '{}');
      assert.match(plain.error!, /https/);
      const missing = await sender.send('https://nowhere.example.com/in', {}, '{}');
      assert.match(missing.error!, /ENOTFOUND/);
      assert.equal(hits.length, 0, 'nothing was connected to');
    } finally {
      sender.close();
    }
  });

  test('the connection goes to the resolved address with the name as Host, resolved once', async () => {
    const dns = fakeDns({ 'hooks.customer.test': ['127.0.0.1'] });
    const sender = createWebhookSender({ allowPrivate: true, resolve: dns.resolve });
    try {
      const outcome = await sender.send(
        `http://hooks.customer.test:${port}/in`,
        { 'webhook-id': 'evt_1' },
        '{}',
      );
      assert.deepEqual(outcome, { statusCode: 204, error: null });
      assert.deepEqual(dns.asked, ['hooks.customer.test']);
      assert.deepEqual(hits.at(-1), { host: `hooks.customer.test:${port}`, url: '/in' });
    } finally {
      sender.close();
    }
  });

  test('no redirect is followed, a slow endpoint times out, a huge answer is cut', async () => {
    const sender = createWebhookSender({ allowPrivate: true, timeoutMs: 500, maxResponseBytes: 4096 });
    try {
      const before = hits.length;
      const redirected = await sender.send(`http://127.0.0.1:${port}/redirect`, {}, '{}');
      assert.deepEqual(redirected, { statusCode: 302, error: 'answered 302' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(
        hits.slice(before).map((h) => h.url),
        ['/redirect'],
      );
      const started = Date.now();
      const slow = await sender.send(`http://127.0.0.1:${port}/slow`, {}, '{}');
      assert.equal(slow.statusCode, null);
      assert.match(slow.error!, /no answer within 0.5 s/);
      assert.ok(Date.now() - started < 1500);
      const huge = await sender.send(`http://127.0.0.1:${port}/huge`, {}, '{}');
      assert.deepEqual(huge, { statusCode: 200, error: null });
    } finally {
      sender.close();
    }
  });
});

describe('the console refuses forbidden endpoints when private addresses are not allowed', () => {
  const ctx = useTestApp({ webhooks: { allowPrivate: false } });

  test('http, a metadata IP, loopback: 400 naming url', async () => {
    const account = await newAccount(ctx.app);
    for (const url of [
      'http://hooks.example.com/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:0:7f00:1]/',
      'https://10.0.0.1/',
    ]) {
      const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/webhooks`, { url });
      assert.equal(res.statusCode, 400, url);
      assert.equal(errorOf(res).field, 'url');
    }
    const ok = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/webhooks`, {
      url: 'https://hooks.example.com/in',
    });
    assert.equal(ok.statusCode, 201);
  });
});
