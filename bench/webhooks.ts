/**
 * Webhook throughput: deliveries per second from the dispatcher to a local HTTP receiver, with
 * every signature verified by the receiver (standardwebhooks), and the same run with a second
 * account whose endpoint hangs for 10 s per request (no head-of-line blocking: the first account's
 * rate should hardly move).
 *   npm run bench:webhooks           npm run bench:webhooks -- --events=5000 --endpoints=4
 * Runs on PGlite by default, on PostgreSQL when DATABASE_URL is set (use a scratch database).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { parseConfig } from '../src/config.ts';
import { createRuntime } from '../src/runtime.ts';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const EVENTS = arg('events', 2000);
const ENDPOINTS = arg('endpoints', 4);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
const runtime = await createRuntime(
  parseConfig({ ...process.env, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' }),
);
const { services, handle } = runtime;

/** A receiver verifying each delivery; `hang` answers nothing for 10 s. */
async function receiver(hang: boolean) {
  const state = { received: 0, failedVerification: 0, secret: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hang) {
        setTimeout(() => res.writeHead(204).end(), 10_000).unref();
        return;
      }
      try {
        new Webhook(state.secret).verify(
          Buffer.concat(chunks).toString(),
          req.headers as Record<string, string>,
        );
        state.received++;
      } catch {
        state.failedVerification++;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in` };
}

async function accountWith(url: string, events: number) {
  const account = await services.accounts.create({
    name: 'Bench',
    companyAddress: `bench-${Math.random().toString(36).slice(2)}`,
  });
  const { secret } = await services.webhooks.create(account.id, { url });
  for (let done = 0; done < events; done += 500) {
    await handle.db.transaction().execute(async (trx) => {
      for (let i = done; i < Math.min(events, done + 500); i++)
        await services.events.record(trx, account.id, {
          type: 'job.published',
          data: { jobId: `job_${i}`, status: 'published' },
        });
    });
  }
  return secret;
}

async function run(label: string, withHangingAccount: boolean, events = EVENTS): Promise<number> {
  const receivers: Awaited<ReturnType<typeof receiver>>[] = [];
  for (let i = 0; i < ENDPOINTS; i++) receivers.push(await receiver(false));
  for (const r of receivers) r.state.secret = await accountWith(r.url, Math.ceil(events / ENDPOINTS));
  const hanging = withHangingAccount ? await receiver(true) : null;
  if (hanging) hanging.state.secret = await accountWith(hanging.url, 200);
  const total = Math.ceil(events / ENDPOINTS) * ENDPOINTS;
  const dispatcher = services.webhookDispatcher({ log: { warn() {}, error() {} }, pollMs: 20 });
  const started = performance.now();
  dispatcher.start();
  const received = () => receivers.reduce((n, r) => n + r.state.received, 0);
  while (received() < total) await new Promise((resolve) => setTimeout(resolve, 10));
  const seconds = (performance.now() - started) / 1000;
  const failed = receivers.reduce((n, r) => n + r.state.failedVerification, 0);
  console.log(
    `${label}: ${total} deliveries to ${ENDPOINTS} endpoints in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(0)}/s` +
      ` (${failed} failed verification)`,
  );
  await dispatcher.stop();
  for (const r of [...receivers, ...(hanging ? [hanging] : [])]) {
    r.server.closeAllConnections();
    r.server.close();
  }
  return total / seconds;
}

await run('warm-up (not counted)', false, 400);
const alone = await run('alone', false);
const beside = await run('beside an endpoint that hangs 10 s per request (200 queued)', true);
console.log(`rate beside the hanging endpoint: ${((beside / alone) * 100).toFixed(0)} % of the rate alone`);
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
