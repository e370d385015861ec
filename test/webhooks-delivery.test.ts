import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPE_NAMES } from '../src/contract/events.ts';
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from '../src/domain/events/webhook-dispatcher.ts';
import { consoleCall, screeningAccount } from './support/accounts.ts';
import { type TestContext, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applyTo, importCandidate } from './support/intake.ts';
import { createPublished, managedJob } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/** A real HTTP endpoint on 127.0.0.1 that records what it receives and answers `status`. */
interface Receiver {
  url: string;
  port: number;
  received: { headers: Record<string, string>; body: string }[];
  status: number;
  close(): Promise<void>;
  reopen(): Promise<void>;
}

const receivers: Receiver[] = [];

async function receiver(port = 0): Promise<Receiver> {
  const state: Receiver = {
    url: '',
    port,
    received: [],
    status: 204,
    close: async () => {},
    reopen: async () => {},
  };
  let server: http.Server;
  const open = async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        state.received.push({
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(state.status).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(state.port, '127.0.0.1', resolve));
    state.port = (server.address() as AddressInfo).port;
    state.url = `http://127.0.0.1:${state.port}/hooks`;
  };
  await open();
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  state.reopen = open;
  receivers.push(state);
  return state;
}

const SILENT = { warn() {}, error() {} };
let dispatcher: ReturnType<TestContext['services']['webhookDispatcher']>;

const ctx = useTestApp({ webhooks: { allowPrivate: true } }, async () => {
  dispatcher = ctx.services.webhookDispatcher({ log: SILENT, pollMs: 20 });
});

after(async () => {
  for (const hook of receivers) await hook.close().catch(() => undefined);
  await dispatcher.stop();
});

async function subscribe(accountId: string, url: string, types?: string[]) {
  const res = await consoleCall(ctx.app, 'POST', `/accounts/${accountId}/webhooks`, {
    url,
    ...(types ? { types } : {}),
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  return res.json() as { webhook: { id: string; url: string; types: string[] }; secret: string };
}

function verified(secret: string, delivery: { headers: Record<string, string>; body: string }) {
  const event = new Webhook(secret).verify(delivery.body, delivery.headers) as {
    id: string;
    type: string;
    data: Record<string, unknown>;
  };
  assert.equal(delivery.headers['webhook-id'], event.id);
  return event;
}

async function log(accountId: string, webhookId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/webhooks/${webhookId}/deliveries`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().deliveries as {
    id: string;
    eventId: string;
    attempt: number;
    statusCode: number | null;
    error: string | null;
    at: string;
  }[];
}

describe('webhook deliveries to a real local receiver', () => {
  test('every event type arrives, signed to Standard Webhooks, webhook-id = event id', async () => {
    const hook = await receiver();
    const s = await screeningAccount(ctx.app);
    const { webhook, secret } = await subscribe(s.account.id, hook.url);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(webhook.types, EVENT_TYPE_NAMES);
    const listed = await consoleCall(ctx.app, 'GET', `/accounts/${s.account.id}/webhooks`);
    assert.ok(!listed.body.includes(secret.slice(6)), 'the list never shows the secret');

    // Natural causes: jobs, an application and its CV, an import, a screening invited and completed.
    const template = await newTemplate(ctx.app, s.account.id);
    const job = await managedJob(ctx.app, s.api, s.account.id);
    const applicant = await applyTo(ctx, s.api, job.id);
    const imported = await importCandidate(ctx, s.api);
    await drainAll(ctx.worker);
    const invited = await triggerScreening(s.api, job.id, applicant.candidateId, { templateId: template.id });
    assert.equal(invited.statusCode, 201, invited.body);
    const screeningId = invited.json().screening.screeningId;
    const done = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/screenings/${screeningId}/complete`,
    );
    assert.equal(done.statusCode, 200, done.body);
    const expiring = await createPublished(s.api, {}, { expiryDays: 30 });
    const edited = await s.api.patch(`/v1/jobs/${expiring.id}`, {
      title: 'Platform Engineer',
      publishEdits: true,
    });
    assert.equal(edited.statusCode, 200, edited.body);
    ctx.clock.advance(30 * 86_400_000 + 1000);
    // The expiry sweep keeps one position. On a PostgreSQL shared by every test file, a file whose
    // clock ran half a year ahead (the decision log's retention test) leaves it past this file's
    // clock; a service's clock only moves forward. Start this sweep afresh (a day's look back).
    await ctx.handle.db.deleteFrom('event_sweeps').where('name', '=', 'job.expired').execute();
    await ctx.services.events.sweepExpiredJobs();
    assert.equal((await s.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    // A recruiter's stage move, then erasure requests for the applicant and the imported person.
    const moved = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/applications/${applicant.candidateId}/stage`,
      { stage: 'reviewing' },
    );
    assert.equal(moved.statusCode, 200, moved.body);
    for (const email of [applicant.email, imported.email]) {
      const erased = await consoleCall(ctx.app, 'POST', `/accounts/${s.account.id}/people/erase`, { email });
      assert.equal(erased.statusCode, 200, erased.body);
    }
    // Types with no cause this test can reach cheaply are recorded as their services would.
    await ctx.handle.db.transaction().execute(async (trx) => {
      await ctx.services.events.record(trx, s.account.id, {
        type: 'application.withdrawn',
        data: {
          applicationId: applicant.candidateId,
          jobId: job.id,
          status: 'withdrawn',
          cvStatus: 'failed',
        },
      });
      await ctx.services.events.record(trx, s.account.id, {
        type: 'match.created',
        data: { matchId: 'mat_test', jobId: job.id, candidateId: applicant.candidateId },
      });
    });

    await dispatcher.drain();
    const events = hook.received.map((d) => verified(secret, d));
    assert.deepEqual(new Set(events.map((e) => e.type)), new Set(EVENT_TYPE_NAMES));
    assert.ok(events.some((e) => e.type === 'job.expired' && e.data.jobId === expiring.id));
    const text = hook.received.map((d) => d.body).join('\n');
    assert.ok(!text.includes(applicant.email) && !text.includes('@'), 'no address in any body');
    const entries = await log(s.account.id, webhook.id);
    assert.equal(entries.length, hook.received.length);
    assert.ok(entries.every((e) => e.statusCode === 204 && e.error === null && e.attempt === 1));
    await hook.close();
  });

  test('a subscription with types gets only those; another account’s webhook is 404', async () => {
    const hook = await receiver();
    const s = await screeningAccount(ctx.app);
    const { webhook, secret } = await subscribe(s.account.id, hook.url, ['job.closed']);
    const job = await createPublished(s.api);
    await s.api.post(`/v1/jobs/${job.id}/close`);
    await dispatcher.drain();
    assert.deepEqual(
      hook.received.map((d) => verified(secret, d).type),
      ['job.closed'],
    );
    const other = await screeningAccount(ctx.app);
    for (const [method, path] of [
      ['GET', `/accounts/${other.account.id}/webhooks/${webhook.id}/deliveries`],
      ['DELETE', `/accounts/${other.account.id}/webhooks/${webhook.id}`],
    ] as const) {
      const res = await consoleCall(ctx.app, method, path);
      assert.equal(res.statusCode, 404, `${method} ${path}`);
    }
    const gone = await consoleCall(ctx.app, 'DELETE', `/accounts/${s.account.id}/webhooks/${webhook.id}`);
    assert.equal(gone.statusCode, 204);
    const after = await consoleCall(
      ctx.app,
      'GET',
      `/accounts/${s.account.id}/webhooks/${webhook.id}/deliveries`,
    );
    assert.equal(after.statusCode, 404, `the deleted webhook's deliveries: ${after.body}`);
    assert.equal(after.json().error.code, 'not_found');
    await hook.close();
  });

  test('a failed attempt is retried within a minute with the same webhook-id', async () => {
    const hook = await receiver();
    hook.status = 500;
    const s = await screeningAccount(ctx.app);
    const { webhook, secret } = await subscribe(s.account.id, hook.url);
    await createPublished(s.api);
    await dispatcher.drain();
    assert.equal(hook.received.length, 1);
    hook.status = 200;
    await dispatcher.drain();
    assert.equal(hook.received.length, 1, 'not before its time');
    ctx.clock.advance(60_000);
    await dispatcher.drain();
    assert.equal(hook.received.length, 2);
    const [first, second] = hook.received.map((d) => verified(secret, d));
    assert.equal(first!.id, second!.id);
    const entries = await log(s.account.id, webhook.id);
    assert.deepEqual(
      entries.map((e) => [e.attempt, e.statusCode]),
      [
        [2, 200],
        [1, 500],
      ],
    );
    assert.equal(entries[1]!.error, 'answered 500');
    await hook.close();
  });

  test('a receiver down for hours gets everything once it is back', async () => {
    const hook = await receiver();
    const s = await screeningAccount(ctx.app);
    const { secret } = await subscribe(s.account.id, hook.url);
    await hook.close();
    const jobs = [];
    for (let i = 0; i < 3; i++) jobs.push(await createPublished(s.api));
    for (let i = 0; i < 4; i++) {
      await dispatcher.drain();
      ctx.clock.advance(RETRY_SCHEDULE_MS[i]! * 1.2);
    }
    await hook.reopen();
    ctx.clock.advance(RETRY_SCHEDULE_MS[4]! * 1.2);
    await dispatcher.drain();
    const got = hook.received.map((d) => verified(secret, d).data.jobId);
    assert.deepEqual(new Set(got), new Set(jobs.map((j) => j.id)));
    await hook.close();
  });

  test('after its last attempt a delivery is failed and visible; retry delivers it again now', async () => {
    const hook = await receiver();
    hook.status = 503;
    const s = await screeningAccount(ctx.app);
    const { webhook } = await subscribe(s.account.id, hook.url);
    await createPublished(s.api);
    let elapsed = 0;
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      await dispatcher.drain();
      const step = (RETRY_SCHEDULE_MS[Math.min(i, RETRY_SCHEDULE_MS.length - 1)] ?? 0) * 1.2;
      ctx.clock.advance(step);
      elapsed += step;
    }
    assert.equal(hook.received.length, MAX_ATTEMPTS);
    assert.ok(elapsed >= 24 * 3_600_000);
    const row = await ctx.handle.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhook.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.state, 'failed');
    const entries = await log(s.account.id, webhook.id);
    assert.equal(entries.length, MAX_ATTEMPTS);
    hook.status = 200;
    const retried = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/webhooks/${webhook.id}/deliveries/${entries[0]!.id}/retry`,
    );
    assert.equal(retried.statusCode, 202, retried.body);
    await dispatcher.drain();
    assert.equal(hook.received.length, MAX_ATTEMPTS + 1);
    assert.equal((await log(s.account.id, webhook.id))[0]!.statusCode, 200);
    const unknown = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${s.account.id}/webhooks/${webhook.id}/deliveries/wha_nope/retry`,
    );
    assert.equal(unknown.statusCode, 404);
    await hook.close();
  });

  test('subscriptions refuse what is not a URL, an unknown type, a missing account', async () => {
    const s = await screeningAccount(ctx.app);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ url: 'not a url' }, 400, 'url'],
      [{ url: 'ftp://example.com/x' }, 400, 'url'],
      [{ url: 'https://example.com/x', types: ['job.exploded'] }, 400, 'types'],
      [{ url: 'https://example.com/x', types: [] }, 400, 'types'],
      [{ url: 'https://example.com/x', secret: 'mine' }, 400, 'secret'],
    ];
    for (const [body, status, field] of cases) {
      const res = await consoleCall(ctx.app, 'POST', `/accounts/${s.account.id}/webhooks`, body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)} → ${res.body}`);
      assert.ok(JSON.stringify(errorOf(res)).includes(field), res.body);
    }
    const missing = await consoleCall(ctx.app, 'POST', '/accounts/acc_missing/webhooks', {
      url: 'https://example.com/x',
    });
    assert.equal(missing.statusCode, 404);
  });
});
