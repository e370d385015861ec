import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import { client, newAccount, newKey } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';

/**
 * The console's test mode (extensions.md §8) on the API keys page: a key minted as live or test,
 * each key's mode in the list, the test data counted apart, and "Delete all test data".
 */

const ctx = useTestApp();

const flashOf = (html: string) => /class="flash (ok|error)"[^>]*>([^<]*)</.exec(html)?.slice(1) ?? [];

test('keys page: mint a test key, see each key’s mode and the test data apart, delete all test data', async () => {
  const account = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 100_000 } });
  const admin = await signedIn(ctx.app, account.id, 'admin');
  const page = await admin.web.get('/console/keys');
  assert.match(page.body, /<input type="radio" name="mode" value="live" checked>/);
  assert.match(page.body, /<p data-test-counts>0 test jobs, 0 test applications, 0 test imports\.<\/p>/);

  const minted = await admin.web.post('/console/keys', {
    scopes: 'jobs:read',
    name: 'sandbox',
    mode: 'test',
  });
  assert.equal(minted.statusCode, 303, minted.body);
  const shown = await admin.web.get(minted.headers.location as string);
  assert.match(shown.body, /cak_test_[A-Za-z0-9_-]+/);
  const keys = await admin.web.get('/console/keys');
  assert.match(keys.body, /<td[^>]*>sandbox<\/td><td[^>]*>Test<\/td>/);

  const writer = client(
    ctx.app,
    (await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write'], 'test')).secret,
  );
  const live = client(ctx.app, (await newKey(ctx.app, account.id, ['jobs:read', 'jobs:write'])).secret);
  const testJob = await createPublished(writer);
  const liveJob = await createPublished(live);
  assert.match(
    (await admin.web.get('/console/keys')).body,
    /1 test job, 0 test applications, 0 test imports\./,
  );

  const deleted = await admin.web.post('/console/keys/test-data/delete');
  assert.equal(deleted.statusCode, 303);
  const after = await admin.web.get('/console/keys');
  assert.deepEqual(flashOf(after.body), [
    'ok',
    'Test data deleted (1 job and everything made for it); keys and webhooks stay.',
  ]);
  assert.match(after.body, /0 test jobs, 0 test applications, 0 test imports\./);
  assert.equal((await writer.get(`/v1/jobs/${testJob.id}`)).statusCode, 404);
  assert.equal((await live.get(`/v1/jobs/${liveJob.id}`)).statusCode, 200);
  const activity = await admin.web.get('/console/activity');
  assert.match(activity.body, /deleted all test data/);
});
