import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/console-users/audit-service.ts';
import { can, type Right } from '../../domain/console-users/rights.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { AppError, forbidden } from '../../domain/errors.ts';
import type { Services } from '../../domain/services.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import type { RateLimitStore } from '../../rate-limit/store.ts';
import { type Form, formOf } from '../pages/form-body.ts';
import type { App } from '../types.ts';
import { consoleError } from './layout.ts';

export const SESSION_COOKIE = 'console_session';
const PRE_CSRF_COOKIE = 'console_csrf';
const FLASH_COOKIE = 'console_flash';

export interface WebDeps {
  services: Services;
  rateLimits: RateLimitStore;
  clock: Clock;
  secureCookies: boolean;
  /** Where the hosted pages answer (the careers embed's snippet names it). */
  publicBaseUrl?: string;
}

// The console reads its forms as the hosted pages do (one parser, one shape).
export type { Form };
export { formOf };

export function cookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function setCookie(
  reply: FastifyReply,
  deps: Pick<WebDeps, 'secureCookies'>,
  name: string,
  value: string,
  options: { maxAge?: number; sameSite?: 'Lax' | 'Strict' } = {},
): void {
  const parts = [
    `${name}=${value}`,
    'Path=/console',
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
    ...(options.maxAge === undefined ? [] : [`Max-Age=${options.maxAge}`]),
    ...(deps.secureCookies ? ['Secure'] : []),
  ];
  const existing = reply.getHeader('set-cookie');
  const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The CSRF token of a signed-out form (sign-in, invitation): a cookie the form must repeat. */
export function preSessionToken(request: FastifyRequest, reply: FastifyReply, deps: WebDeps): string {
  const current = cookie(request, PRE_CSRF_COOKIE);
  if (current !== undefined && /^[A-Za-z0-9_-]{43}$/.test(current)) return current;
  const token = randomToken(32);
  setCookie(reply, deps, PRE_CSRF_COOKIE, token, { maxAge: 7200, sameSite: 'Strict' });
  return token;
}

export function preSessionTokenValid(request: FastifyRequest): boolean {
  const expected = cookie(request, PRE_CSRF_COOKIE);
  return expected !== undefined && sameToken(formOf(request).get('csrf'), expected);
}

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

export function setFlash(reply: FastifyReply, deps: WebDeps, flash: Flash): void {
  setCookie(reply, deps, FLASH_COOKIE, Buffer.from(JSON.stringify(flash)).toString('base64url'), {
    maxAge: 60,
  });
}

/** The message the previous action left, read once. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply, deps: WebDeps): Flash | null {
  const raw = cookie(request, FLASH_COOKIE);
  if (raw === undefined) return null;
  setCookie(reply, deps, FLASH_COOKIE, '', { maxAge: 0 });
  try {
    const flash = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Flash;
    if ((flash.kind === 'ok' || flash.kind === 'error') && typeof flash.text === 'string') {
      return { kind: flash.kind, text: flash.text.slice(0, 500) };
    }
  } catch {}
  return null;
}

export function actorOf(session: ConsoleSession): Actor {
  return { kind: 'user', userId: session.userId, email: session.email };
}

export async function sessionOf(request: FastifyRequest, deps: WebDeps): Promise<ConsoleSession | null> {
  const id = cookie(request, SESSION_COOKIE);
  return id === undefined ? null : deps.services.consoleUsers.session(id);
}

export interface PageContext {
  request: FastifyRequest;
  reply: FastifyReply;
  session: ConsoleSession;
  flash: Flash | null;
}

type PageHandler = (ctx: PageContext) => Promise<unknown>;
type ActionHandler = (
  ctx: Omit<PageContext, 'flash'> & { form: Form },
) => Promise<{ to: string; flash: string } | undefined>;

/** The handlers page() and action() made: a route serving one names its right in its config. */
const rightChecked = new WeakSet<object>();

/**
 * Refuses at registration a page or form whose route names no `config.right` (onRoute hook of the
 * console): a right lives in one place, the route's config, where the guard's table reads it too.
 */
export function requireRight(route: {
  method: string | string[];
  url: string;
  handler: unknown;
  config?: { right?: Right };
}): void {
  if (rightChecked.has(route.handler as object) && route.config?.right === undefined) {
    throw new Error(
      `${[route.method].flat().join(',')} ${route.url}: a console page or form needs config.right`,
    );
  }
}

/** Whether the signed-in role holds the route's right; a route naming none is closed to every role. */
function allowed(request: FastifyRequest, session: ConsoleSession): boolean {
  const right = request.routeOptions.config.right;
  return right !== undefined && can(session.role, right);
}

/**
 * A page for the holders of the route's `config.right`: signed out, it sends the person to sign in;
 * a role without the right gets 403.
 */
export function page(deps: WebDeps, handler: PageHandler) {
  const checked = async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await sessionOf(request, deps);
    if (session === null) return reply.redirect('/console/login', 303);
    if (!allowed(request, session)) {
      return consoleError(
        reply,
        session,
        forbidden('Your role cannot open this page. Ask an admin of the account.'),
      );
    }
    try {
      return await handler({ request, reply, session, flash: takeFlash(request, reply, deps) });
    } catch (error) {
      if (error instanceof AppError && (error.status === 403 || error.status === 404)) {
        return consoleError(reply, session, error);
      }
      throw error;
    }
  };
  rightChecked.add(checked);
  return checked;
}

/**
 * A form action for the holders of the route's `config.right`. Order: signed in, then the form's CSRF token, then the
 * role; a refusal changes nothing. `done` answers where to go and what to say; a refusal of the
 * domain (400, 409, 422…) goes back to `back` with its message, a 403 or 404 is answered as a page.
 */
export function action(deps: WebDeps, back: (request: FastifyRequest) => string, handler: ActionHandler) {
  const checked = async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await sessionOf(request, deps);
    if (session === null) return reply.redirect('/console/login', 303);
    const form = formOf(request);
    if (!sameToken(form.get('csrf'), session.csrf)) {
      return consoleError(
        reply,
        session,
        forbidden('This form has expired or did not come from the console. Reload the page and try again.'),
      );
    }
    if (!allowed(request, session)) {
      return consoleError(
        reply,
        session,
        forbidden('Your role cannot do this. Ask an admin of the account.'),
      );
    }
    try {
      const outcome = await handler({ request, reply, session, form });
      if (outcome === undefined) return reply;
      setFlash(reply, deps, { kind: 'ok', text: outcome.flash });
      return reply.redirect(outcome.to, 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.status === 403 || error.status === 404) return consoleError(reply, session, error);
      setFlash(reply, deps, { kind: 'error', text: error.message });
      return reply.redirect(back(request), 303);
    }
  };
  rightChecked.add(checked);
  return checked;
}

/** GET `url`: a console page for the holders of `right` (its route config; see `page`), outside the API documents. */
export function getPage(app: App, deps: WebDeps, url: string, right: Right, handler: PageHandler): void {
  app.get(url, { schema: { hide: true }, config: { right } }, page(deps, handler));
}

/** POST `url`: a console form action for the holders of `right` (its route config; see `action`), outside the API documents. */
export function postAction(
  app: App,
  deps: WebDeps,
  url: string,
  right: Right,
  back: (request: FastifyRequest) => string,
  handler: ActionHandler,
): void {
  app.post(url, { schema: { hide: true }, config: { right } }, action(deps, back, handler));
}
