// compose.yaml read as `docker compose` reads it (YAML with merge keys, then `${…}` interpolation
// from the operator's .env), for the deployment tests: no Docker here to ask `docker compose config`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './packaging.ts';

export interface Service {
  image?: string;
  build?: unknown;
  command?: unknown;
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition?: string }>;
  restart?: string;
  stop_grace_period?: string;
  ports?: string[];
  volumes?: string[];
}

export interface ComposeFile {
  services: Record<string, Service>;
}

/** `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?message}`, `${NAME?message}`, `$$`. */
export function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (match, name, op, arg) => {
    if (match === '$$') return '$';
    const value = vars[name as string];
    const empty = value === undefined || (op?.startsWith(':') && value === '');
    if (!empty) return value!;
    if (op === ':-' || op === '-') return arg as string;
    if (op === ':?' || op === '?') throw new Error(`compose: ${name} is required: ${arg}`);
    return '';
  });
}

/** Every `${NAME…}` the text refers to, with whether it must be set (`:?`) and its default. */
export function referencedVariables(
  text: string,
): Map<string, { required: boolean; fallback: string | null }> {
  const found = new Map<string, { required: boolean; fallback: string | null }>();
  for (const match of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g)) {
    const op = match[2];
    found.set(match[1]!, {
      required: op === ':?' || op === '?',
      fallback: op === ':-' || op === '-' ? (match[3] ?? '') : null,
    });
  }
  return found;
}

/** `.env.example`: the variables an operator fills in (`NAME=value` lines; comments skipped). */
export function envExample(): Record<string, string> {
  const text = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) vars[match[1]!] = match[2]!;
  }
  return vars;
}

export const composeText = () => fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');

/**
 * compose.yaml with `.env.example`'s variables, each empty one filled as an operator would (a
 * random secret), then `overrides`.
 */
export function readCompose(overrides: Record<string, string> = {}): {
  compose: ComposeFile;
  vars: Record<string, string>;
} {
  const vars = envExample();
  for (const [name, value] of Object.entries(vars))
    if (value === '') vars[name] = randomBytes(24).toString('hex');
  Object.assign(vars, overrides);
  const raw = parse(composeText(), { merge: true }) as ComposeFile;
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') return interpolate(value, vars);
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    }
    return value;
  };
  return { compose: resolve(raw) as ComposeFile, vars };
}

/** The services that run the careers image (built from this repository's Dockerfile). */
export function careersServices(compose: ComposeFile): [string, Service][] {
  return Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
}

/** A service's environment as strings (compose turns numbers and booleans into text). */
export function envOfService(service: Service): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]),
  );
}

/** `20s`, `1m30s`, `500ms` → milliseconds. */
export function durationMs(text: string): number {
  let total = 0;
  for (const match of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
    total += Number(match[1]) * unit;
  }
  return total;
}
