/**
 * Who may reach `store serve`: its CORS (`--cors`, pages on a loopback origin by default) and
 * what it says at start about it and about the Host check of a loopback address.
 */
import type { StoreConfig } from '@store/core';
import { CliError } from './cli-error';
import { isLoopbackOrigin, LOOPBACK_NAMES } from './loopback';

/** `--cors`: `loopback` (the command's default), `*`, `off`, or a comma-separated list of origins. */
function corsOf(raw: string | undefined): StoreConfig['cors'] {
  if (raw === undefined || raw === 'loopback') return { origins: isLoopbackOrigin };
  if (raw === '*') return true;
  if (raw === 'off' || raw === 'false') return false;
  const origins = raw.split(',').map((origin) => origin.trim());
  const bad = origins.find((origin) => !URL.canParse(origin) || new URL(origin).origin !== origin);
  if (bad !== undefined) {
    throw new CliError(
      `--cors: "${bad}" is not an origin; give "loopback", "*", "off" or origins such as http://localhost:5173,https://app.example.com`,
      2,
    );
  }
  return { origins };
}

/**
 * The store's `cors`: `--cors` when given (it overrides the config's), else the config's `cors`,
 * else pages on a loopback origin only.
 */
export function corsOption(flag: string | undefined, configured: StoreConfig['cors']): StoreConfig['cors'] {
  return flag === undefined && configured !== undefined ? configured : corsOf(flag);
}

/** How the command's start-up lines describe the CORS in force. */
function corsLine(flag: string | undefined, fromConfig: boolean): string {
  if (fromConfig) return "browsers: pages of other origins may call it as the config's cors says";
  if (flag === undefined || flag === 'loopback') {
    return `browsers: only pages on ${LOOPBACK_NAMES.join(', ')} (any port) may call it; --cors sets others`;
  }
  if (flag === '*') {
    return 'warning: --cors "*": any web page open in a browser on a machine that reaches this store can read, change and delete its data';
  }
  if (flag === 'off' || flag === 'false')
    return 'browsers: no page of another origin may call it (--cors off)';
  return `browsers: only pages on ${flag} may call it`;
}

/** What `store serve` prints at start about who may reach it. */
export function accessLines(options: {
  /** Whether the server listens on a loopback address (then the Host check is on). */
  loopback: boolean;
  host: string;
  /** The names it answers requests for (with the loopback names). */
  answeredHosts: readonly string[];
  /** Whether `--allowed-hosts` was given. */
  allowedHosts: boolean;
  corsFlag: string | undefined;
  corsFromConfig: boolean;
}): string[] {
  const { loopback, host, allowedHosts } = options;
  const lines = [corsLine(options.corsFlag, options.corsFromConfig)];
  if (loopback) {
    const names = options.answeredHosts.join(', ');
    lines.push(
      `hosts: answers requests for ${names} only (others: 403 host_not_allowed; --allowed-hosts adds names)`,
    );
  } else {
    lines.push(
      `warning: ${host} is not a loopback address: other machines can reach the store, and requests for any Host name are answered (no DNS-rebinding check)`,
    );
    if (allowedHosts)
      lines.push('--allowed-hosts is not used: the Host check applies on a loopback address only');
  }
  return lines;
}
