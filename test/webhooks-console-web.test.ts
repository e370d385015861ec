import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import { client, consoleCall, newAccount, newKey } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';

let server: http.Server;
let url = '';
let hits = 0;
const ctx = useTestApp({ webhooks: { allowPrivate: true } }, async () => {
  server = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(hits === 1 ? 500 : 204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const flashOf = (html: string) => /class="flash (ok|error)"[^>]*>([^<]*)</.exec(html)?.slice(1) ?? [];

test('console pages: an admin adds a webhook (secret once), reads the log, retries, deletes; audited', async () => {
  const account = await newAccount(ctx.app);
  const admin = await signedIn(ctx.app, account.id, 'admin');
  const listed = await admin.web.get('/console/webhooks');
  assert.equal(listed.statusCode, 200);
  assert.match(listed.body, /<a [^>]*href="\/console\/webhooks"[^>]*>Webhooks<\/a>/);
  assert.match(listed.body, /<label for="hook-url">/);
  const bad = await admin.web.post('/console/webhooks', { url: 'ftp://example.com/x' });
  assert.equal(bad.statusCode, 303);
  assert.match(flashOf((await admin.web.get('/console/webhooks')).body)[1] ?? '', /https/);

  const added = await admin.web.post('/console/webhooks', { url, types: ['job.published'] });
  assert.equal(added.statusCode, 303, added.body);
  const shown = await admin.web.get(String(added.headers.location));
  assert.equal(shown.headers['cache-control'], 'no-store');
  const secret = /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(shown.body)?.[1];
  assert.ok(secret, 'the secret is shown');
  const again = await admin.web.get('/console/webhooks');
  assert.ok(!again.body.includes(secret), 'and never again');
  assert.ok(again.body.includes('job.published'));

  const key = await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write']);
  await createPublished(client(ctx.app, key.secret));
  const dispatcher = ctx.services.webhookDispatcher({ log: { warn() {}, error() {} } });
  await dispatcher.drain();
  const hookId = /href="\/console\/webhooks\/(whk_[^"]+)"/.exec(again.body)?.[1];
  assert.ok(hookId);
  const log = await admin.web.get(`/console/webhooks/${hookId}`);
  assert.equal(log.statusCode, 200);
  assert.match(log.body, /answered 500/);
  const attemptId = /deliveries\/(wha_[^/]+)\/retry/.exec(log.body)?.[1];
  const retried = await admin.web.post(`/console/webhooks/${hookId}/deliveries/${attemptId}/retry`);
  assert.equal(retried.statusCode, 303);
  await dispatcher.drain();
  await dispatcher.stop();
  assert.equal(hits, 2);
  assert.match((await admin.web.get(`/console/webhooks/${hookId}`)).body, /Delivered/);

  await admin.web.get('/console/webhooks');
  const removed = await admin.web.post(`/console/webhooks/${hookId}/delete`);
  assert.equal(removed.statusCode, 303);
  const entries = (await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/audit`)).json().entries as {
    action: string;
  }[];
  assert.deepEqual(
    entries.map((e) => e.action).filter((a) => a.startsWith('webhook.')),
    ['webhook.deleted', 'webhook.created'],
  );
});

test('a recruiter neither sees nor opens the webhooks page; another account’s webhook is 404', async () => {
  const account = await newAccount(ctx.app);
  const recruiter = await signedIn(ctx.app, account.id, 'recruiter');
  const jobs = await recruiter.web.get('/console/jobs');
  assert.ok(!jobs.body.includes('/console/webhooks'));
  assert.equal((await recruiter.web.get('/console/webhooks')).statusCode, 403);
  const other = await newAccount(ctx.app);
  const made = await consoleCall(ctx.app, 'POST', `/accounts/${other.id}/webhooks`, { url });
  const admin = await signedIn(ctx.app, account.id, 'admin');
  assert.equal((await admin.web.get(`/console/webhooks/${made.json().webhook.id}`)).statusCode, 404);
});
