import { isIP } from 'node:net';
import path from 'node:path';

export type Role = 'api' | 'worker' | 'all';

export interface Config {
  readonly http: {
    readonly port: number;
    readonly host: string;
    readonly publicBaseUrl: string;
    readonly bodyLimitBytes: number;
    /** Whose X-Forwarded-For to believe for the client's address: a hop count or proxy CIDRs. */
    readonly trustProxy: false | number | string;
    /** Timeouts and the per-address connection cap (issue 25 B; operations.md). */
    readonly connections: ConnectionLimits;
  };
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  readonly redisUrl: string | null;
  readonly s3: {
    readonly bucket: string;
    readonly endpoint: string | null;
    readonly region: string;
    readonly accessKeyId: string | null;
    readonly secretAccessKey: string | null;
  } | null;
  readonly mail: { readonly smtpUrl: string | null; readonly from: string };
  readonly consoleToken: string | null;
  /** Bearer token `/metrics` asks for; null: `/metrics` is off (404). */
  readonly metricsToken: string | null;
  /** The claim links' HMAC key; null: generated into DATA_DIR/claim-link-key. */
  readonly claimLinkKey: string | null;
  readonly role: Role;
  readonly cv: { readonly maxBytes: number; readonly maxPages: number; readonly stagedTtlSeconds: number };
  readonly logLevel: string;
  /** On SIGTERM/SIGINT: how long in-flight requests and tasks get before the process exits (0). */
  readonly shutdownGraceMs: number;
  /** WORKER_CONCURRENCY: the tasks one worker process runs at once. */
  readonly workerConcurrency: number;
  /** WEBHOOK_ALLOW_PRIVATE=true: webhooks may use http and private addresses (development, tests). */
  readonly webhooks: { readonly allowPrivate: boolean };
  /** EMBEDDINGS_URL and friends: an OpenAI-compatible embeddings endpoint for matching; null: off. */
  readonly embeddings: {
    readonly url: string;
    readonly model: string;
    readonly apiKey: string | null;
    readonly timeoutMs: number;
    readonly batchSize: number;
  } | null;
}

export interface ConnectionLimits {
  /** HTTP_HEADERS_TIMEOUT_MS: a request's headers must have arrived within this. */
  readonly headersTimeoutMs: number;
  /** HTTP_BODY_TIMEOUT_MS: a request's body must have arrived within this, after its headers. */
  readonly bodyTimeoutMs: number;
  /** HTTP_UPLOAD_MIN_BYTES_PER_SECOND: a CV PUT gets HTTP_BODY_TIMEOUT_MS more its bytes at this rate. */
  readonly uploadMinBytesPerSecond: number;
  /** CV_MAX_BYTES: the largest body a CV PUT carries. */
  readonly uploadMaxBytes: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** HTTP_IDLE_TIMEOUT_MS: a connection on which nothing moves for this long is closed. */
  readonly idleTimeoutMs: number;
  /** HTTP_MAX_CONNECTIONS_PER_ADDRESS: open connections one peer address may hold; 0: no cap. */
  readonly maxConnectionsPerAddress: number;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, protocols: readonly string[]): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
  }
  return raw;
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One entry of a TRUST_PROXY list: an IPv4/IPv6 address, a CIDR, or a proxy-addr range name. */
function proxyEntryValid(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Whose X-Forwarded-For to believe: a hop count (the proxies nearest the server) or the proxies'
 * addresses and CIDRs. `true` would believe every hop, so the left-most address, which the client
 * writes itself: it is refused (decisions.md).
 */
function trustProxy(env: Env): false | number | string {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === null || raw === 'false' || raw === '0') return false;
  if (raw === 'true')
    throw new ConfigError(
      'TRUST_PROXY',
      'must not be true: that trusts every X-Forwarded-For hop, so any client could choose its own address (and bypass the per-address limits). Set the number of proxies in front of the service (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8)',
    );
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => entry !== '' && proxyEntryValid(entry))) return entries.join(',');
  throw new ConfigError(
    'TRUST_PROXY',
    `must be false, a hop count (e.g. 1), or a comma-separated list of proxy addresses/CIDRs (e.g. 10.0.0.0/8,::1), got "${raw}"`,
  );
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads the environment once; nothing else in the service looks at process.env. */
export function parseConfig(env: Env = process.env): Config {
  // Checked in this order, so that of several wrong variables the same one is named first.
  const { port, host, publicBaseUrl } = listenAddress(env);
  const role = roleOf(env);
  const bucket = text(env, 'S3_BUCKET');
  const logLevel = logLevelOf(env);
  const consoleToken = secret(env, 'CONSOLE_TOKEN', 16);
  const metricsToken = secret(env, 'METRICS_TOKEN', 16);
  const claimLinkKey = secret(env, 'CLAIM_LINK_KEY', 32, ' (e.g. openssl rand -base64 32)');
  const proxy = trustProxy(env);
  const cvMaxBytes = integer(env, 'CV_MAX_BYTES', 10_485_760, 1024, 104_857_600);
  return Object.freeze({
    http: Object.freeze({
      port,
      host,
      publicBaseUrl,
      bodyLimitBytes: 1_048_576,
      trustProxy: proxy,
      connections: connectionLimits(env, proxy, cvMaxBytes),
    }),
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    s3: s3(env, bucket),
    mail: Object.freeze({
      smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
      from: text(env, 'MAIL_FROM') ?? 'Careers <no-reply@careers.invalid>',
    }),
    consoleToken,
    metricsToken,
    claimLinkKey,
    role,
    cv: Object.freeze({
      maxBytes: cvMaxBytes,
      maxPages: integer(env, 'CV_MAX_PAGES', 10, 1, 1000),
      stagedTtlSeconds: integer(env, 'STAGED_CV_TTL_SECONDS', 2_592_000, 1, 315_360_000),
    }),
    logLevel,
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 1_000, 600_000),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 2, 1, 32),
    webhooks: Object.freeze({ allowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE') }),
    embeddings: embeddings(env),
  });
}

/**
 * Timeouts and the connection cap (decisions.md, "Timeouts and caps on every connection"). Behind a
 * proxy every connection comes from the proxy's address, so the per-address cap is off by default
 * when TRUST_PROXY is set.
 */
function connectionLimits(
  env: Env,
  proxy: false | number | string,
  uploadMaxBytes: number,
): ConnectionLimits {
  return Object.freeze({
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 300_000),
    bodyTimeoutMs: integer(env, 'HTTP_BODY_TIMEOUT_MS', 15_000, 100, 600_000),
    uploadMinBytesPerSecond: integer(env, 'HTTP_UPLOAD_MIN_BYTES_PER_SECOND', 16_384, 1_024, 104_857_600),
    uploadMaxBytes,
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    idleTimeoutMs: integer(env, 'HTTP_IDLE_TIMEOUT_MS', 60_000, 1_000, 3_600_000),
    maxConnectionsPerAddress: integer(
      env,
      'HTTP_MAX_CONNECTIONS_PER_ADDRESS',
      proxy === false ? 64 : 0,
      0,
      1_000_000,
    ),
  });
}

/** Where the service listens, and the base URL its links use (without a trailing slash). */
function listenAddress(env: Env): { port: number; host: string; publicBaseUrl: string } {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const publicBase = url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  return { port, host, publicBaseUrl: publicBase.replace(/\/+$/, '') };
}

function roleOf(env: Env): Role {
  const role = text(env, 'ROLE') ?? 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') {
    throw new ConfigError('ROLE', `must be api, worker or all, got "${role}"`);
  }
  return role;
}

function logLevelOf(env: Env): string {
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return logLevel;
}

/** A token or key: unset (null), or at least `minLength` characters. */
function secret(env: Env, name: string, minLength: number, hint = ''): string | null {
  const value = text(env, name);
  if (value !== null && value.length < minLength) {
    throw new ConfigError(name, `must be at least ${minLength} characters${hint}`);
  }
  return value;
}

/** The S3 blob store when S3_BUCKET is set; null keeps CVs under DATA_DIR. */
function s3(env: Env, bucket: string | null): Config['s3'] {
  if (bucket === null) return null;
  return Object.freeze({
    bucket,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: text(env, 'S3_REGION') ?? 'us-east-1',
    accessKeyId: text(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: text(env, 'S3_SECRET_ACCESS_KEY'),
  });
}

/** The matching's embedding provider (issue 19): off unless EMBEDDINGS_URL is set, then a model is required. */
function embeddings(env: Env): Config['embeddings'] {
  const endpoint = url(env, 'EMBEDDINGS_URL', ['http:', 'https:']);
  if (endpoint === null) return null;
  const model = text(env, 'EMBEDDINGS_MODEL');
  if (model === null) throw new ConfigError('EMBEDDINGS_MODEL', 'is required when EMBEDDINGS_URL is set');
  const apiKey = text(env, 'EMBEDDINGS_API_KEY');
  if (apiKey !== null && !keySafeOver(new URL(endpoint))) {
    throw new ConfigError(
      'EMBEDDINGS_URL',
      'must use https when EMBEDDINGS_API_KEY is set (plain http only to a loopback address: 127.0.0.1, ::1 or localhost), or the key crosses the network in clear',
    );
  }
  return Object.freeze({
    url: endpoint,
    model,
    apiKey,
    timeoutMs: integer(env, 'EMBEDDINGS_TIMEOUT_MS', 5_000, 100, 60_000),
    batchSize: integer(env, 'EMBEDDINGS_BATCH_SIZE', 32, 1, 256),
  });
}

/** https, or http that never leaves the machine (a local model server on a loopback address). */
function keySafeOver(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  return (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';
}

function flag(env: Env, name: string): boolean {
  const raw = text(env, name);
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}
