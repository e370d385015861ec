import type { FastifyServerOptions } from 'fastify';
import type { ConfiguredBlobStore } from '../blob-store/index.ts';
import type { ConnectionLimits, Role } from '../config.ts';
import type { DispatcherStats } from '../domain/events/webhook-dispatcher.ts';
import type { Services } from '../domain/services.ts';
import type { Clock } from '../lib/clock.ts';
import type { CvCheckerStats } from '../pdf/cv-check.ts';
import type { RateLimitStore } from '../rate-limit/store.ts';
import type { WorkerStats } from '../tasks/worker.ts';
import { type ApplyTunables, DEFAULT_APPLY_TUNABLES } from './pages/apply/challenge.ts';

/**
 * What runs beside the HTTP app in this process (main.ts attaches it once started): read by
 * /readyz (is the worker's loop running?) and /metrics. null: not running in this process.
 */
export interface BackgroundProbe {
  worker(): WorkerStats | null;
  deliveries(): DispatcherStats | null;
}

/** What the runtime (src/runtime.ts) gives the HTTP app: the services, the outside world, the settings. */
export interface HttpSettings {
  services: Services;
  /** The CV store; the local one receives its presigned PUTs through this app. */
  files: ConfiguredBlobStore;
  rateLimits: RateLimitStore;
  clock: Clock;
  consoleToken: string;
  publicBaseUrl: string;
  bodyLimitBytes?: number;
  trustProxy?: boolean | number | string;
  logger?: FastifyServerOptions['logger'];
  /** Requests without a valid credential one client address may send a minute (the guard's default otherwise). */
  authFailuresPerMinute?: number;
  /** The hosted apply page's abuse limits (challenge.ts's defaults otherwise). */
  applyPage?: Partial<ApplyTunables>;
  /** METRICS_TOKEN: the bearer token /metrics asks for; absent, /metrics is off. */
  metricsToken?: string | null;
  /** Timeouts and the per-address connection cap (config.ts's defaults otherwise). */
  connections?: ConnectionLimits;
  /** ROLE: a `worker` app serves only /healthz, /readyz and /metrics. Default `all`. */
  role?: Role;
  /** The task worker and webhook deliverer of this process, once started. */
  background?: BackgroundProbe;
  /** The PDF checker's pool and queue (absent when the checker is not the pooled one). */
  pdfChecker?: () => CvCheckerStats;
}

/**
 * The one context of the HTTP app: buildApp(context) builds the server and plugins from it, and
 * every route is registered with it (`Route = (app, context)`, src/http/routes.ts), so a route takes
 * what it needs (the services, the clock, the rate-limit store, the cookie and apply-page
 * settings) without a registration of its own. The settings as given, and what follows from them.
 */
export interface HttpContext extends Omit<HttpSettings, 'applyPage' | 'metricsToken' | 'role'> {
  role: Role;
  /** Session and form cookies carry Secure: the public base URL is https. */
  secureCookies: boolean;
  /** The hosted apply page's abuse limits, the defaults filled in. */
  applyPage: ApplyTunables;
  /** Null: /metrics is off. */
  metricsToken: string | null;
}

export function httpContext(settings: HttpSettings): HttpContext {
  return {
    ...settings,
    secureCookies: settings.publicBaseUrl.startsWith('https://'),
    applyPage: { ...DEFAULT_APPLY_TUNABLES, ...settings.applyPage },
    metricsToken: settings.metricsToken ?? null,
    role: settings.role ?? 'all',
  };
}
