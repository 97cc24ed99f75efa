/**
 * IP addresses as limits see them: one spelling per address, and the key a client without a
 * session is limited by (an IPv4 address, an IPv6 /64).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** An IP address in one spelling: lower case, no zone id, an IPv4-mapped IPv6 address as IPv4. */
export interface IpAddress {
  readonly address: string;
  readonly family: 'ipv4' | 'ipv6';
}

/** Groups of a full IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  // A trailing dotted IPv4 part (`::ffff:192.0.2.1`) is two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined && dotted[2] !== undefined) {
    const bytes = dotted[2].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  return [...left, ...new Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) stands for, if it is one. */
function mappedIPv4(groups: readonly number[]): string | undefined {
  if (!groups.slice(0, 5).every((group) => group === 0) || groups[5] !== 0xffff) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** `text` in one spelling: no surrounding spaces, lower case, no zone id (`%eth0`). */
const spelled = (text: string): string => text.trim().toLowerCase().replace(/%.*$/, '');

/** `text` as an {@link IpAddress} (surrounding spaces and a zone id dropped), or undefined when it is not one. */
export function parseIp(text: string): IpAddress | undefined {
  const address = spelled(text);
  if (isIPv4(address)) return { address, family: 'ipv4' };
  const groups = isIPv6(address) ? ipv6Groups(address) : null;
  if (groups === null) return undefined;
  const ipv4 = mappedIPv4(groups);
  return ipv4 === undefined ? { address, family: 'ipv6' } : { address: ipv4, family: 'ipv4' };
}

/**
 * The key a client without a session is limited by: an IPv4 address as is; an IPv6 address by
 * its /64 network (one subscriber usually holds a whole /64, so rotating within it gains
 * nothing); an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as its IPv4 address. Zone ids are
 * dropped. Anything else (a host that reports no IP) is used as given.
 */
export function addressKey(ip: string): string {
  const parsed = parseIp(ip);
  if (parsed === undefined) return spelled(ip);
  if (parsed.family === 'ipv4') return parsed.address;
  const groups = ipv6Groups(parsed.address) ?? [];
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
