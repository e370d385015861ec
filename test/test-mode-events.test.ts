import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { type ApiClient, client, consoleCall, newAccount, newKey } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';

/**
 * Events and webhooks by mode (extensions.md §8): every event carries `livemode`; a webhook
 * endpoint is live (the default) or test and receives only its mode's events.
 */

const servers: http.Server[] = [];
const ctx = useTestApp({ webhooks: { allowPrivate: true } });
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An endpoint answering 204; keeps each delivered body. */
async function endpoint() {
  const bodies: { id: string; type: string; livemode: boolean; data: { jobId?: string } }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      res.writeHead(204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, bodies };
}

async function feed(api: ApiClient) {
  const res = await api.get('/v1/events?types=job.published');
  assert.equal(res.statusCode, 200, res.body);
  return res.json().events as { type: string; livemode: boolean; data: { jobId: string } }[];
}

test('events carry livemode; a test endpoint gets only test events, a live one only live events', async () => {
  const account = await newAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
  const liveHook = await endpoint();
  const testHook = await endpoint();
  const made = async (body: Record<string, unknown>) => {
    const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/webhooks`, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().webhook as { mode: string };
  };
  assert.equal((await made({ url: liveHook.url, types: ['job.published'] })).mode, 'live');
  assert.equal((await made({ url: testHook.url, types: ['job.published'], mode: 'test' })).mode, 'test');
  const scopes = ['jobs:read', 'jobs:write'];
  const live = client(ctx.app, (await newKey(ctx.app, account.id, scopes)).secret);
  const testKey = client(ctx.app, (await newKey(ctx.app, account.id, scopes, 'test')).secret);
  const liveJob = await createPublished(live);
  const testJob = await createPublished(testKey);

  // The feed: each key reads its own mode's events, marked.
  assert.deepEqual(
    (await feed(live)).map((e) => [e.data.jobId, e.livemode]),
    [[liveJob.id, true]],
  );
  assert.deepEqual(
    (await feed(testKey)).map((e) => [e.data.jobId, e.livemode]),
    [[testJob.id, false]],
  );

  const dispatcher = ctx.services.webhookDispatcher({ log: { warn() {}, error() {} }, pollMs: 20 });
  dispatcher.start();
  try {
    const started = Date.now();
    while ((liveHook.bodies.length < 1 || testHook.bodies.length < 1) && Date.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // A moment more, so a stray delivery to the wrong endpoint would have arrived.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    await dispatcher.stop();
  }
  assert.deepEqual(
    liveHook.bodies.map((b) => [b.data.jobId, b.livemode]),
    [[liveJob.id, true]],
  );
  assert.deepEqual(
    testHook.bodies.map((b) => [b.data.jobId, b.livemode]),
    [[testJob.id, false]],
  );
});
