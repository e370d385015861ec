import { isIPv4, isIPv6 } from 'node:net';

/**
 * The bucket a client address is counted in by per-address limits: an IPv4 address alone, an IPv6
 * address by its /64 (what one subscriber is given, so one client cannot spread itself over 2^64
 * buckets). An IPv4 address written as IPv6 (`::ffff:203.0.113.9`) counts as the IPv4 address.
 * Anything else (no address, a unix socket) is one bucket of its own.
 */
export function addressBucket(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.split('%')[0]!;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  return `${ipv6Prefix64(address)}::/64`;
}

/** The first four groups of an IPv6 address, expanded and lower-cased. */
function ipv6Prefix64(address: string): string {
  let text = address.toLowerCase();
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':');
}
