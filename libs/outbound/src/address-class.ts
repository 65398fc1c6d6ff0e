import { BlockList, isIP } from 'node:net';

/**
 * What kind of address an outbound connection would reach. Only `public` addresses are always
 * allowed; `loopback` and `private` depend on OUTBOUND_ALLOW; `forbidden` never is (link-local,
 * cloud metadata, unspecified, multicast, reserved and documentation ranges).
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'forbidden';

type Range = [address: string, prefix: number, family: 'ipv4' | 'ipv6', why: string];

// Checked in this order, so the specific metadata addresses win over the private ranges that hold them.
const FORBIDDEN: Range[] = [
  ['169.254.169.254', 32, 'ipv4', 'a cloud metadata address'],
  ['100.100.100.200', 32, 'ipv4', 'a cloud metadata address'],
  ['fd00:ec2::254', 128, 'ipv6', 'a cloud metadata address'],
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['198.18.0.0', 15, 'ipv4', 'a reserved address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  ['100::', 64, 'ipv6', 'a reserved address'],
];
const LOOPBACK: Range[] = [
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
];
const PRIVATE: Range[] = [
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['fc00::', 7, 'ipv6', 'a private (unique local) address'],
];

const lists = (ranges: Range[]) =>
  ranges.map(([address, prefix, family, why]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, family);
    return { list, why };
  });
const CLASSES: Array<{ kind: Exclude<AddressClass, 'public'>; ranges: ReturnType<typeof lists> }> = [
  { kind: 'forbidden', ranges: lists(FORBIDDEN) },
  { kind: 'loopback', ranges: lists(LOOPBACK) },
  { kind: 'private', ranges: lists(PRIVATE) },
];

export interface ClassifiedAddress {
  kind: AddressClass;
  /** e.g. "a loopback address"; empty for public addresses. */
  why: string;
}

/**
 * Classifies an IP literal. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address they reach.
 */
export function classifyAddress(ip: string): ClassifiedAddress {
  const family = isIP(ip);
  if (family === 0) return { kind: 'forbidden', why: 'not an IP address' };
  const embedded = family === 6 ? embeddedIpv4(ip) : undefined;
  if (embedded) return classifyAddress(embedded);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { kind, ranges } of CLASSES) {
    const hit = ranges.find(({ list }) => list.check(ip, type));
    if (hit) return { kind, why: hit.why };
  }
  return { kind: 'public', why: '' };
}

function embeddedIpv4(ip: string): string | undefined {
  const groups = expandIpv6(ip);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]); // ::ffff:a.b.c.d
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6], groups[7]); // NAT64
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]); // 6to4
  return undefined;
}

/** Eight 16-bit groups of an IPv6 literal (with an optional dotted IPv4 tail), or undefined. */
function expandIpv6(ip: string): number[] | undefined {
  let text = ip.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}
