/**
 * Rate limits per client (`rateLimit`): a token bucket per client (its session, else its address
 * through `trustedProxies`) and class (reads, writes, streams), on every route of the store;
 * past a bucket a 429 `rate_limited` problem with `Retry-After`, and the `RateLimit-Policy` /
 * `RateLimit` fields on every answer of a limited class. Buckets refill at `limit` per
 * `windowSeconds` (60 here), so a token comes back only every 20 s or more: no test waits for one.
 */
import type { StoreConfig } from '@store/core';
import { describe, expect, it } from 'vitest';
import { startAccess } from './access-fixtures';
import { startAuth } from './auth-fixtures';
import { openEvents } from './event-client';
import type { Start } from './fixtures';
import { type Api, expectProblem, type Reply } from './harness';

type RateLimitConfig = Exclude<NonNullable<StoreConfig['rateLimit']>, boolean>;
type RateLimitClass = 'reads' | 'writes' | 'streams';

/** One class of `rateLimit` with `limit` requests a minute, the others left off. */
const only = (name: keyof RateLimitConfig & RateLimitClass, limit: number): RateLimitConfig => ({
  reads: false,
  writes: false,
  streams: false,
  [name]: { limit, windowSeconds: 60 },
});

/** The two rate-limit fields of an answer. */
const fields = (reply: { headers: Headers }) => ({
  policy: reply.headers.get('ratelimit-policy'),
  limit: reply.headers.get('ratelimit'),
});

/** The `r` (whole requests left) of an answer's `RateLimit` field. */
const remaining = (reply: { headers: Headers }) => /;r=(\d+)/.exec(reply.headers.get('ratelimit') ?? '')?.[1];

/** Asserts the 429 of a spent bucket of `name`: problem, `Retry-After`, and both fields with `r=0`. */
function expectRateLimited(reply: Reply, name: string, limit: number): void {
  expectProblem(reply, 429, 'rate_limited');
  const retryAfter = Number(reply.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(fields(reply)).toEqual({
    policy: `"${name}";q=${limit};w=60`,
    limit: `"${name}";r=0;t=${retryAfter}`,
  });
}

const get = (api: Api, path: string, headers: Record<string, string> = {}) =>
  api.request('GET', path, { headers });

function bucketTests(start: Start): void {
  it('answers the N+1-th read in a window 429 rate_limited with Retry-After, RateLimit-Policy and RateLimit', async () => {
    const api = await start({ rateLimit: only('reads', 3) });
    const answers = [
      await get(api, '/posts'),
      await api.request('HEAD', '/posts'),
      await get(api, '/posts/x'),
    ];
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 404]);
    expect(answers.map(fields)).toEqual(
      ['2', '1', '0'].map((left) => ({
        policy: '"reads";q=3;w=60',
        limit: expect.stringMatching(new RegExp(`^"reads";r=${left};t=\\d+$`)),
      })),
    );
    expectRateLimited(await get(api, '/posts'), 'reads', 3);
  });

  it('counts writes and reads in separate buckets', async () => {
    const api = await start({
      rateLimit: { reads: { limit: 2, windowSeconds: 60 }, writes: { limit: 2, windowSeconds: 60 } },
    });
    const written = [await api.post('/posts', { n: 1 }), await api.post('/posts', { n: 2 })];
    expect(written.map(({ status }) => status)).toEqual([201, 201]);
    expect(fields(written[1] as Reply).policy).toBe('"writes";q=2;w=60');
    expectRateLimited(await api.request('DELETE', '/posts?n=1'), 'writes', 2);
    const read = await get(api, '/posts');
    expect([read.status, fields(read).policy, remaining(read)]).toEqual([200, '"reads";q=2;w=60', '1']);
    expect(await api.db.collection('posts').countDocuments({})).toBe(2);
  });

  it('gives a signed-in session and an anonymous address separate buckets', async () => {
    const access = await startAccess(start, {}, { rateLimit: only('reads', 2) });
    for (let i = 0; i < 2; i++) expect((await access.send('anonymous', 'GET', '/open')).status).toBe(200);
    expectRateLimited(await access.send('anonymous', 'GET', '/open'), 'reads', 2);
    const ada = await access.send('ada', 'GET', '/notes');
    expect([ada.status, remaining(ada)]).toEqual([200, '1']);
    const bob = await access.send('bob', 'GET', '/notes');
    expect([bob.status, remaining(bob)]).toEqual([200, '1']);
  });
}

function clientKeyTests(start: Start): void {
  const forwarded = (address: string) => ({ 'x-forwarded-for': address });

  it('gives two addresses behind a trusted proxy separate buckets', async () => {
    const api = await start({ rateLimit: only('reads', 1), trustedProxies: ['127.0.0.1', '::1'] });
    expect((await get(api, '/posts', forwarded('198.51.100.1'))).status).toBe(200);
    expectRateLimited(await get(api, '/posts', forwarded('198.51.100.1')), 'reads', 1);
    const other = await get(api, '/posts', forwarded('198.51.100.2'));
    expect([other.status, remaining(other)]).toEqual([200, '0']);
  });

  it("gives no new bucket for an untrusted peer's forged X-Forwarded-For", async () => {
    const api = await start({ rateLimit: only('reads', 1) });
    expect((await get(api, '/posts', forwarded('198.51.100.1'))).status).toBe(200);
    expectRateLimited(await get(api, '/posts', forwarded('198.51.100.2')), 'reads', 1);
    expectRateLimited(await get(api, '/posts', forwarded('203.0.113.7, 198.51.100.3')), 'reads', 1);
  });
}

function routeTests(start: Start): void {
  it('limits plugin routes (/auth/...) too, and a refused request never reaches the plugin', async () => {
    const rateLimit = { ...only('writes', 1), reads: { limit: 1, windowSeconds: 60 } };
    const auth = await startAuth(start, { config: { rateLimit } });
    const sent = await auth.send('POST', '/auth/magic-code/', { json: { email: 'ada@example.test' } });
    expect([sent.status, fields(sent).policy]).toEqual([202, '"writes";q=1;w=60']);
    const again = await auth.send('POST', '/auth/magic-code/', { json: { email: 'bob@example.test' } });
    expectRateLimited(again, 'writes', 1);
    expect(auth.mailbox.count()).toBe(1);
    const session = await auth.send('GET', '/auth/session');
    expect([session.status, fields(session).policy, remaining(session)]).toEqual([
      401,
      '"reads";q=1;w=60',
      '0',
    ]);
    expectRateLimited(await auth.send('GET', '/auth/session'), 'reads', 1);
  });

  it('counts event-stream openings in the streams class, not in reads', async () => {
    const api = await start({
      rateLimit: { reads: { limit: 1, windowSeconds: 60 }, streams: { limit: 1, windowSeconds: 60 } },
    });
    const stream = await openEvents(`${api.url}/posts`);
    expect([stream.status, fields(stream)]).toEqual([
      200,
      { policy: '"streams";q=1;w=60', limit: expect.any(String) },
    ]);
    const refused = await openEvents(`${api.url}/posts`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toMatch(/^"streams";r=0;t=\d+$/);
    expect(JSON.parse(await refused.text())).toMatchObject({ status: 429, code: 'rate_limited' });
    const read = await get(api, '/posts');
    expect([read.status, fields(read).policy, remaining(read)]).toEqual([200, '"reads";q=1;w=60', '0']);
    stream.close();
  });

  it('never counts a CORS preflight', async () => {
    const api = await start({ cors: true, rateLimit: only('writes', 1) });
    const preflight = {
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    };
    for (let i = 0; i < 3; i++) {
      const reply = await api.request('OPTIONS', '/posts', preflight);
      expect([reply.status, fields(reply)]).toEqual([204, { policy: null, limit: null }]);
    }
    const written = await api.post('/posts', { n: 1 });
    expect([written.status, remaining(written)]).toEqual([201, '0']);
  });

  it('changes nothing with the option off: no limit and no rate-limit field', async () => {
    const api = await start();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await get(api, '/posts'), await api.post('/posts', { i }));
    expect(answers.map(({ status }) => status)).toEqual(Array.from({ length: 5 }, () => [200, 201]).flat());
    expect(answers.map(fields)).toEqual(answers.map(() => ({ policy: null, limit: null })));
  });
}

/** The rate-limit cases over HTTP: registered by `suite.ts` on every adapter and engine. */
export function rateLimitTests(start: Start): void {
  describe('rate limits per client (rateLimit option)', () => {
    describe('buckets', () => bucketTests(start));
    describe('client keys', () => clientKeyTests(start));
    describe('routes and classes', () => routeTests(start));
  });
}
