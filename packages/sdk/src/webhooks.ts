import type { webhooks } from './schema.ts';

/** The body of each event type the service delivers, discriminated by the webhook's name. */
export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K]['post'] extends {
    requestBody: { content: { 'application/json': infer B } };
  }
    ? B
    : never;
}[keyof webhooks];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

function header(headers: Headers, name: string): string {
  const value = headers instanceof globalThis.Headers ? headers.get(name) : headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text === '') throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a delivery per Standard Webhooks: `webhook-signature` holds `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` under the endpoint's `whsec_` secret, and `webhook-timestamp` is within
 * `toleranceSeconds` of now (replays of old deliveries are refused). Pass the raw body text, before
 * any JSON parsing. Answers the parsed event; throws WebhookVerificationError otherwise.
 */
export async function verifyWebhook(
  secret: string,
  headers: Headers,
  rawBody: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp is too old or too new');
  }
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.replace(/^whsec_/, '')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const expected = toBase64(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${rawBody}`)),
  );
  const matches = signatures
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && sameText(entry.slice(3), expected));
  if (!matches) throw new WebhookVerificationError('no webhook-signature matches the secret');
  return JSON.parse(rawBody) as WebhookEvent;
}
