/**
 * Which IP addresses a scrape may reach (contract 2.17). Parsing is ipaddr.js (it accepts
 * the legacy IPv4 spellings that resolvers and URL parsers accept: `127.1`, `2130706433`,
 * `0x7f000001`, `017700000001`); the ranges are our own table so that every special-purpose
 * block maps to one of the contract's categories.
 *
 * IPv6 forms that embed an IPv4 address are classified by that IPv4 address, because that
 * is where the packets end up: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, 6to4 `2002:AABB:CCDD::/48` and the NAT64 well-known
 * prefix `64:ff9b::/96` (so `64:ff9b::808:808` is public, `64:ff9b::7f00:1` loopback).
 * The NAT64 local-use prefix `64:ff9b:1::/48` is operator-internal: reserved. Outside
 * `2000::/3` (global unicast) nothing is public.
 */
import ipaddr from 'ipaddr.js';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'unspecified';

type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number, AddressClass];

function ranges(table: ReadonlyArray<readonly [string, AddressClass]>): Range[] {
  return table.map(([cidr, cls]) => {
    const [address, bits] = ipaddr.parseCIDR(cidr);
    return [address, bits, cls] as const;
  });
}

// First match wins; more specific blocks come first.
const IPV4_RANGES = ranges([
  ['0.0.0.0/8', 'unspecified'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'], // cloud metadata lives here (169.254.169.254)
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // documentation (TEST-NET-1)
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // documentation (TEST-NET-2)
  ['203.0.113.0/24', 'reserved'], // documentation (TEST-NET-3)
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // future use, and 255.255.255.255 broadcast
]);

// Checked before the IPv4-embedding prefixes, since `::/96` contains them.
const IPV6_EXACT = ranges([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
]);

const IPV6_RANGES = ranges([
  ['64:ff9b:1::/48', 'reserved'], // NAT64 local use
  ['100::/64', 'reserved'], // discard
  ['2001::/23', 'reserved'], // IETF protocol assignments (Teredo, benchmarking, ORCHID...)
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation (RFC 9637)
  ['5f00::/16', 'reserved'], // SRv6 SIDs
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'reserved'], // deprecated site-local
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Prefixes whose last 32 bits are an IPv4 address (see the header comment). */
const IPV4_IN_LOW_BITS = [
  ipaddr.parseCIDR('::ffff:0:0/96'), // mapped
  ipaddr.parseCIDR('::/96'), // compatible (after :: and ::1 are handled)
  ipaddr.parseCIDR('::ffff:0:0:0/96'), // translated
  ipaddr.parseCIDR('64:ff9b::/96'), // NAT64 well-known prefix
];
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

function firstMatch(address: ipaddr.IPv4 | ipaddr.IPv6, table: Range[]): AddressClass | null {
  for (const [range, bits, cls] of table) {
    if (range.kind() === address.kind() && address.match(range as never, bits)) return cls;
  }
  return null;
}

function classifyV4(address: ipaddr.IPv4): AddressClass {
  return firstMatch(address, IPV4_RANGES) ?? 'public';
}

function embeddedV4(parts: number[], high: number, low: number): ipaddr.IPv4 {
  const a = parts[high] ?? 0;
  const b = parts[low] ?? 0;
  return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  const parts = address.parts;
  const exact = firstMatch(address, IPV6_EXACT);
  if (exact) return exact;
  for (const [prefix, bits] of IPV4_IN_LOW_BITS) {
    if (address.match(prefix, bits)) return classifyV4(embeddedV4(parts, 6, 7));
  }
  if (address.match(SIX_TO_FOUR)) return classifyV4(embeddedV4(parts, 1, 2));
  const special = firstMatch(address, IPV6_RANGES);
  if (special) return special;
  return address.match(GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/** Strips the brackets of a URL-style IPv6 host and any zone id (`fe80::1%eth0`). */
function bare(ip: string): string {
  const unbracketed = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** True when `ip` is an IP literal in any spelling `classifyAddress` accepts. */
export function isIpLiteral(ip: string): boolean {
  return ipaddr.isValid(bare(ip));
}

/**
 * The category of an IP literal. Accepts dotted, short (`127.1`), decimal, hex and octal
 * IPv4 and bracketed or bare IPv6. Throws a TypeError for anything that is not an IP.
 */
export function classifyAddress(ip: string): AddressClass {
  const text = bare(ip);
  if (!ipaddr.isValid(text)) throw new TypeError(`Not an IP address: ${ip}`);
  const address = ipaddr.parse(text);
  return address.kind() === 'ipv4'
    ? classifyV4(address as ipaddr.IPv4)
    : classifyV6(address as ipaddr.IPv6);
}

/** True only for addresses a scrape may reach without ALLOW_PRIVATE_NETWORKS. */
export function isPublicAddress(ip: string): boolean {
  return isIpLiteral(ip) && classifyAddress(ip) === 'public';
}
