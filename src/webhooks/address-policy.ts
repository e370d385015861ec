import net from 'node:net';

/**
 * Where a webhook may not go: an address class named for the delivery log, or null for a public
 * address. IPv4 carried in IPv6 (mapped, translated, NAT64, 6to4) is judged as the IPv4 address it
 * carries; any other IPv6 address outside global unicast (2000::/3) is refused.
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

type Rule = [cidr: string, why: ForbiddenClass];

// The first list that holds the address names its class: metadata is listed before the link-local
// and private ranges that contain it.
const V4_RULES: Rule[] = [
  ['169.254.169.254/32', 'metadata'],
  ['168.63.129.16/32', 'metadata'],
  ['100.100.100.200/32', 'metadata'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // documentation
  ['192.88.99.0/24', 'reserved'], // 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // documentation
  ['203.0.113.0/24', 'reserved'], // documentation
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // future use, 255.255.255.255 broadcast included
];

const V6_RULES: Rule[] = [
  ['fd00:ec2::254/128', 'metadata'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'reserved'], // local-use NAT64 (RFC 8215): a site's own translator
  ['2001::/23', 'reserved'], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation (RFC 9637)
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'multicast'],
];

/** One BlockList per class, in the order the classes first appear in the rules. */
function lists(rules: Rule[], family: 'ipv4' | 'ipv6'): [net.BlockList, ForbiddenClass][] {
  const byClass = new Map<ForbiddenClass, net.BlockList>();
  for (const [cidr, why] of rules) {
    const [network, bits] = cidr.split('/') as [string, string];
    const list = byClass.get(why) ?? new net.BlockList();
    byClass.set(why, list);
    list.addSubnet(network, Number(bits), family);
  }
  return [...byClass].map(([why, list]) => [list, why]);
}

const V4_LISTS = lists(V4_RULES, 'ipv4');
const V6_LISTS = lists(V6_RULES, 'ipv6');

/** IPv6 prefixes whose last 32 bits are an IPv4 address, and whether a public one may be reached. */
const EMBEDDING: [list: net.BlockList, publicAllowed: boolean][] = [
  [subnet('::ffff:0:0', 96), true], // IPv4-mapped: the socket connects to the IPv4 address
  [subnet('64:ff9b::', 96), true], // well-known NAT64 prefix (RFC 6052)
  [subnet('::ffff:0:0:0', 96), false], // IPv4-translated (RFC 2765): not routed on the internet
];
const SIX_TO_FOUR = subnet('2002::', 16); // carries an IPv4 address in bits 16–48
const GLOBAL_UNICAST = subnet('2000::', 3);

function subnet(network: string, bits: number): net.BlockList {
  const list = new net.BlockList();
  list.addSubnet(network, bits, 'ipv6');
  return list;
}

function classify(address: string, family: 'ipv4' | 'ipv6'): ForbiddenClass | null {
  for (const [list, why] of family === 'ipv4' ? V4_LISTS : V6_LISTS)
    if (list.check(address, family)) return why;
  return null;
}

/** The 16 bytes of a valid IPv6 text (zone removed), a dotted IPv4 tail included. */
function v6Bytes(text: string): number[] {
  let body = text;
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (v4) {
    tail = v4[1]!.split('.').map(Number);
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

const v4Text = (bytes: number[], at: number) => bytes.slice(at, at + 4).join('.');

/** The forbidden class of an IP address (text), or null when it is a public unicast address. */
export function forbiddenClass(address: string): ForbiddenClass | null {
  const bare = address.replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return classify(bare, 'ipv4');
  if (family !== 6) return 'reserved';
  for (const [list, publicAllowed] of EMBEDDING) {
    if (!list.check(bare, 'ipv6')) continue;
    const carried = classify(v4Text(v6Bytes(bare), 12), 'ipv4');
    return carried ?? (publicAllowed ? null : 'reserved');
  }
  if (SIX_TO_FOUR.check(bare, 'ipv6')) return classify(v4Text(v6Bytes(bare), 2), 'ipv4');
  const listed = classify(bare, 'ipv6');
  if (listed) return listed;
  return GLOBAL_UNICAST.check(bare, 'ipv6') ? null : 'reserved';
}
