// An SMTP server in the test's process (smtp-server), for the SMTP_URL transport: it records what
// it receives and refuses at RCPT TO what `refuse` says, with the reply a mail server would give.
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { SMTPServer } from 'smtp-server';

export interface Received {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> */
  url: string;
  /** Every message received, oldest first. */
  received: Received[];
}

const servers = new Set<SMTPServer>();
// Registered as this module loads (a test file's top level): a hook registered while another hook
// runs would not wait for the file's tests.
after(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  servers.clear();
});

/**
 * Starts an SMTP server on a free port of 127.0.0.1 (closed after the file's tests). `refuse`
 * answers the 550 reply's text for a recipient it refuses, or null to accept it.
 */
export async function startSmtpServer(
  refuse: (address: string) => string | null = () => null,
): Promise<SmtpSink> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refuse(address.address);
      if (refusal === null) return callback();
      callback(Object.assign(new Error(refusal), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.add(server);
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, received };
}
