/**
 * Which network addresses a webhook may be sent to. In AWS the sender refuses anything but public unicast
 * addresses, so a merchant cannot point an endpoint (or a hostname that resolves) at our own network or at the
 * instance metadata service. Pure: node:net only.
 */
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
  reserved: ranges([['0.0.0.0', 8], ['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]], 'ipv4'),
};
const V6 = {
  loopback: ranges([['::1', 128]], 'ipv6'),
  link_local: ranges([['fe80::', 10]], 'ipv6'),
  private: ranges([['fc00::', 7]], 'ipv6'),
  reserved: ranges([['::', 128], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64]], 'ipv6'),
};

/** IPv4 carried inside IPv6 (::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d) is judged as the IPv4 it carries. */
function embeddedIPv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:0:)?(.+)$/i.exec(address);
  if (!match) return null;
  const tail = match[1]!;
  if (isIPv4(tail)) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * @example
 * classifyAddress('169.254.169.254') // 'metadata'
 * classifyAddress('::ffff:10.0.0.1') // 'private'
 * classifyAddress('93.184.216.34')   // 'public'
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (METADATA.has(bare)) return 'metadata';
  if (isIPv4(bare)) {
    for (const [kind, list] of Object.entries(V4)) if (list.check(bare, 'ipv4')) return kind as AddressClass;
    return 'public';
  }
  if (isIPv6(bare)) {
    const v4 = embeddedIPv4(bare);
    if (v4) return classifyAddress(v4);
    for (const [kind, list] of Object.entries(V6)) if (list.check(bare, 'ipv6')) return kind as AddressClass;
    return 'public';
  }
  return 'invalid';
}

/** Whether the sender may connect to this address; loopback is allowed only where the sandbox says so. */
export function isAllowedAddress(address: string, { allowLoopback }: { allowLoopback: boolean }): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (allowLoopback && kind === 'loopback');
}
