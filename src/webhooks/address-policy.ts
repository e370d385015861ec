import net from 'node:net';

/**
 * Where a webhook may not go: an address class named for the delivery log, or null for a public
 * address. IPv4 embedded in IPv6 (mapped, NAT64, 6to4) is judged as the IPv4 address it carries.
 */
export type ForbiddenClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

type Rule = [prefix: number[], bits: number, why: ForbiddenClass];

// Order matters: the first rule that matches names the class (metadata before link-local).
const V4_RULES: Rule[] = [
  [[169, 254, 169, 254], 32, 'metadata'],
  [[168, 63, 129, 16], 32, 'metadata'],
  [[100, 100, 100, 200], 32, 'metadata'],
  [[0], 8, 'unspecified'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'carrier-grade NAT'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'reserved'],
  [[192, 0, 2], 24, 'reserved'],
  [[192, 88, 99], 24, 'reserved'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'reserved'],
  [[198, 51, 100], 24, 'reserved'],
  [[203, 0, 113], 24, 'reserved'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'],
];

const V6_RULES: Rule[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, 'metadata'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, 'reserved'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'],
  [[0x20, 0x01, 0, 0], 32, 'reserved'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'],
  [[0xfc], 7, 'private'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'reserved'],
  [[0xff], 8, 'multicast'],
];

function matches(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

/** The 16 bytes of a valid IPv6 text (zone removed), embedded IPv4 tail included. */
function v6Bytes(text: string): number[] {
  let body = text.replace(/%.*$/, '');
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (v4) {
    tail = v4Bytes(v4[1]!);
    body = `${body.slice(0, -v4[1]!.length)}0:0`;
  }
  const [head, rest] = body.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyV4(bytes: number[]): ForbiddenClass | null {
  for (const [prefix, bits, why] of V4_RULES) if (matches(bytes, prefix, bits)) return why;
  return null;
}

/** The forbidden class of an IP address (text), or null when it is a public unicast address. */
export function forbiddenClass(address: string): ForbiddenClass | null {
  const family = net.isIP(address.replace(/%.*$/, ''));
  if (family === 4) return classifyV4(v4Bytes(address));
  if (family !== 6) return 'reserved';
  const bytes = v6Bytes(address);
  // ::ffff:a.b.c.d (mapped), 64:ff9b::a.b.c.d and 64:ff9b:1::/48 (NAT64): the IPv4 they carry.
  if (matches(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return classifyV4(bytes.slice(12));
  if (matches(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return classifyV4(bytes.slice(12));
  if (matches(bytes, [0, 0x64, 0xff, 0x9b, 0, 1], 48)) return classifyV4(bytes.slice(12));
  // 6to4 carries an IPv4 address in bits 16–48.
  if (matches(bytes, [0x20, 0x02], 16)) return classifyV4(bytes.slice(2, 6)) ?? null;
  for (const [prefix, bits, why] of V6_RULES) if (matches(bytes, prefix, bits)) return why;
  return null;
}
