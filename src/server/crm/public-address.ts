/**
 * Whether an outbound call may reach an address: a CRM's URLs are typed by a corporate's
 * administrator, so without this rule the server would call whatever they name on its own
 * network (server-side request forgery): the cloud metadata service at 169.254.169.254, the
 * database, another tenant's private service.
 *
 * Two checks, because a name can point anywhere:
 * - at save and before each call, a URL whose host is an address literal must be a public
 *   address ({@link literalHostAllowed});
 * - at connect time, every address a name resolves to must be public ({@link guardedLookup},
 *   the lookup of the agent {@link crmFetch} connects through). Checking at connect time, not
 *   in a separate resolution first, is what defeats a name that answers a public address to the
 *   check and a private one to the connection (DNS rebinding).
 *
 * Loopback is allowed only where the deployment allows http to loopback (tests' fake CRMs).
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Address ranges that are not the public internet (IANA special-purpose registries). */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function family(address: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

/**
 * Whether a connection may go to this IP address: a public one, or loopback when allowed.
 * IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const f = family(address);
  if (!f) return false;
  if (LOOPBACK.check(address, f)) return allowLoopback;
  return !INTERNAL.check(address, f);
}

/** A URL host without IPv6 brackets. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether a URL's host may be called as far as can be told without resolving it: an address
 * literal must be allowed; a name under `localhost` only with loopback allowed. Other names are
 * judged when they resolve ({@link guardedLookup}).
 */
export function literalHostAllowed(hostname: string, allowLoopback: boolean): boolean {
  const host = bare(hostname.toLowerCase()).replace(/\.+$/, '');
  if (family(host)) return addressAllowed(host, allowLoopback);
  if (host === 'localhost' || host.endsWith('.localhost')) return allowLoopback;
  return true;
}

/** The error a connection to an internal address fails with (the call is refused, not retried). */
export class InternalAddressError extends Error {
  readonly code = 'EINTERNALADDRESS';
  constructor(readonly hostname: string) {
    super(`${hostname} resolves to an internal network address`);
    this.name = 'InternalAddressError';
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `dns.lookup` for a socket's `lookup` option that fails when any address the name resolves to
 * is internal (one internal answer among public ones is refused too: the connection could pick
 * it).
 */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, options.all ? [] : '');
        return;
      }
      const bad = addresses.find((a) => !addressAllowed(a.address, allowLoopback));
      if (bad || addresses.length === 0) {
        callback(new InternalAddressError(hostname), options.all ? [] : '');
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
