import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../src/lib/clock.ts';
import { SCRUBBED_EMAIL, scrubPersonalData } from '../src/lib/scrub.ts';
import { smtpMailer } from '../src/mail/mailer.ts';
import { loggerOptions, serializeRequest } from '../src/plugins/log.ts';
import { createWorker } from '../src/tasks/worker.ts';
import { jobsAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, database, startApp, useTestApp } from './support/app.ts';
import { applyWithCv } from './support/intake.ts';
import { captureLog } from './support/log.ts';
import { drainAll } from './support/mail.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * Issue 11.7: no email address in what the service keeps for operators. A refusing SMTP server
 * names the recipient in its reply; that reply was stored as the task's last error (shown in the
 * console) and logged. Console query strings (`/console/v1/mail?to=…`) were logged whole.
 */

const { stream: capture, lines } = captureLog();

// The SMTP server first: the app's mailer speaks to it.
const ctx = useTestApp(async () => {
  // Like Postfix: the refusal repeats the address it refuses.
  const smtp = await startSmtpServer((address) => `<${address}>: Recipient address rejected: User unknown`);
  const handle = await database();
  const clock = new ManualClock(new Date());
  return {
    clock,
    handle,
    mailer: smtpMailer({
      db: handle.db,
      clock,
      url: smtp.url,
      from: 'no-reply@careers.test',
    }),
    logger: loggerOptions('info', capture),
  };
});

describe('scrubPersonalData', () => {
  const cases: [string, string][] = [
    ['RCPT TO:<ana.silva+jobs@example.com> refused', `RCPT TO:<${SCRUBBED_EMAIL}> refused`],
    ['550 5.1.1 bob@mail.example.co.uk: unknown', `550 5.1.1 ${SCRUBBED_EMAIL}: unknown`],
    ['{"to":"josé.núñez@exämple.es","n":1}', `{"to":"${SCRUBBED_EMAIL}","n":1}`],
    ['\'a@b.c\' and "d@e.f"', `'${SCRUBBED_EMAIL}' and "${SCRUBBED_EMAIL}"`],
    ['no address here, just @ and @@', 'no address here, just @ and @@'],
    ['/console/v1/mail?to=x%40y.com', '/console/v1/mail?to=x%40y.com'],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(scrubPersonalData(input), expected);
    });
  }

  test('a URL-decoded address in a query string is scrubbed too', () => {
    assert.equal(scrubPersonalData('?to=x@y.com&n=1'), `?to=${SCRUBBED_EMAIL}&n=1`);
  });

  test('bounded on hostile text (long runs, many @): each megabyte shape in under a second', () => {
    const shapes: ((n: number) => string)[] = [
      (n) => 'a'.repeat(n),
      (n) => `${'a'.repeat(n)}@`,
      (n) => `@${'a'.repeat(n)}`,
      (n) => 'a@'.repeat(n / 2),
      (n) => '@a'.repeat(n / 2),
      (n) => `${'a'.repeat(63)}@${'b'.repeat(252)} `.repeat(n / 317),
    ];
    const time = (text: string) => {
      const started = performance.now();
      scrubPersonalData(text);
      return performance.now() - started;
    };
    // A quadratic scan (a regular expression retried from every position of a long run) takes
    // minutes on a megabyte; the scan from each `@` takes a fraction of a second, garbage included.
    for (const shape of shapes) {
      const ms = Math.min(time(shape(1_000_000)), time(shape(1_000_000)));
      assert.ok(ms < 1_000, `${shape(20)}…: ${ms.toFixed(0)} ms`);
    }
  });
});

describe('console query strings', () => {
  test('values are dropped from logged console URLs, names kept; other URLs unchanged', () => {
    assert.equal(
      serializeRequest({ method: 'GET', url: '/console/v1/mail?to=ana%40example.com&limit=5' }).url,
      '/console/v1/mail?to=[redacted]&limit=[redacted]',
    );
    assert.equal(serializeRequest({ method: 'GET', url: '/v1/jobs?limit=5' }).url, '/v1/jobs?limit=5');
  });

  test('GET /console/v1/mail?to=<address> leaves no trace of the address in the log', async () => {
    const address = `lookup-${Date.now()}@example.org`;
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/console/v1/mail?to=${encodeURIComponent(address)}`,
      headers: { authorization: `Bearer ${CONSOLE_TOKEN}` },
    });
    assert.equal(res.statusCode, 200, res.body);
    const mine = lines.filter((line) => line.includes(res.headers['x-request-id'] as string));
    assert.ok(
      mine.some((line) => line.includes('/console/v1/mail?to=[redacted]')),
      mine.join('\n'),
    );
    assert.ok(!lines.join('\n').includes(address.split('@')[0]!));
  });
});

describe('task errors and logged errors', () => {
  test("a refused recipient: the stored last error, the console's view and the log hold no address", async () => {
    const applied = await applyWithCv(ctx, { body: { email: `refused-${Date.now()}@example.com` } });
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    const local = applied.email.split('@')[0]!;
    // A worker that logs through the app's logger, as main.ts runs it.
    const worker = createWorker({
      db: ctx.handle.db,
      clock: ctx.clock,
      handlers: ctx.services.taskHandlers,
      log: ctx.app.log.child({ component: 'worker' }),
      pollMs: 50,
    });
    await drainAll(worker);
    await worker.stop();
    const row = await ctx.handle.db
      .selectFrom('tasks')
      .select(['last_error', 'attempts'])
      .where('key', '=', `send-claim-mail:application:${applied.applicationId}`)
      .executeTakeFirstOrThrow();
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /Recipient address rejected/, 'the reason is kept');
    assert.ok(row.last_error?.includes(SCRUBBED_EMAIL), row.last_error ?? '');
    assert.ok(!row.last_error?.includes(local), row.last_error ?? '');

    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/console/v1/tasks?state=queued',
      headers: { authorization: `Bearer ${CONSOLE_TOKEN}` },
    });
    assert.ok(!listed.body.includes(local));

    const failure = lines.find((line) => line.includes('task failed; will retry'));
    assert.ok(failure, 'the failure is logged');
    assert.match(failure, /Recipient address rejected/);
    assert.ok(!lines.join('\n').includes(local), 'no log line holds the address');
  });

  test('a 500 whose error names an address: logged with the request id, the address scrubbed', async () => {
    const failing = await startApp({
      logger: loggerOptions('info', capture),
      wrapServices: (services) => ({
        ...services,
        jobs: {
          ...services.jobs,
          list: async () => {
            throw new Error('lookup failed for owner carla.mendes@example.net (shard 3)');
          },
        },
      }),
    });
    try {
      const { key } = await jobsAccount(failing.app);
      const res = await failing.app.inject({
        method: 'GET',
        url: '/v1/jobs',
        headers: { authorization: `Bearer ${key.secret}` },
      });
      assert.equal(res.statusCode, 500);
      const requestId = res.headers['x-request-id'] as string;
      const logged = lines.filter((line) => line.includes(requestId)).join('\n');
      assert.match(logged, /lookup failed for owner \[email\] \(shard 3\)/);
      assert.ok(!lines.join('\n').includes('carla.mendes'));
    } finally {
      await failing.close();
    }
  });
});
