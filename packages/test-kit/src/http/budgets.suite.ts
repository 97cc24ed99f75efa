import type { HookContext, StoreConfig } from '@store/core';
import { describe, expect, it } from 'vitest';
import type { EngineUnderTest } from '../engines';
import { startAccess } from './access-fixtures';
import type { Start } from './fixtures';
import { type Api, asArray, expectProblem, field, type Reply } from './harness';

/** A title long enough that each `contains` test costs something; every title ends with "end". */
const LONG = 'lorem ipsum '.repeat(64);

/** Rows of the long requests: enough for a scan of many slices, few enough for every adapter. */
const ROWS = 600;

/**
 * `$or` of 20 `contains` (case-insensitive `$regex`) groups: 19 match nothing, the last what
 * `last` says. The 19 hold a non-ASCII letter, so RE2 runs them: an ASCII `contains` is a plain
 * string search on the embedded engine, too quick for the scan to span slices.
 */
const twentyRegexes = (last: string) =>
  Array.from({ length: 20 }, (_, k) => `$or[${k}][title:contains]=${k === 19 ? last : `zq${k}é`}`).join('&');

async function seedPosts(api: Api, count: number): Promise<void> {
  const posts = Array.from({ length: count }, (_, i) => ({ _id: i, title: `${LONG}${i} end`, n: i }));
  await api.db.collection('posts').insertMany(posts);
}

/** Hooks that report when a request carrying `$$long` reaches its route. */
function longSignal() {
  let started: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    started = resolve;
  });
  const signal = (ctx: HookContext) => {
    if (ctx.flags.long !== undefined) started();
  };
  return { reached, hooks: { beforeRead: signal, beforeWrite: signal } };
}

/**
 * Sends `long`, then, once it reached its route, `GET /posts/7`: the order the two answers
 * completed in, and both answers.
 */
async function raceOneGet(api: Api, reached: Promise<void>, long: () => Promise<Reply>) {
  const order: string[] = [];
  const slow = long().then((reply) => {
    order.push('long');
    return reply;
  });
  await reached;
  const quick = await api.get('/posts/7');
  order.push('get');
  return { order, quick, slow: await slow };
}

/** `it`, or, where `applies` is false, `it.skip` whose title gives `reason`. */
function itWhere(applies: boolean, reason: string) {
  return (title: string, test: () => Promise<void>) =>
    applies ? it(title, test) : it.skip(`${title} (skipped: ${reason})`, test);
}

const NO_EXAMINED_LIMIT = 'MongoDB has no examined limit; only time and bytes budgets apply there';

/** Budgets per request (examined, time, bytes of an answer), bulk caps, and requests that never hold others up. */
export function budgetTests(start: Start, engine: EngineUnderTest): void {
  const embedded = engine.name === 'embedded';

  describe('a long request does not hold up a short one', () => {
    it('answers GET /posts/:id started during a scan of 20 $regex terms before the scan', async () => {
      const { reached, hooks } = longSignal();
      const api = await start({ resources: { posts: { hooks } } });
      await seedPosts(api, ROWS);
      const race = await raceOneGet(api, reached, () => api.get(`/posts?${twentyRegexes('zz19x')}&$$long=1`));
      expect(race.order).toEqual(['get', 'long']);
      expect(field(race.quick.json, '_id')).toBe(7);
      expect(race.slow.status, race.slow.text).toBe(200);
      expect(race.slow.json).toEqual([]);
    });

    it('answers GET /posts/:id started during a bulk PATCH by filter before the PATCH', async () => {
      const { reached, hooks } = longSignal();
      const api = await start({ maxBulk: ROWS, resources: { posts: { hooks } } });
      await seedPosts(api, ROWS);
      const race = await raceOneGet(api, reached, () =>
        api.request('PATCH', `/posts?${twentyRegexes('end')}&$$long=1`, { body: { seen: true } }),
      );
      expect(race.order).toEqual(['get', 'long']);
      expect(race.quick.status, race.quick.text).toBe(200);
      expect(race.slow.json, race.slow.text).toEqual({ matched: ROWS, modified: ROWS });
      expect((await api.get('/posts?seen:bool=true&$count=1')).json).toEqual({ count: ROWS });
    });
  });

  describe('budgets.examined', () => {
    itWhere(embedded, NO_EXAMINED_LIMIT)(
      'answers 422 budget_exceeded naming budgets.examined past it, and pages and lookups by id within it',
      async () => {
        const api = await start({ budgets: { examined: 50 } });
        await seedPosts(api, 200);
        for (const path of ['/posts?title:contains=zz', '/posts?$count=1&n:gt=3', '/posts?$total=1&n:gt=3']) {
          const refused = await api.get(path);
          expectProblem(refused, 422, 'budget_exceeded');
          expect(refused.json).toMatchObject({ budget: 'examined', limit: 50 });
          expect(field(refused.json, 'detail')).toMatch(/50 .*budgets\.examined/);
        }
        expect((await api.get('/posts/7')).status).toBe(200);
        expect(asArray((await api.get('/posts?$limit=5')).json)).toHaveLength(5);
      },
    );

    itWhere(embedded, NO_EXAMINED_LIMIT)(
      'refuses a bulk PATCH by filter past it before any write',
      async () => {
        const api = await start({ budgets: { examined: 50 } });
        await seedPosts(api, 200);
        const refused = await api.request('PATCH', '/posts?title:contains=end', { body: { seen: true } });
        expectProblem(refused, 422, 'budget_exceeded');
        expect(await api.db.collection('posts').countDocuments({ seen: true })).toBe(0);
      },
    );
  });

  describe('budgets.timeMS', () => {
    it('answers a scan past a time budget of 1 ms (a function of the request) with 503 query_timeout', async () => {
      const timeMS = (ctx: HookContext) => (ctx.flags.hurry === 'yes' ? 1 : 5000);
      const api = await start({ budgets: { timeMS } });
      await seedPosts(api, ROWS);
      const query = twentyRegexes('zz19x');
      const refused = await api.get(`/posts?${query}&$$hurry=yes`);
      expectProblem(refused, 503, 'query_timeout');
      expect(field(refused.json, 'detail')).toContain('1 ms');
      expect((await api.get(`/posts?${query}`)).json).toEqual([]);
    });
  });

  describe('budgets.answerBytes', () => {
    /** Comments of 200 bytes each; the store accepts bodies of 1 kb and answers reads of 4 kb. */
    const SMALL: StoreConfig = { bodyLimit: '1kb', budgets: { answerBytes: '4kb' } };

    it('answers 422 budget_exceeded naming budgets.answerBytes for a page past it, never a part of it', async () => {
      const api = await start(SMALL);
      const comments = Array.from({ length: 40 }, (_, i) => ({ _id: i, post_id: 1, text: 'c'.repeat(200) }));
      await api.db.collection('comments').insertMany(comments);
      await api.db.collection('posts').insertOne({ _id: 1, title: 'p' });
      for (const path of [
        '/comments?$limit=40',
        '/posts/1?$populate=comments',
        '/posts?$populate=comments',
      ]) {
        const refused = await api.get(path);
        expectProblem(refused, 422, 'budget_exceeded');
        expect(refused.json).toMatchObject({ budget: 'answerBytes', limit: 4096 });
        expect(field(refused.json, 'detail')).toContain('budgets.answerBytes');
      }
      expect(asArray((await api.get('/comments?$limit=10')).json)).toHaveLength(10);
    });

    it('gives a signed-in admin more than an anonymous reader when it is a function of the request', async () => {
      const answerBytes = (ctx: HookContext) => (ctx.user?.role === 'admin' ? 1024 * 1024 : 2048);
      const access = await startAccess(start, {}, { budgets: { answerBytes } });
      await access.api.db
        .collection('users')
        .updateOne({ email: 'ada@example.test' }, { $set: { role: 'admin' } });
      const notes = Array.from({ length: 30 }, (_, i) => ({ _id: `o${i}`, text: 'o'.repeat(200) }));
      await access.api.db.collection('open').insertMany(notes);
      const anonymous = await access.send('anonymous', 'GET', '/open?$limit=40');
      expect({ status: anonymous.status, code: field(anonymous.json, 'code') }).toEqual({
        status: 422,
        code: 'budget_exceeded',
      });
      expect(field(anonymous.json, 'limit')).toBe(2048);
      expect((await access.send('bob', 'GET', '/open?$limit=40')).status).toBe(422);
      const admin = await access.send('ada', 'GET', '/open?$limit=40');
      expect(admin.status, admin.text).toBe(200);
      expect(asArray(admin.json)).toHaveLength(32);
    });
  });

  describe('maxBulk on bulk PATCH and DELETE by filter', () => {
    it('refuses more than maxBulk matching documents with 400 too_many_items before any write, and runs within it', async () => {
      const api = await start({ maxBulk: 3 });
      const notes = Array.from({ length: 5 }, (_, i) => ({ _id: i, tag: i < 3 ? 'red' : 'blue' }));
      await api.db.collection('notes').insertMany(notes);
      for (const [method, body] of [
        ['PATCH', { seen: true }],
        ['DELETE', undefined],
      ] as const) {
        const refused = await api.request(method, '/notes?_id:exists=true', { body });
        expectProblem(refused, 400, 'too_many_items');
        expect(field(refused.json, 'detail')).toContain('maxBulk');
      }
      expect(await api.db.collection('notes').countDocuments({})).toBe(5);
      expect(await api.db.collection('notes').countDocuments({ seen: true })).toBe(0);
      const patched = await api.request('PATCH', '/notes?tag=red', { body: { seen: true } });
      expect(patched.json).toEqual({ matched: 3, modified: 3 });
      expect((await api.request('DELETE', '/notes?tag=red')).json).toEqual({ deleted: 3 });
      expect(await api.db.collection('notes').countDocuments({})).toBe(2);
    });
  });
}
