/**
 * The Host check of a server bound to a loopback address. A page of another site can reach such a
 * server through DNS rebinding (its own name made to resolve to 127.0.0.1), and its requests then
 * carry that name in `Host`. Only requests for a loopback name, for the name the server was
 * started on (`--host`), or for a name of `--allowed-hosts` (`a.test`, or `.a.test` for it and its
 * subdomains) are answered; any other gets 403 `host_not_allowed`, saying how to allow it.
 */
import { isIPv6 } from 'node:net';
import type { StoreError } from '@store/common';
import { CliError } from './cli-error';
import { cliError } from './error-codes';
import { LOOPBACK_NAMES } from './loopback';

/** How many answered Host headers a server remembers (see {@link hostCheck}). */
const ANSWERED_HEADERS_KEPT = 64;

/** A Host header: a name, an IPv4 address or a bracketed IPv6 one, then an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]\\]+)(?::(\d{1,5}))?$/i;

/** The host name of `host` as a URL spells it (lowercase, `[::1]`, IDN as punycode), and whether a port followed. */
function parseHost(host: string): { hostname: string; port: boolean } | undefined {
  const match = HOST_HEADER.exec(host);
  const name = match?.[1];
  if (name === undefined || name.startsWith('.') || !URL.canParse(`http://${name}`)) return undefined;
  return { hostname: new URL(`http://${name}`).hostname, port: match?.[2] !== undefined };
}

/** `--allowed-hosts a.test,.b.test`: the names, checked; a usage error names a bad one. */
export function parseAllowedHosts(raw: string | undefined): readonly string[] {
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    const text = entry.trim();
    if (text === '*' || text === 'all') {
      throw new CliError(
        `--allowed-hosts takes names, not "${text}": answering every Host would let any site reach the data through DNS rebinding`,
        2,
      );
    }
    const wildcard = text.startsWith('.');
    const parsed = parseHost(wildcard ? text.slice(1) : text);
    if (parsed === undefined || parsed.port) {
      throw new CliError(
        `--allowed-hosts: "${text}" is not a host name; give names such as a.test, or .a.test for a.test and its subdomains (no scheme, no port)`,
        2,
      );
    }
    return wildcard ? `.${parsed.hostname}` : parsed.hostname;
  });
}

/** The name a URL to `host` (the address the server listens on) carries: `[::1]` for `::1`. */
function boundName(host: string): string | undefined {
  return parseHost(isIPv6(host) ? `[${host}]` : host)?.hostname;
}

/**
 * Every name a server started on `host` with `allowed` answers requests for: the loopback names,
 * `host`'s own, then `allowed` (`.a.test` stands for a.test and its subdomains).
 */
export function answeredHosts(host: string, allowed: readonly string[]): readonly string[] {
  const bound = boundName(host);
  return [...new Set([...LOOPBACK_NAMES, ...(bound ? [bound] : []), ...allowed])];
}

/**
 * The Host check of a server started on `host` with `allowed` names: `undefined` for a request
 * it answers, else the `host_not_allowed` error to answer with.
 */
export function hostCheck(
  host: string,
  allowed: readonly string[],
): (header: string | undefined) => StoreError | undefined {
  const answered = answeredHosts(host, allowed);
  const names = new Set(answered.filter((name) => !name.startsWith('.')));
  const domains = answered.filter((name) => name.startsWith('.'));
  const matches = (hostname: string) =>
    names.has(hostname) ||
    domains.some((domain) => hostname === domain.slice(1) || hostname.endsWith(domain));
  // Host headers answered before: a client sends the same one on every request, and parsing it
  // as a URL costs more than a microsecond. Bounded (cleared when full): any client may send any Host.
  const answeredHeaders = new Set<string>();
  return (header) => {
    if (header !== undefined && answeredHeaders.has(header)) return undefined;
    const hostname = header === undefined ? undefined : parseHost(header)?.hostname;
    if (hostname !== undefined && matches(hostname)) {
      if (answeredHeaders.size >= ANSWERED_HEADERS_KEPT) answeredHeaders.clear();
      answeredHeaders.add(header as string);
      return undefined;
    }
    const asked = header === undefined ? 'no Host header' : `Host "${header.slice(0, 200)}"`;
    const allow =
      hostname === undefined
        ? 'Send the name the store is reached by in Host.'
        : `If ${hostname} is a name of this machine that you control, start the store with --allowed-hosts ${hostname}.`;
    return cliError(
      'host_not_allowed',
      `This store listens on a loopback address and answers only requests for ${answered.join(', ')}; this request has ${asked}. A page of another site reaching the store under its own name (DNS rebinding) is refused this way. ${allow}`,
      { data: { host: header?.slice(0, 200) } },
    );
  };
}
