import { isDuplicateKeyError } from './db';
import type { AuthDeps } from './deps';
import { AuthError } from './errors';
import type { ResolvedRateRule } from './resolved-options';
import { hashSecret } from './secrets';

/** What a limit counts: sends per address, sends per client IP. */
export type RateLimitScope = 'address' | 'ip';

async function increment(deps: AuthDeps, key: string, expiresAt: Date): Promise<number> {
  const counters = deps.db.collection(deps.options.rateLimit.collection);
  const update = { $inc: { count: 1 }, $setOnInsert: { expiresAt } };
  const options = { upsert: true, returnDocument: 'after' } as const;
  let counter: Awaited<ReturnType<typeof counters.findOneAndUpdate>>;
  try {
    counter = await counters.findOneAndUpdate({ key }, update, options);
  } catch (error) {
    // Two processes inserted the same new window at once: the unique key lets one win; count again.
    if (!isDuplicateKeyError(error)) throw error;
    counter = await counters.findOneAndUpdate({ key }, update, options);
  }
  return typeof counter?.count === 'number' ? counter.count : Number.POSITIVE_INFINITY;
}

/**
 * Counts one send against a fixed window kept in the database (one atomic `$inc` upsert, so
 * several processes share it; the counted value is stored as a keyed hash, never in clear).
 * Past the limit: 429 `too_many_requests` with `Retry-After` (seconds until the window ends).
 */
export async function hitRateLimit(
  deps: AuthDeps,
  scope: RateLimitScope,
  value: string,
  rule: ResolvedRateRule,
): Promise<void> {
  const now = deps.options.clock().getTime();
  const windowStart = now - (now % rule.windowMs);
  const windowEnd = windowStart + rule.windowMs;
  const key = `${scope}:${hashSecret(deps.options.secret, 'rate', scope, value)}:${windowStart}`;
  const count = await increment(deps, key, new Date(windowEnd));
  if (count <= rule.max) return;
  const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
  throw new AuthError('too_many_requests', `Too many sign-in requests for this ${scope}; retry later`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/** Applies the per-IP limit (when the IP is known) and the per-address limit, as configured. */
export async function hitSendLimits(
  deps: AuthDeps,
  email: string,
  ip: string | null | undefined,
): Promise<void> {
  const { perIp, perAddress } = deps.options.rateLimit;
  if (perIp !== null && typeof ip === 'string' && ip !== '') await hitRateLimit(deps, 'ip', ip, perIp);
  if (perAddress !== null) await hitRateLimit(deps, 'address', email, perAddress);
}
