import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CareersApiError, createCareersClient } from '../packages/sdk/src/index.ts';
import { client, newAccount, newKey } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';

/** The SDK's test helpers (extensions.md §8) against the real service: a test key moves, a live key 404s. */

const ctx = useTestApp({ listen: true });

test('sdk.test: expireJob with a test key; a live key’s call is a CareersApiError not_found', async () => {
  const account = await newAccount(ctx.app, { limits: { requestsPerMinute: 100_000 } });
  const testSecret = (await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write'], 'test')).secret;
  const liveSecret = (await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write'])).secret;
  const job = await createPublished(client(ctx.app, testSecret));
  const sdk = createCareersClient({ baseUrl: ctx.baseUrl, apiKey: testSecret });
  assert.equal((await sdk.test.manageJob(job.id)).managed, true);
  assert.equal((await sdk.test.expireJob(job.id)).status, 'expired');
  const live = createCareersClient({ baseUrl: ctx.baseUrl, apiKey: liveSecret });
  await assert.rejects(live.test.expireJob(job.id), (error: unknown) => {
    assert.ok(error instanceof CareersApiError);
    assert.equal(error.error.code, 'not_found');
    return true;
  });
});
