import { describe, expect, it } from 'vitest';
import type { StoreRequest } from '../model/http';
import { RateLimiter, rateLimitClass, TokenBuckets } from './rate-limit';

/** A clock the test moves by hand (seconds). */
function fakeClock() {
  let now = 1000;
  return {
    now: () => now,
    advance(seconds: number) {
      now += seconds;
    },
  };
}

/** `count` takes of `key`, answering whether each found a token. */
const takes = (buckets: TokenBuckets, key: string, count: number) =>
  Array.from({ length: count }, () => buckets.take(key).allowed);

describe('TokenBuckets', () => {
  it('lets a new client spend its whole bucket at once, then refuses until a token comes back', () => {
    const clock = fakeClock();
    const buckets = new TokenBuckets({ limit: 3, windowSeconds: 60 }, 100, clock.now);
    expect(takes(buckets, 'a', 3)).toEqual([true, true, true]);
    expect(buckets.take('a')).toEqual({ allowed: false, remaining: 0, resetSeconds: 20, retryAfter: 20 });
  });

  it('refills evenly, limit tokens per window: one every windowSeconds / limit', () => {
    const clock = fakeClock();
    const buckets = new TokenBuckets({ limit: 3, windowSeconds: 60 }, 100, clock.now);
    takes(buckets, 'a', 3);
    clock.advance(19);
    expect(buckets.take('a')).toMatchObject({ allowed: false, retryAfter: 1 });
    clock.advance(1);
    expect(takes(buckets, 'a', 2)).toEqual([true, false]);
    clock.advance(40);
    expect(takes(buckets, 'a', 3)).toEqual([true, true, false]);
  });

  it('caps a burst at limit, however long the client was idle', () => {
    const clock = fakeClock();
    const buckets = new TokenBuckets({ limit: 5, windowSeconds: 10 }, 100, clock.now);
    buckets.take('a');
    clock.advance(3600);
    expect(takes(buckets, 'a', 6)).toEqual([true, true, true, true, true, false]);
  });

  it('tells the tokens left and the seconds until the bucket is full again', () => {
    const clock = fakeClock();
    const buckets = new TokenBuckets({ limit: 10, windowSeconds: 60 }, 100, clock.now);
    expect(buckets.take('a')).toEqual({ allowed: true, remaining: 9, resetSeconds: 6, retryAfter: 6 });
    takes(buckets, 'a', 4);
    expect(buckets.take('a')).toMatchObject({ remaining: 4, resetSeconds: 36 });
    clock.advance(3);
    // Half a token came back: 3.5 left after this take, 39 s to full, the next token in 3 s.
    expect(buckets.take('a')).toMatchObject({ remaining: 3, resetSeconds: 39, retryAfter: 3 });
  });

  it('keeps one bucket per key: a client spending its own leaves the others full', () => {
    const buckets = new TokenBuckets({ limit: 2, windowSeconds: 60 }, 100, fakeClock().now);
    expect(takes(buckets, 'a', 3)).toEqual([true, true, false]);
    expect(takes(buckets, 'b', 2)).toEqual([true, true]);
  });

  it('keeps at most maxClients buckets, dropping the least recently seen client first', () => {
    const buckets = new TokenBuckets({ limit: 1, windowSeconds: 60 }, 3, fakeClock().now);
    for (const key of ['a', 'b', 'c']) buckets.take(key);
    buckets.take('a');
    buckets.take('d');
    expect(buckets.size).toBe(3);
    // b was seen least recently: dropped, so it starts full; a, c and d are still empty.
    expect(['a', 'c', 'b'].map((key) => buckets.take(key).allowed)).toEqual([false, false, true]);
  });

  it('stays within maxClients under a flood of distinct clients', () => {
    const buckets = new TokenBuckets({ limit: 10, windowSeconds: 60 }, 50, fakeClock().now);
    for (let i = 0; i < 10_000; i++) buckets.take(`address:198.51.${i >> 8}.${i & 255}`);
    expect(buckets.size).toBe(50);
  });

  it('drops the buckets of idle clients once they are full again', () => {
    const clock = fakeClock();
    const buckets = new TokenBuckets({ limit: 2, windowSeconds: 10 }, 100, clock.now);
    for (const key of ['a', 'b', 'c']) buckets.take(key);
    expect(buckets.size).toBe(3);
    clock.advance(5);
    buckets.take('d');
    expect(buckets.size).toBe(1);
  });
});

const request = (method: string, headers: Record<string, string> = {}): StoreRequest => ({
  method,
  path: '/posts',
  rawQuery: '',
  headers,
});

describe('rateLimitClass', () => {
  it.each([
    ['GET', false, 'reads'],
    ['HEAD', false, 'reads'],
    ['GET', true, 'streams'],
    ['POST', false, 'writes'],
    ['PUT', false, 'writes'],
    ['PATCH', false, 'writes'],
    ['DELETE', false, 'writes'],
    ['OPTIONS', false, 'writes'],
  ])('counts %s (opening a stream: %s) as %s', (method, opensStream, name) => {
    expect(rateLimitClass(request(method), opensStream)).toBe(name);
  });

  it('never counts a CORS preflight', () => {
    const preflight = request('OPTIONS', {
      origin: 'https://app.example.com',
      'access-control-request-method': 'POST',
    });
    expect(rateLimitClass(preflight, false)).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  const policies = {
    reads: { limit: 2, windowSeconds: 60 },
    writes: { limit: 1, windowSeconds: 10 },
    streams: undefined,
    maxClients: 100,
  };

  it('answers the RateLimit-Policy and RateLimit fields of the class, named after it', () => {
    const limiter = new RateLimiter(policies, fakeClock().now);
    expect(limiter.charge('reads', 'address:192.0.2.1')).toEqual({
      headers: { 'ratelimit-policy': '"reads";q=2;w=60', ratelimit: '"reads";r=1;t=30' },
      refused: undefined,
    });
  });

  it('refuses past the bucket with a 429 rate_limited naming the option, with Retry-After and the fields', () => {
    const limiter = new RateLimiter(policies, fakeClock().now);
    limiter.charge('writes', 'session:s1');
    const refused = limiter.charge('writes', 'session:s1')?.refused;
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refused?.detail).toContain('rateLimit.writes');
    expect(refused?.headers).toEqual({
      'ratelimit-policy': '"writes";q=1;w=10',
      ratelimit: '"writes";r=0;t=10',
      'retry-after': '10',
    });
  });

  it('counts each class in its own bucket, and leaves a class set to false uncounted', () => {
    const limiter = new RateLimiter(policies, fakeClock().now);
    expect(limiter.charge('writes', 'k')?.refused).toBeUndefined();
    expect(limiter.charge('reads', 'k')?.refused).toBeUndefined();
    expect([limiter.limits('streams'), limiter.charge('streams', 'k')]).toEqual([false, undefined]);
  });
});
