import { BlockList, isIP } from 'node:net';
import { invalidOption } from '@store/common';
import { parseIp } from '../http/ip-address';
import type { TrustedProxies } from '../model/options';

const EXAMPLE = 'such as "10.0.0.1", "10.0.0.0/8" or "2001:db8::/32"';

/** Adds one entry (`address` or `address/prefix`) to `list`, or fails naming `option`. */
function addEntry(list: BlockList, entry: unknown, option: string): string {
  if (typeof entry !== 'string') invalidOption(option, `expected an IP address or a CIDR range ${EXAMPLE}`);
  const [address = '', prefix, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) {
    invalidOption(option, `expected an IP address or a CIDR range ${EXAMPLE}`);
  }
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    list.addAddress(address, family);
    return entry;
  }
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (!(bits <= (version === 4 ? 32 : 128))) {
    invalidOption(option, `expected a prefix length from 0 to ${version === 4 ? 32 : 128} after "/"`);
  }
  list.addSubnet(address, bits, family);
  return entry;
}

/**
 * `trustedProxies`: the addresses and CIDR ranges (IPv4, IPv6) of the reverse proxies whose
 * `X-Forwarded-For` the store believes. A bad entry fails naming it (`trustedProxies[1]`).
 */
export function resolveTrustedProxies(value: unknown): TrustedProxies {
  if (!Array.isArray(value)) {
    invalidOption('trustedProxies', `expected an array of IP addresses or CIDR ranges ${EXAMPLE}`);
  }
  const list = new BlockList();
  const entries = value.map((entry, i) => addEntry(list, entry, `trustedProxies[${i}]`));
  const has =
    entries.length === 0
      ? () => false
      : (address: string) => {
          const ip = parseIp(address);
          return ip !== undefined && list.check(ip.address, ip.family);
        };
  return Object.freeze({ entries: Object.freeze(entries), has });
}
