import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../src/http/types.ts';
import { consoleCall, unique } from './support/accounts.ts';
import { BASE_URL } from './support/app.ts';

export const PASSWORD = 'correct horse battery staple';

/** A browser over app.inject: keeps cookies (honouring Max-Age=0), reads the forms' CSRF token. */
export class WebClient {
  readonly cookies = new Map<string, string>();
  lastHtml = '';
  readonly app: App;
  readonly ip: string;
  constructor(app: App, ip = '203.0.113.10') {
    this.app = app;
    this.ip = ip;
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const raw = res.headers['set-cookie'];
    const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    for (const line of list) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    if ((res.headers['content-type'] ?? '').toString().startsWith('text/html')) this.lastHtml = res.body;
    return res;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({
        method: 'GET',
        url: path,
        remoteAddress: this.ip,
        headers: { cookie: this.cookieHeader() },
      }),
    );
  }

  /** Posts a form; `csrf` defaults to the token of the last page read. */
  async post(path: string, fields: Record<string, string | string[]> = {}): Promise<LightMyRequestResponse> {
    const params = new URLSearchParams();
    if (!('csrf' in fields)) params.append('csrf', this.csrf());
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
    }
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url: path,
        remoteAddress: this.ip,
        headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: params.toString(),
      }),
    );
  }

  csrf(): string {
    return /name="csrf" value="([^"]+)"/.exec(this.lastHtml)?.[1] ?? '';
  }
}

/** Invites `role` to the account by the operator API; answers the user id and the invitation path. */
export async function invite(
  app: App,
  accountId: string,
  role: string,
  email = `${unique('person')}@example.com`.toLowerCase(),
) {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/users`, { email, role });
  if (res.statusCode !== 201) throw new Error(`invite: ${res.body}`);
  const { user, inviteUrl } = res.json();
  return { userId: user.id as string, email, path: (inviteUrl as string).slice(BASE_URL.length) };
}

/** A signed-in browser for a new user of `role` (invited, password set). */
export async function signedIn(app: App, accountId: string, role: string, ip?: string) {
  const invited = await invite(app, accountId, role);
  const web = new WebClient(app, ip);
  await web.get(invited.path);
  const res = await web.post(invited.path, { password: PASSWORD });
  if (res.statusCode !== 303) throw new Error(`accept: ${res.statusCode} ${res.body}`);
  await web.get(res.headers.location as string);
  return { web, ...invited };
}
