import type { AuthCollection } from './db';
import { isDuplicateKeyError } from './db';
import type { AuthDeps } from './deps';
import { AuthError } from './errors';
import type { ResolvedRateRule } from './resolved-options';
import { hashSecret } from './secrets';

/**
 * What a limit counts: mail per address (and strategy), requests per client, wrong code
 * guesses per client and address.
 */
export type RateLimitScope = 'address' | 'ip' | 'guess';

/** A counted hit; `release()` takes it back (a send that failed is not charged). */
export interface RateHit {
  release(): Promise<void>;
}

/**
 * Pushes `hit` when fewer than `max` hits fall within the window (an upsert: a missing counter
 * is created). A full counter makes the upsert insert a second document under the unique key,
 * which fails: that, twice (the first may be two processes creating the counter at once), is a
 * refusal. `false` when refused.
 */
async function pushHit(
  counters: AuthCollection,
  key: string,
  hit: number,
  rule: ResolvedRateRule,
  now: number,
): Promise<boolean> {
  // A hit is `ms + fraction`: the oldest leaves the window once its millisecond is a window ago.
  const filter = {
    key,
    $or: [{ [`hits.${rule.max - 1}`]: { $exists: false } }, { 'hits.0': { $lt: now - rule.windowMs + 1 } }],
  };
  const update = {
    $push: { hits: { $each: [hit], $slice: -rule.max } },
    $set: { expiresAt: new Date(now + rule.windowMs) },
  };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await counters.updateOne(filter, update, { upsert: true });
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
  return false;
}

async function refuse(
  counters: AuthCollection,
  key: string,
  rule: ResolvedRateRule,
  now: number,
  scope: string,
) {
  const current = await counters.findOne({ key });
  const hits = Array.isArray(current?.hits) ? (current.hits as unknown[]) : [];
  const oldest = typeof hits[0] === 'number' ? Math.floor(hits[0]) : now;
  const retryAfter = Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000));
  return new AuthError('too_many_requests', `Too many sign-in requests for this ${scope}; retry later`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/**
 * Counts one hit against a sliding window kept in the database: the counter holds the times of
 * the last `max` hits, and a hit is taken only when fewer than `max` fall within the last
 * `window` (one atomic conditional `$push`, so several processes share it; the counted value is
 * stored as a keyed hash, never in clear). At no instant do more than `max` hits fall within any
 * window. Past the limit: 429 `too_many_requests` with `Retry-After` (seconds until the oldest
 * counted hit leaves the window).
 */
export async function hitRateLimit(
  deps: AuthDeps,
  scope: RateLimitScope,
  value: string,
  rule: ResolvedRateRule,
): Promise<RateHit> {
  const counters = deps.db.collection(deps.options.rateLimit.collection);
  const now = deps.options.clock().getTime();
  const key = `${scope}:${hashSecret(deps.options.secret, 'rate', scope, value)}`;
  // Unique within the millisecond, so a release takes back exactly this hit.
  const hit = now + Math.random();
  if (!(await pushHit(counters, key, hit, rule, now))) {
    throw await refuse(counters, key, rule, now, scope === 'address' ? 'address' : 'client');
  }
  return {
    async release() {
      await counters.updateOne({ key }, { $pull: { hits: hit } });
    },
  };
}
