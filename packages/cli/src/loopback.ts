/**
 * Loopback names and addresses: how this machine alone is reached. The command's default CORS
 * lets pages on these names call the store, and a server bound to a loopback address answers
 * only requests for these names (and for those `--allowed-hosts` adds).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The names of this machine, as a URL's hostname spells them. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `address` (an address a server is bound to, as `server.address()` gives it) is loopback. */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return address.startsWith('127.');
  if (!isIPv6(address)) return false;
  const lower = address.toLowerCase();
  return lower === '::1' || (lower.startsWith('::ffff:') && isLoopbackAddress(lower.slice(7)));
}

/**
 * Whether `origin` (an `Origin` header, exactly as browsers send it) is a page on a loopback
 * name, over http or https, on any port.
 */
export function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.origin === origin &&
    LOOPBACK_NAMES.includes(url.hostname)
  );
}
