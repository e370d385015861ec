// Accounts, keys and API clients, made through the console API as an operator would.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/http/types.ts';
import { CONSOLE_TOKEN } from './app.ts';

type Body = Record<string, unknown> | unknown[] | undefined;

export async function consoleCall(
  app: App,
  method: InjectOptions['method'],
  url: string,
  body?: Body,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/console/v1${url}`,
    headers: { authorization: `Bearer ${CONSOLE_TOKEN}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

let seq = 0;
export function unique(prefix: string): string {
  seq += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq}`;
}

export async function newAccount(
  app: App,
  fields: {
    companyAddress?: string | null;
    dpa?: boolean;
    limits?: Record<string, number>;
    companyName?: string;
  } = {},
): Promise<{ id: string; companyAddress: string | null }> {
  const address = fields.companyAddress === undefined ? unique('co') : fields.companyAddress;
  const created = await consoleCall(app, 'POST', '/accounts', {
    name: 'Test Co',
    companyName: fields.companyName ?? 'Test Company',
    companyAddress: address,
  });
  if (created.statusCode !== 201) throw new Error(`account: ${created.body}`);
  const account = created.json().account;
  if (fields.dpa || fields.limits) {
    const patched = await consoleCall(app, 'PATCH', `/accounts/${account.id}`, {
      ...(fields.dpa ? { dpaAccepted: true } : {}),
      ...(fields.limits ? { limits: fields.limits } : {}),
    });
    if (patched.statusCode !== 200) throw new Error(`account patch: ${patched.body}`);
  }
  return { id: account.id, companyAddress: address };
}

export async function newKey(
  app: App,
  accountId: string,
  scopes: string[],
  mode?: 'live' | 'test',
): Promise<{ id: string; secret: string }> {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/keys`, {
    scopes,
    name: 'test',
    ...(mode ? { mode } : {}),
  });
  if (res.statusCode !== 201) throw new Error(`key: ${res.body}`);
  return { id: res.json().key.id, secret: res.json().secret };
}

/** A client for one API key. */
export function client(app: App, secret: string) {
  const call = (
    method: InjectOptions['method'],
    url: string,
    body?: Body,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${secret}`, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, body?: Body, headers?: Record<string, string>) => call('POST', url, body, headers),
    patch: (url: string, body?: Body, headers?: Record<string, string>) => call('PATCH', url, body, headers),
  };
}

/** What `client()` answers: get, post and patch with one API key. */
export type ApiClient = ReturnType<typeof client>;

/** An account with a key holding every job scope, ready to write and read jobs. */
export async function jobsAccount(app: App, fields: Parameters<typeof newAccount>[1] = {}) {
  const account = await newAccount(app, fields);
  const key = await newKey(app, account.id, ['jobs:read', 'jobs:write']);
  return { account, key, api: client(app, key.secret) };
}

type AccountFields = Parameters<typeof newAccount>[1];

/**
 * An account that accepted the DPA, with one key holding `scopes`, and a high per-minute limit so
 * a test's many calls are not rate limited; `limits` add or override.
 */
async function dpaAccount(app: App, scopes: string[], fields: AccountFields = {}) {
  const account = await newAccount(app, {
    ...fields,
    dpa: true,
    limits: { requestsPerMinute: 100_000, ...fields.limits },
  });
  const key = await newKey(app, account.id, scopes);
  return { account, key, api: client(app, key.secret) };
}

/** dpaAccount with applications:write and the job scopes. */
export function intakeAccount(app: App, fields: AccountFields = {}) {
  return dpaAccount(app, ['applications:write', 'jobs:read', 'jobs:write'], fields);
}

/** dpaAccount with `screening` too; `limits` e.g. `includedScreeningsPerManagedAd`. */
export function screeningAccount(app: App, fields: AccountFields = {}) {
  return dpaAccount(app, ['applications:write', 'jobs:read', 'jobs:write', 'screening'], fields);
}
