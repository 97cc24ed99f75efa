/**
 * Rate limits per client: one token bucket per client key (`clientKeyOf`: its session, else its
 * address) and class of request: `reads` (`GET`, `HEAD`), `writes` (every other method but a
 * CORS preflight, which is never counted) and `streams` (opening a change-event stream). A bucket
 * holds `limit` tokens and gets them back evenly, `limit` per `windowSeconds`; each request takes
 * one, and a request that finds none is a 429 `rate_limited` with `Retry-After`.
 *
 * Every answer of a limited class carries the two fields of the IETF draft
 * draft-ietf-httpapi-ratelimit-headers-11 ("RateLimit header fields for HTTP"), one item each,
 * named after the class: `RateLimit-Policy: "reads";q=1000;w=60` (the bucket's size and window)
 * and `RateLimit: "reads";r=999;t=1`, where `r` is the whole tokens left and `t` the seconds
 * until the bucket is full again, or, when no token is left, until the next one comes (then the
 * same as `Retry-After`). Pacing `r` requests over `t` seconds therefore never empties it.
 *
 * The buckets live in memory, per process (several processes each count on their own). Memory
 * is bounded: each class keeps at most `maxClients` buckets in a map ordered by last use; a
 * bucket that is full again is dropped (it says nothing a new one would not), and past the cap
 * the least recently seen client's bucket goes first.
 *
 * Written here rather than taken from npm: `rate-limiter-flexible` (11.x, `RateLimiterMemory`)
 * counts fixed windows on the wall clock with a timer per key and no cap on keys, and `limiter`
 * (4.x) is one bucket per instance with no keyed store. Neither bounds memory against a flood of
 * addresses nor takes a clock a test can move; the bucket below is a few lines.
 */
import type { StoreError } from '@store/common';
import { storeError } from '../model/error-codes';
import type { StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedRateLimit, ResolvedRateLimitPolicy } from '../model/options';
import { isPreflight } from './cors';

/** The classes of request, each with its own bucket per client and its own policy name. */
export type RateLimitClass = 'reads' | 'writes' | 'streams';

/** Seconds on a clock that never goes back. */
export type Clock = () => number;

const monotonic: Clock = () => performance.now() / 1000;

/** Whole seconds to wait for `seconds` (a float's last bit never adds one). */
const wholeSeconds = (seconds: number) => Math.max(0, Math.ceil(seconds - 1e-9));

interface Bucket {
  /** Tokens at `at` (a fraction while one is coming back). */
  tokens: number;
  at: number;
}

/** What one request found in its bucket. */
export interface Taken {
  /** Whether a token was left for it. */
  allowed: boolean;
  /** Whole tokens left after it. */
  remaining: number;
  /** Seconds until the bucket is full again, or until the next token when none is left. */
  resetSeconds: number;
  /** Seconds until the next token (at least 1): the `Retry-After` of a refusal. */
  retryAfter: number;
}

/** The buckets of one class: one per client key, at most `maxClients`, the least recently seen dropped first. */
export class TokenBuckets {
  /** Ordered by last use: a key seen again moves to the end. */
  readonly #buckets = new Map<string, Bucket>();
  readonly #perSecond: number;

  constructor(
    readonly policy: ResolvedRateLimitPolicy,
    private readonly maxClients: number,
    private readonly now: Clock = monotonic,
  ) {
    this.#perSecond = policy.limit / policy.windowSeconds;
  }

  /** Clients whose buckets are kept. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes a token from `key`'s bucket when one is left (a key not seen yet starts full). */
  take(key: string): Taken {
    const now = this.now();
    const tokens = this.#tokensAt(this.#buckets.get(key), now);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.#buckets.delete(key);
    this.#buckets.set(key, { tokens: left, at: now });
    this.#evict(now);
    const remaining = Math.floor(left);
    const untilNext = Math.max(1, wholeSeconds((1 - (left % 1)) / this.#perSecond));
    const untilFull = wholeSeconds((this.policy.limit - left) / this.#perSecond);
    return {
      allowed,
      remaining,
      resetSeconds: remaining === 0 ? untilNext : untilFull,
      retryAfter: untilNext,
    };
  }

  #tokensAt(bucket: Bucket | undefined, now: number): number {
    if (bucket === undefined) return this.policy.limit;
    return Math.min(this.policy.limit, bucket.tokens + (now - bucket.at) * this.#perSecond);
  }

  /**
   * From the least recently seen: drops buckets past `maxClients`, and buckets full again, until
   * one that is neither (each bucket is dropped once, so this costs O(1) a request on average).
   */
  #evict(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      const over = this.#buckets.size > this.maxClients;
      if (!over && this.#tokensAt(bucket, now) < this.policy.limit) return;
      this.#buckets.delete(key);
    }
  }
}

/** The rate-limit part of one answer: its headers, and the refusal to answer instead when the bucket was empty. */
export interface RateLimitCharge {
  readonly headers: Readonly<Record<string, string>>;
  readonly refused: StoreError | undefined;
}

/**
 * The class a request counts in: `streams` when it opens an event stream, `reads` for `GET` and
 * `HEAD`, `writes` for any other method; `undefined` for a CORS preflight, never counted.
 */
export function rateLimitClass(request: StoreRequest, opensStream: boolean): RateLimitClass | undefined {
  if (isPreflight(request)) return undefined;
  if (opensStream) return 'streams';
  const { method } = request;
  return method === 'GET' || method === 'HEAD' ? 'reads' : 'writes';
}

/** The buckets of every limited class, for one store. */
export class RateLimiter {
  readonly #classes = new Map<RateLimitClass, TokenBuckets>();

  constructor(options: ResolvedRateLimit, now: Clock = monotonic) {
    for (const name of ['reads', 'writes', 'streams'] as const) {
      const policy = options[name];
      if (policy !== undefined) this.#classes.set(name, new TokenBuckets(policy, options.maxClients, now));
    }
  }

  /** Whether requests of `name` are limited. */
  limits(name: RateLimitClass): boolean {
    return this.#classes.has(name);
  }

  /** Counts one request of `name` for `clientKey`: `undefined` when that class is not limited. */
  charge(name: RateLimitClass, clientKey: string): RateLimitCharge | undefined {
    const buckets = this.#classes.get(name);
    if (buckets === undefined) return undefined;
    const { limit, windowSeconds } = buckets.policy;
    const taken = buckets.take(clientKey);
    const headers = {
      'ratelimit-policy': `"${name}";q=${limit};w=${windowSeconds}`,
      ratelimit: `"${name}";r=${taken.remaining};t=${taken.resetSeconds}`,
    };
    if (taken.allowed) return { headers, refused: undefined };
    const retryAfter = String(taken.retryAfter);
    const refused = storeError(
      'rate_limited',
      `This client sent more ${name} than rateLimit.${name} allows (${limit} per ${windowSeconds} s); retry after ${retryAfter} s.`,
      { headers: { ...headers, 'retry-after': retryAfter } },
    );
    return { headers, refused };
  }
}

/** `response` with the rate-limit headers of its request (its body or stream untouched). */
export function withRateLimitHeaders(response: StoreResponse, charge: RateLimitCharge): StoreResponse {
  return { ...response, headers: { ...response.headers, ...charge.headers } };
}
