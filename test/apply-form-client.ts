import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../src/http/types.ts';
import { linkPath } from './support/mail.ts';

/** The hosted apply form as a browser without JavaScript drives it (shared by the apply tests). */
export interface OpenForm {
  res: LightMyRequestResponse;
  token: string;
  nonce: string;
  /** The form's action, as the page writes it (path and query). */
  action: string;
  hidden: Record<string, string>;
}

export async function openForm(app: App, applyLink: string, query = '', ip?: string): Promise<OpenForm> {
  const res = await app.inject({
    method: 'GET',
    url: `${linkPath(applyLink)}${query}`,
    ...(ip ? { remoteAddress: ip } : {}),
  });
  assert.equal(res.statusCode, 200, res.body);
  return formOf(res);
}

/** The form in a page (a form answered again after an error included). */
export function formOf(res: LightMyRequestResponse): OpenForm {
  const token = /name="csrf" value="([^"]+)"/.exec(res.body)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(res.body)?.[1]?.replace(/&amp;/g, '&');
  const cookie = res.cookies.find((c) => c.name === 'apply_csrf');
  assert.ok(token && action && cookie, 'a form with its token, action and cookie');
  const hidden: Record<string, string> = {};
  for (const m of res.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[m[1]!] = m[2]!;
  return { res, token, nonce: cookie.value, action, hidden };
}

export interface FormFile {
  name: string;
  bytes: Buffer;
}

/** The multipart body a browser sends for `fields` and `file`. */
export async function multipart(fields: Record<string, string>, file?: FormFile) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('cv', new Blob([file.bytes], { type: 'application/pdf' }), file.name);
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

/** Sends the form to its action with the cookie, from `ip`. */
export async function send(
  app: App,
  form: OpenForm,
  fields: Record<string, string>,
  options: { file?: FormFile; ip: string; query?: string; headers?: Record<string, string> },
): Promise<LightMyRequestResponse> {
  const { body, contentType } = await multipart({ ...form.hidden, website: '', ...fields }, options.file);
  return app.inject({
    method: 'POST',
    url: `${form.action}${options.query ?? ''}`,
    payload: body,
    headers: {
      'content-type': contentType,
      'user-agent': 'ApplyHostileTest/1.0',
      cookie: `apply_csrf=${form.nonce}`,
      ...options.headers,
    },
    remoteAddress: options.ip,
  });
}

/** A page's visible text. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<head>[\s\S]*?<\/head>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A page with what differs between two answers of the same kind removed (tokens, ids, the email). */
export function normalized(html: string, email: string): string {
  return html
    .replace(/\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}/g, 'TOKEN')
    .replace(/job_[a-z0-9]+/g, 'JOB')
    .split(email)
    .join('EMAIL');
}
