import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses an avatar may be fetched from: public unicast ones only. Anything an
 * attacker could use to reach the service's own network (loopback, private ranges, the cloud
 * metadata service at 169.254.169.254, …) is refused. Ranges follow the IANA IPv4 and IPv6
 * Special-Purpose Address Registries; Node's `BlockList` does the parsing and matching.
 */

/** IPv4 ranges that are not publicly routable unicast. */
const NON_PUBLIC_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network" (RFC 791); 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT shared space (RFC 6598)
  ['127.0.0.0', 8], // loopback (RFC 1122)
  ['169.254.0.0', 16], // link-local, including the cloud metadata service (RFC 3927)
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24], // documentation TEST-NET-1 (RFC 5737)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation TEST-NET-2 (RFC 5737)
  ['203.0.113.0', 24], // documentation TEST-NET-3 (RFC 5737)
  ['224.0.0.0', 4], // multicast (RFC 5771)
  ['240.0.0.0', 4], // reserved (RFC 1112), including the limited broadcast 255.255.255.255
];

/**
 * Special ranges inside the global unicast block 2000::/3. Everything outside that block (loopback
 * ::1, unspecified ::, NAT64 64:ff9b::/96, unique-local fc00::/7, link-local fe80::/10, multicast
 * ff00::/8, …) is refused without being listed.
 */
const NON_PUBLIC_GLOBAL_IPV6: readonly (readonly [string, number])[] = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID (RFC 2928)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['2002::', 16], // 6to4, which embeds an arbitrary IPv4 address (RFC 3056)
  ['3fff::', 20], // documentation (RFC 9637)
];

function blockList(family: 'ipv4' | 'ipv6', ranges: readonly (readonly [string, number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const nonPublicIpv4 = blockList('ipv4', NON_PUBLIC_IPV4);
const globalUnicastIpv6 = blockList('ipv6', [['2000::', 3]]);
const nonPublicGlobalIpv6 = blockList('ipv6', NON_PUBLIC_GLOBAL_IPV6);
const ipv4MappedIpv6 = blockList('ipv6', [['::ffff:0:0', 96]]);

/**
 * Whether `address` (an IPv4 or IPv6 address in any textual form) is public unicast. An
 * IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is judged as the IPv4 address it maps to. Anything
 * that is not a valid address, including IPv6 with a zone (`fe80::1%eth0`), is not public.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !nonPublicIpv4.check(address, 'ipv4');
  if (family !== 6 || address.includes('%')) return false;
  // BlockList matches IPv4 rules against IPv4-mapped IPv6 addresses.
  if (ipv4MappedIpv6.check(address, 'ipv6')) return !nonPublicIpv4.check(address, 'ipv6');
  return globalUnicastIpv6.check(address, 'ipv6') && !nonPublicGlobalIpv6.check(address, 'ipv6');
}
