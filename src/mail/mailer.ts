import type { Transporter } from 'nodemailer';
import type { Db } from '../db/connect.ts';
import type { Clock } from '../lib/clock.ts';
import type { SafeHtml } from '../lib/html.ts';
import { newId } from '../lib/ids.ts';
import { mailRepository } from './mail-repository.ts';

export interface MailMessage {
  /** Unique per intended message: sending the same key again sends nothing. */
  key: string;
  /** What the message is about (e.g. `application:app_…`), so erasing that subject erases its mail. */
  subjectRef: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML part: a template's output (src/lib/html.ts), never a string built by hand. */
  html: SafeHtml;
  locale: string;
  /** False for test mode's mail (extensions.md §8): it goes to the outbox only, never SMTP. */
  livemode?: boolean;
}

export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** The default transport: the message is kept in the outbox table, which the console lists. */
export function outboxMailer(deps: { db: Db; clock: Clock }): Mailer {
  return {
    kind: 'outbox',
    async send(message) {
      await mailRepository.insertOutbox(deps.db, {
        id: newId('msg', deps.clock.now()),
        key: message.key,
        subject_ref: message.subjectRef,
        recipient: message.to.toLowerCase(),
        subject: message.subject,
        text_body: message.text,
        html_body: String(message.html),
        locale: message.locale,
        sent_at: deps.clock.now(),
      });
    },
    async close() {},
  };
}

/**
 * SMTP through nodemailer. The key is recorded after the server accepts the message; a retry
 * finds it and sends nothing. The Message-ID is derived from the key, so in the one window left
 * (a crash between acceptance and the record) a resend carries the same Message-ID.
 */
export function smtpMailer(deps: { db: Db; clock: Clock; url: string; from: string }): Mailer {
  // Loaded on the first message: a service on the outbox never loads nodemailer.
  let transport: Transporter | null = null;
  const open = async () => {
    transport ??= (await import('nodemailer')).default.createTransport(deps.url);
    return transport;
  };
  const domain = deps.from.match(/@([^>\s]+)/)?.[1] ?? 'careers.invalid';
  return {
    kind: 'smtp',
    async send(message) {
      if (await mailRepository.wasSent(deps.db, message.key)) return;
      await (await open()).sendMail({
        from: deps.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: String(message.html),
        messageId: `<${Buffer.from(message.key).toString('base64url')}@${domain}>`,
        headers: { 'Content-Language': message.locale },
      });
      await mailRepository.markSent(deps.db, message.key, message.subjectRef, deps.clock.now());
    },
    async close() {
      transport?.close();
    },
  };
}

/**
 * Test mode (extensions.md §8): a message with `livemode: false` goes to the outbox whatever the
 * transport, so with SMTP_URL set the outbox lists test mail only; the rest goes to `live`.
 */
export function modeMailer(live: Mailer, deps: { db: Db; clock: Clock }): Mailer {
  if (live.kind === 'outbox') return live;
  const outbox = outboxMailer(deps);
  return {
    kind: live.kind,
    send: (message) => (message.livemode === false ? outbox.send(message) : live.send(message)),
    close: () => live.close(),
  };
}
