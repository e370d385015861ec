import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { ManualClock } from '../src/lib/clock.ts';
import { smtpMailer } from '../src/mail/mailer.ts';
import { loggerOptions } from '../src/plugins/log.ts';
import { consoleCall } from './support/accounts.ts';
import { BASE_URL, database, listen, startApp, useTestApp } from './support/app.ts';
import { applyWithCv } from './support/intake.ts';
import { claimLinksIn, drainAll, linkPath, mailTo } from './support/mail.ts';
import { type Received, startSmtpServer } from './support/smtp.ts';

/**
 * SMTP_URL: candidate mail delivered over SMTP (nodemailer) to an SMTP server the test runs in
 * this process. The claim mail arrives once, with its To, subject and both parts; a retried task
 * sends nothing more; a refusing or unreachable server makes the task fail, retry and end as a
 * dead letter an operator can requeue, never lost.
 */

/** Recipients the server refuses with a 550 at RCPT TO while they are listed. */
const refusing = new Set<string>();
let received: Received[];
const FROM = 'Careers <no-reply@careers.test>';

// The SMTP server first: the app's mailer speaks to it.
const ctx = useTestApp(async () => {
  const smtp = await startSmtpServer((address) =>
    refusing.has(address.toLowerCase()) ? 'Mailbox unavailable' : null,
  );
  received = smtp.received;
  const handle = await database();
  const clock = new ManualClock(new Date());
  const mailer = smtpMailer({ db: handle.db, clock, url: smtp.url, from: FROM });
  return {
    clock,
    handle,
    mailer,
    // Errors (a 500's cause) go to stderr, redacted as in production.
    logger: { ...(loggerOptions('error') as object), stream: process.stderr },
  };
});

// ---- a small MIME reader: headers, RFC 2047 words, multipart parts, QP and base64 ----

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(at + 4) };
}

function decodeQp(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQp(text.replace(/_/g, ' ')),
    );
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQp(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

interface Parsed {
  headers: Map<string, string>;
  subject: string;
  parts: { type: string; text: string }[];
}

function parse(raw: string): Parsed {
  const { headers, body } = splitHead(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const parts: Parsed['parts'] = [];
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitHead(chunk.replace(/^\r\n/, ''));
      parts.push({
        type: (part.headers.get('content-type') ?? '').split(';')[0]!,
        text: decodeBody(part.headers, part.body.replace(/\r\n$/, '')),
      });
    }
  } else {
    parts.push({ type: type.split(';')[0]!, text: decodeBody(headers, body) });
  }
  return { headers, subject: decodeWords(headers.get('subject') ?? ''), parts };
}

function deliveredTo(address: string): Received[] {
  return received.filter((m) => m.rcptTo.includes(address));
}

async function task(key: string) {
  return ctx.handle.db.selectFrom('tasks').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
}

async function cvStatus(id: string) {
  const row = await ctx.handle.db
    .selectFrom('applications')
    .select('cv_status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.cv_status;
}

// ---- delivery ----

describe('claim mail over SMTP', () => {
  let flow: Awaited<ReturnType<typeof applyWithCv>>;
  let link: string;

  test('the claim mail arrives once: envelope, To, subject in the receipt’s language, text and HTML parts', async () => {
    flow = await applyWithCv(ctx, {
      locale: 'es',
      companyName: 'Ébano Logística',
      title: 'Ingeniera de Backend',
    });
    assert.equal(flow.res.statusCode, 201, flow.res.body);
    await drainAll(ctx.worker);
    assert.equal(await cvStatus(flow.applicationId), 'staged');

    const mails = deliveredTo(flow.email);
    assert.equal(mails.length, 1, 'one message delivered');
    const mail = mails[0]!;
    assert.deepEqual(mail.rcptTo, [flow.email]);
    assert.equal(mail.mailFrom, 'no-reply@careers.test');

    const parsed = parse(mail.raw);
    assert.equal(parsed.headers.get('to'), flow.email);
    assert.match(parsed.headers.get('from') ?? '', /no-reply@careers\.test/);
    assert.equal(parsed.subject, 'Tu CV para Ingeniera de Backend en Ébano Logística');
    assert.equal(parsed.headers.get('content-language'), 'es');
    assert.match(parsed.headers.get('content-type') ?? '', /^multipart\/alternative/);
    assert.match(
      parsed.headers.get('message-id') ?? '',
      new RegExp(
        `^<${Buffer.from(`claim:application:${flow.applicationId}`).toString('base64url')}@careers\\.test>$`,
      ),
      'a Message-ID derived from the mail key',
    );

    const text = parsed.parts.find((p) => p.type === 'text/plain');
    const html = parsed.parts.find((p) => p.type === 'text/html');
    assert.ok(text, 'a text/plain part');
    assert.ok(html, 'a text/html part');
    assert.ok(text.text.startsWith('Hola, Marisol:'), text.text);
    assert.match(html.text, /<html lang="es">/);
    const links = claimLinksIn(text.text);
    assert.equal(links.length, 1, text.text);
    link = links[0]!;
    assert.match(link, /\/cv\/[A-Za-z0-9_-]{43}$/);
    assert.ok(link.startsWith(`${BASE_URL}/cv/`));
    assert.deepEqual([...new Set(claimLinksIn(html.text))], [link]);

    // Delivered, so kept nowhere else: the outbox lists nothing; the key is recorded as sent.
    assert.deepEqual(await mailTo(ctx.app, flow.email), []);
    const sent = await ctx.handle.db
      .selectFrom('mail_sent')
      .selectAll()
      .where('key', '=', `claim:application:${flow.applicationId}`)
      .execute();
    assert.equal(sent.length, 1);
  });

  test('a retry of the same task (worker died after the send) sends nothing more', async () => {
    const key = `send-claim-mail:application:${flow.applicationId}`;
    const done = await task(key);
    assert.equal(done.state, 'done');
    await ctx.handle.db
      .updateTable('tasks')
      .set({ state: 'running', locked_by: 'dead-worker', locked_until: ctx.clock.now(), finished_at: null })
      .where('id', '=', done.id)
      .execute();
    await drainAll(ctx.worker);
    const rerun = await task(key);
    assert.equal(rerun.state, 'done');
    assert.equal(rerun.attempts, 2, 'the task ran again');
    await ctx.services.taskHandlers['send-claim-mail'](
      { kind: 'application', id: flow.applicationId },
      rerun,
    );
    assert.equal(deliveredTo(flow.email).length, 1, 'still one message');
  });

  test('the emailed link works over a real socket: page, then the claim form', async () => {
    const base = await listen(ctx.app);
    const path = linkPath(link);
    const page = await fetch(`${base}${path}`);
    assert.equal(page.status, 200, await page.clone().text());
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const body = await page.text();
    assert.ok(body.includes('Tu CV virtual'));
    assert.ok(body.includes('Ingeniera de Backend'));
    assert.ok(body.includes('Ébano Logística'));

    const claim = await fetch(`${base}${path}/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    const claimBody = await claim.clone().text();
    assert.equal(claim.status, 200, claimBody);
    assert.ok((await claim.text()).includes('el CV es tuyo'));
    const status = await flow.api.get(`/v1/applications/${flow.applicationId}`);
    assert.equal(status.json().cvStatus, 'claimed');
    assert.equal(status.json().claimedAt, ctx.clock.now().toISOString());
    const again = await fetch(`${base}${path}`);
    assert.equal(again.status, 200, 'the link keeps showing the claimed CV');
    assert.ok(!(await again.text()).includes(`${path}/claim"`), 'without the claim button');
    assert.equal(deliveredTo(flow.email).length, 1);
  });
});

// ---- refusals ----

describe('an SMTP server that refuses', () => {
  test('a refused recipient: the task fails and retries, then is dead-lettered (not lost), and a console retry delivers once', async () => {
    const before = received.length;
    const applied = await applyWithCv(ctx, { body: { email: `refuse-${Date.now()}@example.com` } });
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    refusing.add(applied.email);
    const key = `send-claim-mail:application:${applied.applicationId}`;

    await drainAll(ctx.worker);
    assert.equal(await cvStatus(applied.applicationId), 'staged');
    let row = await task(key);
    assert.equal(row.state, 'queued', 'failed and queued again');
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /550|Mailbox unavailable|Recipient/i);
    assert.ok(row.run_after.getTime() > ctx.clock.now().getTime(), 'after a backoff');
    const notSent = await ctx.handle.db
      .selectFrom('mail_sent')
      .select('key')
      .where('key', '=', `claim:application:${applied.applicationId}`)
      .execute();
    assert.deepEqual(notSent, [], 'a refused message is not recorded as sent');

    while (row.state !== 'dead') {
      ctx.clock.advance(2 * 3_600_000);
      await drainAll(ctx.worker);
      row = await task(key);
      assert.ok(row.attempts <= row.max_attempts);
    }
    assert.equal(row.attempts, row.max_attempts);
    assert.equal(received.length, before, 'nothing was delivered');

    const dead = await consoleCall(ctx.app, 'GET', '/tasks?state=dead');
    const listed = dead.json().tasks.find((t: { key: string }) => t.key === key);
    assert.ok(listed, dead.body);
    assert.match(listed.lastError, /550|Mailbox unavailable|Recipient/i);

    refusing.delete(applied.email);
    const retried = await consoleCall(ctx.app, 'POST', `/tasks/${row.id}/retry`);
    assert.equal(retried.statusCode, 200, retried.body);
    await drainAll(ctx.worker);
    assert.equal((await task(key)).state, 'done');
    assert.equal(deliveredTo(applied.email).length, 1, 'delivered once');
  });

  test('an unreachable server: the task fails with the connection error; the retry delivers once a server answers', async () => {
    const closed = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
    });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const clock = new ManualClock(ctx.clock.now());
    const c = await startApp({
      clock,
      handle: ctx.handle,
      mailer: smtpMailer({ db: ctx.handle.db, clock, url: `smtp://127.0.0.1:${deadPort}`, from: FROM }),
    });
    const applied = await applyWithCv(c);
    await drainAll(c.worker);
    const row = await c.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('key', '=', `send-claim-mail:application:${applied.applicationId}`)
      .executeTakeFirstOrThrow();
    assert.equal(row.state, 'queued');
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /ECONNREFUSED|connect/i);
    assert.equal(await cvStatus(applied.applicationId), 'staged');
    assert.deepEqual(deliveredTo(applied.email), []);

    // The server is back (a worker whose SMTP_URL reaches it): the retry delivers, once.
    ctx.clock.set(new Date(clock.now().getTime() + 3_600_000));
    await drainAll(ctx.worker);
    const retried = await c.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    assert.equal(retried.state, 'done');
    assert.equal(retried.attempts, 2);
    assert.equal(deliveredTo(applied.email).length, 1);
  });
});
