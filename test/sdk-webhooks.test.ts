import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verifyWebhook, WebhookVerificationError } from '../packages/sdk/src/index.ts';
import { newWebhookSecret, signedHeaders } from '../src/webhooks/sign.ts';

/** The SDK's verifier accepts what the service's signer sends, and nothing altered, old or foreign. */

const secret = newWebhookSecret();
const at = new Date('2026-03-10T09:00:00Z');
const body = JSON.stringify({ id: 'evt_1', type: 'job.published', data: { jobId: 'job_1' } });
const headers = signedHeaders(secret, 'evt_1', at, body);

test('a delivery signed by the service verifies and parses', async () => {
  const event = await verifyWebhook(secret, headers, body, { now: at });
  assert.deepEqual(event, JSON.parse(body));
  const asHeaders = new Headers(headers);
  assert.ok(await verifyWebhook(secret, asHeaders, body, { now: new Date(at.getTime() + 299_000) }));
});

test('an altered body, another secret, an old or missing timestamp are refused', async () => {
  const refused = (promise: Promise<unknown>) => assert.rejects(promise, WebhookVerificationError);
  await refused(verifyWebhook(secret, headers, body.replace('job_1', 'job_2'), { now: at }));
  await refused(verifyWebhook(newWebhookSecret(), headers, body, { now: at }));
  await refused(verifyWebhook(secret, headers, body, { now: new Date(at.getTime() + 301_000) }));
  const { 'webhook-timestamp': _dropped, ...rest } = headers;
  await refused(verifyWebhook(secret, rest, body, { now: at }));
  await refused(verifyWebhook(secret, { ...headers, 'webhook-id': 'evt_2' }, body, { now: at }));
});
