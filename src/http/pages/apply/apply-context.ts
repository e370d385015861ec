import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthoredJob } from '../../../contract/job.ts';
import type { ApplicationSource } from '../../../domain/intake/application-service.ts';
import type { Services } from '../../../domain/services.ts';
import { addressBucket } from '../../../lib/client-address.ts';
import type { Clock } from '../../../lib/clock.ts';
import { html } from '../../../lib/html.ts';
import type { RateLimitStore } from '../../../rate-limit/store.ts';
import { type EmbedMode, embedHead } from '../embed-mode.ts';
import { PAGE_WORDS, type PageLang } from '../i18n.ts';
import { sendPage } from '../page-shell.ts';
import { type ApplyTunables, challengeDue, DEFAULT_APPLY_TUNABLES } from './challenge.ts';
import { APPLY_STYLE, CSRF_COOKIE, cookieNonce, type FormState, renderForm } from './form-view.ts';

/** Submissions per client address per minute; the form is a public endpoint. */
export const APPLY_POSTS_PER_MINUTE = DEFAULT_APPLY_TUNABLES.postsPerMinute;

/** What the apply page's routes share. */
export interface ApplyDeps {
  services: Services;
  rateLimits: RateLimitStore;
  clock: Clock;
  secureCookies: boolean;
  tunables: ApplyTunables;
}

/**
 * Seconds to wait when the client's address bucket (an IPv4 address, an IPv6 /64) sent too many
 * forms this minute, else null.
 */
export async function addressLimited(deps: ApplyDeps, request: FastifyRequest): Promise<number | null> {
  const nowMs = deps.clock.now().getTime();
  const key = `apply-ip:${addressBucket(request.ip)}`;
  const { count, resetAtMs } = await deps.rateLimits.hit(key, 60_000, nowMs);
  return count > deps.tunables.postsPerMinute ? Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) : null;
}

/**
 * Whether the browser says this post came from a page of this very origin: `Sec-Fetch-Site`
 * where sent (every current browser), else an `Origin` naming this host. The apply page's
 * `no-referrer` policy makes a form post's Origin `null`, so Sec-Fetch-Site is what answers.
 */
export function sameOriginPost(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * The form's CSRF token holds: bound to the SameSite cookie the form page set, or a framed token
 * (the careers embed, where that third-party cookie may be blocked) posted from this origin.
 */
export async function formTokenValid(
  deps: ApplyDeps,
  request: FastifyRequest,
  jobId: string,
  token: unknown,
): Promise<boolean> {
  const { formTokens } = deps.services;
  if (await formTokens.verify(jobId, token, cookieNonce(request))) return true;
  return sameOriginPost(request) && (await formTokens.verifyFramed(jobId, token));
}

/** The form page with a fresh CSRF token and its cookie (inside the embed: a framed token, no cookie). */
export async function formPage(
  deps: ApplyDeps,
  reply: FastifyReply,
  view: {
    job: AuthoredJob;
    lang: PageLang;
    state: FormState;
    status: number;
    source: ApplicationSource;
    /** A file already received and kept for this form (an earlier attempt's). */
    kept?: { uploadId: string; name: string };
    /** Inside the careers embed, and who may frame the page (the account's embedOrigins). */
    embed?: EmbedMode | null;
    frameOrigins?: readonly string[];
  },
) {
  const embed = view.embed ?? null;
  const { token, nonce } = await deps.services.formTokens.mint(view.job.id, embed !== null);
  // The proof of work is asked only once this client or this role is past a calm burst.
  const powBits = (await challengeDue(deps, reply.request, view.job.id)) ? deps.tunables.powBits : 0;
  if (!embed)
    reply.header(
      'set-cookie',
      `${CSRF_COOKIE}=${nonce}; Path=/apply; HttpOnly; SameSite=Strict; Max-Age=7200${deps.secureCookies ? '; Secure' : ''}`,
    );
  return sendPage(
    reply,
    view.status,
    view.lang,
    PAGE_WORDS[view.lang].applyFor(view.job.title, view.job.company.name),
    renderForm({
      job: view.job,
      lang: view.lang,
      token,
      state: view.state,
      maxBytes: deps.services.cvLimits.maxBytes,
      source: view.source,
      powBits,
      embed,
      ...(view.kept ? { kept: view.kept } : {}),
    }),
    {
      head: html`<script src="/assets/apply.js" defer></script>${APPLY_STYLE}${embedHead(embed)}`,
      frameOrigins: view.frameOrigins ?? [],
    },
  );
}
