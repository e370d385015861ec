// Virtual CVs and candidate mail: the worker, the outbox, claim links.
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/http/types.ts';
import type { Worker } from '../../src/tasks/worker.ts';
import { consoleCall } from './accounts.ts';
import { BASE_URL } from './app.ts';

/** Runs the worker until nothing is due (one `drain()` stops after its rounds); answers how many ran. */
export async function drainAll(worker: Pick<Worker, 'drain'>): Promise<number> {
  let total = 0;
  for (;;) {
    const ran = await worker.drain();
    total += ran;
    if (ran === 0) return total;
  }
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  locale: string;
  sentAt: string;
}

/** GET /console/v1/mail?to=: what the outbox transport sent to one address, oldest first. */
export async function mailTo(app: App, address: string): Promise<OutboxMessage[]> {
  const res = await consoleCall(app, 'GET', `/mail?to=${encodeURIComponent(address)}`);
  if (res.statusCode !== 200) throw new Error(`mail list: ${res.statusCode} ${res.body}`);
  return res.json().messages;
}

/** Every claim-link URL (`…/cv/<token>`) in a text or an HTML body. */
export function claimLinksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s"'<>]+\/cv\/[^\s"'<>]+/g) ?? [];
}

/** The path of a link under BASE_URL, which is what app.inject takes. */
export function linkPath(link: string): string {
  if (!link.startsWith(`${BASE_URL}/`)) throw new Error(`not a link of ${BASE_URL}: ${link}`);
  return link.slice(BASE_URL.length);
}

/** POSTs an empty HTML form to `path`, as a browser's button does. */
export function postForm(app: App, path: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
}
