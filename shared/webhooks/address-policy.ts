/**
 * Which network addresses a webhook (or an OAuth token request) may be sent to. In AWS the sender refuses anything
 * but public unicast addresses, so a merchant cannot point an endpoint (or a hostname that resolves) at our own
 * network or at the instance metadata service. An IPv6 address that carries an IPv4 address (mapped, translated,
 * NAT64, 6to4, Teredo, IPv4-compatible, ISATAP) is judged by the IPv4 it reaches. Pure: node:net and ipaddr.js.
 */
import ipaddr from 'ipaddr.js';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'reserved' | 'invalid';

const ranges = (list: [string, number][], family: 'ipv4' | 'ipv6') => {
  const block = new BlockList();
  for (const [network, prefix] of list) block.addSubnet(network, prefix, family);
  return block;
};

const METADATA = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254']);
const V4 = {
  loopback: ranges([['127.0.0.0', 8]], 'ipv4'),
  link_local: ranges([['169.254.0.0', 16]], 'ipv4'),
  private: ranges([['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10]], 'ipv4'),
  reserved: ranges(
    [['0.0.0.0', 8], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]],
    'ipv4',
  ),
};
const V6 = {
  loopback: ranges([['::1', 128]], 'ipv6'),
  link_local: ranges([['fe80::', 10]], 'ipv6'),
  // Unique local, the deprecated site-local, and NAT64 for local use (RFC 8215): all reach a private network.
  private: ranges([['fc00::', 7], ['fec0::', 10], ['64:ff9b:1::', 48]], 'ipv6'),
  reserved: ranges([['::', 128], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64]], 'ipv6'),
};

/** The 16 bytes of an IPv6 address (already known valid), in any spelling (dotted tail, compressed zeros). */
const ipv6Bytes = (address: string): number[] => ipaddr.IPv6.parse(address).toByteArray();

const dottedQuad = (bytes: number[]) => bytes.join('.');

/**
 * The IPv4 addresses an IPv6 address carries, or null when it carries none. ipaddr.js names the registered
 * transition ranges: ::ffff:a.b.c.d (ipv4Mapped), ::ffff:0:a.b.c.d (SIIT, rfc6145), 64:ff9b::a.b.c.d (NAT64,
 * rfc6052; the local-use 64:ff9b:1::/48 is refused whole as private before this), 2002:aabb:ccdd::/48 (6to4) and
 * Teredo 2001:0::/32 (its server, and its client with the bits inverted). Two forms have no range of their own and
 * are read here: IPv4-compatible ::a.b.c.d, and ISATAP, whose interface id is 0000:5efe or 0200:5efe then the IPv4
 * address, under any /64.
 */
function embeddedIPv4(bytes: number[]): string[] | null {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const last4 = bytes.slice(12, 16);
  switch (ipaddr.fromByteArray(bytes).range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [dottedQuad(last4)];
    case '6to4':
      return [dottedQuad(bytes.slice(2, 6))];
    case 'teredo':
      return [dottedQuad(bytes.slice(4, 8)), dottedQuad(last4.map((b) => b ^ 0xff))];
  }
  // ::/96 but not :: and ::1 themselves, which the IPv6 ranges judge.
  if (zero(0, 12) && !(zero(12, 15) && (bytes[15] === 0 || bytes[15] === 1))) return [dottedQuad(last4)];
  // ISATAP (RFC 5214): the universal/local and group bits of the interface id may be set.
  if ((bytes[8]! & 0xfc) === 0 && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe) return [dottedQuad(last4)];
  return null;
}

/**
 * @example
 * classifyAddress('169.254.169.254')  // 'metadata'
 * classifyAddress('::ffff:10.0.0.1')  // 'private'
 * classifyAddress('2002:7f00:1::')    // 'loopback' (6to4 of 127.0.0.1)
 * classifyAddress('93.184.216.34')    // 'public'
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (METADATA.has(bare)) return 'metadata';
  if (isIPv4(bare)) {
    for (const [kind, list] of Object.entries(V4)) if (list.check(bare, 'ipv4')) return kind as AddressClass;
    return 'public';
  }
  if (isIPv6(bare)) {
    for (const [kind, list] of Object.entries(V6)) if (list.check(bare, 'ipv6')) return kind as AddressClass;
    // The first embedded address that is not public decides; a transition address of public ones is public.
    for (const v4 of embeddedIPv4(ipv6Bytes(bare)) ?? []) {
      const kind = classifyAddress(v4);
      if (kind !== 'public') return kind;
    }
    return 'public';
  }
  return 'invalid';
}

/**
 * Whether the sender may connect to this address with this scheme. AWS: https to public addresses only. The
 * sandbox (`allowLoopback`, never set in AWS, and only for a literal loopback address or `localhost`) also reaches
 * its own machine, over https or http alike; its http reaches nothing else.
 */
export function isAllowedAddress(address: string, { allowLoopback, protocol = 'https:' }: { allowLoopback: boolean; protocol?: string }): boolean {
  const kind = classifyAddress(address);
  if (allowLoopback && kind === 'loopback' && isThisMachine(address)) return protocol === 'https:' || protocol === 'http:';
  return kind === 'public' && protocol === 'https:';
}

/**
 * The machine's own loopback (127.0.0.0/8, ::1, or 127.x mapped), not a transition form that only embeds it and
 * routes elsewhere (::127.0.0.1, 2002:7f00:1::, 64:ff9b::7f00:1...).
 */
export function isThisMachine(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (isIPv4(bare)) return V4.loopback.check(bare, 'ipv4');
  if (!isIPv6(bare)) return false;
  const v6 = ipaddr.IPv6.parse(bare);
  return v6.range() === 'loopback' || (v6.isIPv4MappedAddress() && V4.loopback.check(v6.toIPv4Address().toString(), 'ipv4'));
}
