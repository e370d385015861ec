import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { smtpMailer } from '../src/mail/mailer.ts';
import { client, newAccount, newKey } from './support/accounts.ts';
import { database, useTestApp } from './support/app.ts';
import { applyTo } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { drainAll, mailTo } from './support/mail.ts';
import { type Received, startSmtpServer } from './support/smtp.ts';

/**
 * Test mode's mail (extensions.md §8): with SMTP configured, a live application's claim mail
 * reaches the SMTP server and a test application's never does; it is in the outbox instead, and
 * the outbox lists test mail only.
 */

let received: Received[];

const ctx = useTestApp(async () => {
  const smtp = await startSmtpServer(() => null);
  received = smtp.received;
  const handle = await database();
  const clock = new ManualClock(new Date());
  return {
    clock,
    handle,
    mailer: smtpMailer({ db: handle.db, clock, url: smtp.url, from: 'Careers <no-reply@careers.test>' }),
  };
});

test('a test application’s mail never reaches SMTP (it is in the outbox); a live one’s does', async () => {
  const account = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 100_000 } });
  const scopes = ['jobs:read', 'jobs:write', 'applications:write'];
  const live = client(ctx.app, (await newKey(ctx.app, account.id, scopes)).secret);
  const testKey = client(ctx.app, (await newKey(ctx.app, account.id, scopes, 'test')).secret);
  const liveApplicant = await applyTo(ctx, live, (await createPublished(live)).id);
  const testApplicant = await applyTo(ctx, testKey, (await createPublished(testKey)).id);
  await drainAll(ctx.worker);

  const to = (address: string) => received.filter((m) => m.rcptTo.includes(address));
  assert.equal(to(liveApplicant.email).length, 1, 'the live claim mail went over SMTP');
  assert.equal(to(testApplicant.email).length, 0, 'the test claim mail never did');
  assert.equal((await mailTo(ctx.app, testApplicant.email)).length, 1, 'the test mail is in the outbox');
  assert.equal((await mailTo(ctx.app, liveApplicant.email)).length, 0, 'the outbox holds test mail only');
});
