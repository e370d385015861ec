import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { consoleCall, newAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';

const servers: http.Server[] = [];
const ctx = useTestApp({ webhooks: { allowPrivate: true } });
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An endpoint answering 204 after `delayMs`; records when each request arrived. */
async function endpoint(delayMs: number) {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push(Date.now());
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(204).end(), delayMs));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, arrivals };
}

async function accountWithEvents(url: string, count: number): Promise<string> {
  const account = await newAccount(ctx.app);
  const res = await consoleCall(ctx.app, 'POST', `/accounts/${account.id}/webhooks`, { url });
  assert.equal(res.statusCode, 201);
  await ctx.handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++)
      await ctx.services.events.record(trx, account.id, {
        type: 'job.published',
        data: { jobId: `job_${i}`, status: 'published' },
      });
  });
  return account.id;
}

test('a slow endpoint with a backlog does not delay another account’s deliveries', async () => {
  const slow = await endpoint(3000);
  const fast = await endpoint(0);
  // The slow account's backlog is older, so a first-in-first-out queue would serve it first.
  await accountWithEvents(slow.url, 40);
  await accountWithEvents(fast.url, 10);
  const dispatcher = ctx.services.webhookDispatcher({
    log: { warn() {}, error() {} },
    concurrency: 8,
    perEndpoint: 2,
    pollMs: 20,
  });
  const started = Date.now();
  dispatcher.start();
  try {
    while (fast.arrivals.length < 10 && Date.now() - started < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(fast.arrivals.length, 10);
    const fastDone = fast.arrivals.at(-1)! - started;
    assert.ok(fastDone < 2000, `the fast endpoint waited ${fastDone} ms`);
    // The slow endpoint never had more than its two slots.
    assert.ok(slow.arrivals.length <= 2, `slow endpoint got ${slow.arrivals.length} at once`);
  } finally {
    await dispatcher.stop();
  }
});
