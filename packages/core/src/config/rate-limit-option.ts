/** The `rateLimit` option: off, or a token bucket per client for each class of request (docs/rest-api.md#rate-limits). */
import { checkInteger, checkKeys, invalidOption, isPlainObject } from '@store/common';
import type { RateLimitConfig, RateLimitPolicyConfig } from '../model/config';
import type { ResolvedRateLimit, ResolvedRateLimitPolicy } from '../model/options';

const RATE_LIMIT_OPTIONS = [
  'reads',
  'writes',
  'streams',
  'maxClients',
] as const satisfies readonly (keyof RateLimitConfig)[];

const POLICY_OPTIONS = ['limit', 'windowSeconds'] as const satisfies readonly (keyof RateLimitPolicyConfig)[];

type RateLimitClass = 'reads' | 'writes' | 'streams';

/**
 * The defaults of each class once `rateLimit` is on: generous for one person's app or a test
 * run (a page that fires dozens of reads at once never waits), tight enough that a script
 * looping on the store is slowed to a few requests a second.
 */
const RATE_LIMIT_DEFAULTS: Readonly<Record<RateLimitClass, ResolvedRateLimitPolicy>> = {
  reads: { limit: 1000, windowSeconds: 60 },
  writes: { limit: 300, windowSeconds: 60 },
  streams: { limit: 60, windowSeconds: 60 },
};

/** Clients whose buckets each class keeps in memory (about 300 bytes each: under 10 MB for three classes). */
const DEFAULT_MAX_CLIENTS = 10_000;

/** Most seconds in a window: a day (a longer one could not be told apart from no limit). */
const MAX_WINDOW_SECONDS = 86_400;

function resolvePolicy(value: unknown, name: RateLimitClass): ResolvedRateLimitPolicy | undefined {
  if (value === false) return undefined;
  const option = `rateLimit.${name}`;
  const config: RateLimitPolicyConfig = checkKeys(value ?? {}, option, POLICY_OPTIONS);
  const defaults = RATE_LIMIT_DEFAULTS[name];
  const windowSeconds = checkInteger(
    config.windowSeconds ?? defaults.windowSeconds,
    `${option}.windowSeconds`,
    1,
  );
  if (windowSeconds > MAX_WINDOW_SECONDS) {
    invalidOption(`${option}.windowSeconds`, `expected at most ${MAX_WINDOW_SECONDS} (a day)`);
  }
  const limit = checkInteger(config.limit ?? defaults.limit, `${option}.limit`, 1);
  return Object.freeze({ limit, windowSeconds });
}

/** Resolves `rateLimit`: undefined or `false` is off; `true` or `{}` the defaults of every class. */
export function resolveRateLimit(value: unknown): ResolvedRateLimit | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== true && !isPlainObject(value)) {
    invalidOption('rateLimit', 'expected true, false or { reads, writes, streams, maxClients }');
  }
  const config: RateLimitConfig = value === true ? {} : checkKeys(value, 'rateLimit', RATE_LIMIT_OPTIONS);
  return Object.freeze({
    reads: resolvePolicy(config.reads, 'reads'),
    writes: resolvePolicy(config.writes, 'writes'),
    streams: resolvePolicy(config.streams, 'streams'),
    maxClients: checkInteger(config.maxClients ?? DEFAULT_MAX_CLIENTS, 'rateLimit.maxClients', 1),
  });
}
