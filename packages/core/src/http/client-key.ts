/**
 * Who a client is, for every limit per client: its session when it has one, else its address,
 * read through `trustedProxies` so that a client cannot choose the address it is counted by.
 */
import type { RequestSession } from '../model/hooks';
import type { StoreRequest } from '../model/http';
import { idKeyOf } from '../model/id-key';
import type { TrustedProxies } from '../model/options';
import { addressKey, parseIp } from './ip-address';

/** What the client key reads of a request. */
export type ClientRequest = Pick<StoreRequest, 'ip' | 'headers'>;

/** The entries of `X-Forwarded-For`, left (the first client) to right (the last proxy's peer). */
function forwardedFor(request: ClientRequest): string[] {
  const header = request.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  return value === undefined ? [] : value.split(',');
}

/** An `X-Forwarded-For` entry's address: some proxies add a port (`192.0.2.1:5000`, `[2001:db8::1]:443`). */
function hopAddress(entry: string): string | undefined {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text)?.[1];
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text)?.[1];
  return parseIp(bracketed ?? withPort ?? text)?.address;
}

/**
 * The client's address: `request.ip` (`''` when the host reports none), unless that peer is one
 * of `proxies`. Then `X-Forwarded-For` is walked from the right, each trusted proxy giving the
 * next hop, and the first address that is not a trusted proxy is the client. Entries left of it
 * are what the client itself sent and are never read. An entry that is not an IP address (`unknown`,
 * an obfuscated name) stops the walk at the last trusted hop: that proxy's address becomes the
 * key, which the client cannot choose either. With no header, or only trusted hops, the
 * leftmost trusted hop is the client.
 */
export function clientAddress(request: ClientRequest, proxies: TrustedProxies): string {
  const peer = request.ip ?? '';
  if (!proxies.has(peer)) return peer;
  const hops = forwardedFor(request);
  let last = parseIp(peer)?.address ?? peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i] ?? '');
    if (hop === undefined) return last;
    if (!proxies.has(hop)) return hop;
    last = hop;
  }
  return last;
}

/**
 * The key every limit per client counts by: `session:<id>` for a request with a session that
 * has an id, `user:<_id>` for one whose plugin gives none, else `address:` and the
 * {@link addressKey} of {@link clientAddress} (an IPv4 address, an IPv6 /64). Tabs of one
 * browser share a session; people behind one office address each have their own.
 */
export function clientKeyOf(
  request: ClientRequest,
  session: RequestSession | null,
  proxies: TrustedProxies,
): string {
  if (session?.id !== undefined && session.id !== '') return `session:${session.id}`;
  const userId: unknown = session?.user._id;
  if (userId !== undefined && userId !== null) return `user:${idKeyOf(userId)}`;
  return `address:${addressKey(clientAddress(request, proxies))}`;
}
