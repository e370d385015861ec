/**
 * The fuzz test's generators: a seeded PRNG (so a failing run is replayed by its seed), values
 * built from an OpenAPI schema (valid-ish, drawn from pools of real ids where a field names one),
 * and the hostile values, path segments, query strings and raw bodies they are mutated with.
 */

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32: a uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export type Schema = Record<string, unknown>;
export type Pools = Record<string, readonly unknown[]>;

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

/** Values a client may send anywhere: wrong types, database-hostile text, extremes. */
export const HOSTILE_VALUES: readonly unknown[] = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '',
  ' ',
  'x'.repeat(100_001),
  '😀'.repeat(300),
  '\u202e\u200b\ufeff',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '\\',
  'null',
  '-1',
  'NaN',
  '2026-13-45T99:99:99Z',
  '1e999',
  -1,
  0,
  1,
  -0.5,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  1e21,
  true,
  false,
  null,
  [],
  {},
  [null],
  { '': 1 },
  { 'a\u0000': 1 },
  { __proto__x: 1 },
  deep(20),
  deep(40),
  Array.from({ length: 200 }, (_, i) => i),
];

/** Path segments as sent on the wire (already encoded, or deliberately malformed). */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '%00',
  'job_%00',
  '%zz',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF',
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(200),
  'a'.repeat(201),
  'a'.repeat(3_000),
  '..',
  '.',
  '%2F',
  '%2e%2e',
  'job_0000000000000000000000000',
  'job_06h0qv33sn6dmb5d8zpj9wy43w',
  encodeURIComponent('😀'),
  encodeURIComponent("' OR 1=1 --"),
  '%20',
  '-1',
  '0',
  'null',
  '__proto__',
  'constructor',
];

/** Whole bodies as text (or bytes): malformed, deep, huge, poisoned. */
export const RAW_BODIES: readonly (string | Buffer)[] = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"x"',
  '1e999',
  '{"title":"\\ud800"}',
  '{"title":"a\\u0000b"}',
  '{"title":"\\ud8"}',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `{"a":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"title":"T","title":"U"}',
  '\ufeff{}',
  '{"title":"T"}\u0000',
  `{"title":"${'x'.repeat(1_100_000)}"}`,
  Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
];

export const CONTENT_TYPES: readonly (string | undefined)[] = [
  'text/plain',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/octet-stream',
  ';;;',
  undefined,
];

export const IDEMPOTENCY_KEYS: readonly string[] = [
  '',
  ' ',
  'x'.repeat(256),
  'a b',
  'ключ',
  '\t',
  'k'.repeat(255),
];

export function resolve(schema: unknown, components: Record<string, Schema>): Schema {
  let s = (schema ?? {}) as Schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    s = components[(s.$ref as string).split('/').pop()!] ?? {};
  }
  return s;
}

let counter = 0;

/** A value the schema accepts (mostly): pools first for named fields, bounds respected. */
export function generate(
  schemaIn: unknown,
  rng: Rng,
  components: Record<string, Schema>,
  pools: Pools,
  name = '',
  depth = 0,
): unknown {
  const schema = resolve(schemaIn, components);
  const pool = pools[name];
  if (pool && rng.chance(0.85)) return rng.pick(pool);
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (union) {
    const branches = union.filter((b) => resolve(b, components).type !== 'null');
    const branch = rng.chance(0.85) && branches.length > 0 ? rng.pick(branches) : rng.pick(union);
    return generate(branch, rng, components, pools, name, depth);
  }
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  if ('const' in schema) return schema.const;
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        if (required.has(key) || (depth < 4 && rng.chance(0.5))) {
          out[key] = generate(child, rng, components, pools, key, depth + 1);
        }
      }
      const extra = schema.additionalProperties;
      if (extra && typeof extra === 'object' && rng.chance(0.3)) {
        out[`note${rng.int(5)}`] = generate(extra, rng, components, pools, 'note', depth + 1);
      }
      return out;
    }
    case 'array': {
      const max = Math.min(Number(schema.maxItems ?? 3), 3);
      const min = Number(schema.minItems ?? 0);
      const length = min + rng.int(Math.max(1, max - min + 1));
      return Array.from({ length }, () => generate(schema.items, rng, components, pools, name, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = Number(schema.minimum ?? 0);
      const max = Math.min(Number(schema.maximum ?? min + 1000), min + 1_000_000);
      const value = rng.pick([min, max, min + rng.int(Math.max(1, Math.min(max - min, 1000)) + 1)]);
      return schema.type === 'number' && rng.chance(0.2) ? value + 0.5 : value;
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'string':
      return text(schema, rng);
    default:
      return null;
  }
}

function text(schema: Schema, rng: Rng): string {
  counter += 1;
  if (schema.format === 'date-time')
    return new Date(Date.now() + (rng.int(20) - 5) * 86_400_000).toISOString();
  if (schema.format === 'email') return `fuzz${counter}.${rng.int(1e6)}@example.com`;
  // An address literal: a URL the service checks (a webhook) must not send it to DNS.
  if (schema.format === 'uri') return `https://203.0.113.10/${counter}`;
  if (schema.pattern === '^[A-Z]{3}$') return rng.pick(['AUD', 'USD', 'EUR']);
  const words = ['Engineer', 'données', 'Ñandú', '東京', 'emoji 🚀', 'tab\there', 'plain', '<b>bold</b>'];
  const min = Number(schema.minLength ?? 0);
  const max = Math.min(Number(schema.maxLength ?? 60), 60);
  let out = '';
  while (out.length < min || (out.length < max && rng.chance(0.6))) out += `${rng.pick(words)} `;
  return [...out].slice(0, Math.max(min, Math.min(max, [...out].length))).join('');
}

/** Every node of a JSON value with its parent, for mutations. */
function nodes(
  value: unknown,
  parent: unknown = null,
  key: string | number | null = null,
  out: [unknown, unknown, string | number | null][] = [],
) {
  out.push([value, parent, key]);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) nodes(v, value, i, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) nodes(v, value, k, out);
  }
  return out;
}

/** One mutation of a generated body: a hostile leaf, a removed field, or an unknown one. */
export function mutate(body: unknown, rng: Rng): unknown {
  const all = nodes(body);
  const [node, parent, key] = rng.pick(all);
  const roll = rng.next();
  const hostile = () => structuredClone(rng.pick(HOSTILE_VALUES));
  if (parent === null) return hostile();
  if (roll < 0.15 && !Array.isArray(parent)) {
    delete (parent as Record<string, unknown>)[key as string];
  } else if (roll < 0.25 && node !== null && typeof node === 'object' && !Array.isArray(node)) {
    (node as Record<string, unknown>)[rng.pick(['zz', 'status', 'id', 'a\u0000', '__proto__x'])] = 1;
  } else {
    (parent as Record<string | number, unknown>)[key as string | number] = hostile();
  }
  return body;
}

/**
 * encodeURIComponent that does not throw on an unpaired surrogate: it is sent as its WTF-8 bytes
 * (`%ED%A0%80`), which is what a sloppy client puts on the wire.
 */
export function encodeAny(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) {
        const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
        out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      } else out += encodeURIComponent(char);
    }
    return out;
  }
}
