/**
 * `X-Total-Count` (`$total=1`) on every engine: the last page of a filter (not full, no cursor)
 * tells its total by itself, what it skipped plus what it holds, and the store does not count;
 * an engine that reads a page by testing every document (the embedded engine's scans,
 * `findWithCount`) tells the count of that same read; other pages are counted. Either way the
 * total is the filter's.
 */
import type { Document, StoreCollection, StoreDb } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreHandler } from '../../src/model/http';
import { send } from '../support/send';

const POSTS: Document[] = Array.from({ length: 5 }, (_, i) => ({
  _id: `p${i}`,
  n: i,
  tag: i < 3 ? 'a' : 'b',
}));

/** `db` with its `countDocuments` calls counted. */
function countingCounts(db: StoreDb): { db: StoreDb; counts: () => number } {
  let counts = 0;
  const collection = (name: string): StoreCollection =>
    new Proxy(db.collection(name), {
      get(target, key) {
        if (key === 'countDocuments') {
          return (...args: Parameters<StoreCollection['countDocuments']>) => {
            counts += 1;
            return target.countDocuments(...args);
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const counted = new Proxy(db, {
    get(target, key) {
      if (key === 'collection') return collection;
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: counted, counts: () => counts };
}

describeEngines('the total of a page', (engine) => {
  let handle: StoreHandler;
  let counts: () => number;
  /** Whether the engine counts a page's matches as it reads it (`findWithCount`). */
  let tells: boolean;

  beforeEach(async () => {
    const db = await engine.createDb();
    await db.collection('posts').insertMany(POSTS.map((doc) => ({ ...doc })));
    tells = typeof db.collection('posts').findWithCount === 'function';
    const counting = countingCounts(db);
    counts = counting.counts;
    handle = createStoreHandler({ db: counting.db });
    await handle.ready;
  });
  afterEach(async () => {
    await handle.close();
  });

  /**
   * How the total is found: `told` by the page itself (never counted), `counted` (once), or
   * `scanned`: told by the read that scanned for it on an engine that counts as it reads, counted
   * on the others.
   */
  type Found = 'told' | 'counted' | 'scanned';
  const PAGES: [string, Found, string, number, string][] = [
    ['the whole collection on one page', 'told', '$total=1', 5, '5'],
    ['a filter on one page', 'told', 'tag=a&$total=1', 3, '3'],
    ['the last page after others', 'told', '$total=1&$limit=2&$page=2', 1, '5'],
    ['an empty filter', 'told', 'tag=c&$total=1', 0, '0'],
    // Pages in `_id` order, read from the `_id` index (the walk stops once the page is full).
    ['a full page', 'counted', '$total=1&$limit=2', 2, '5'],
    ['a full last page', 'counted', '$total=1&$limit=5', 5, '5'],
    ['an empty page past the last', 'counted', '$total=1&$limit=2&$page=5', 0, '5'],
    ['a filter past its last page', 'counted', 'tag=b&$total=1&$limit=2&$page=1', 0, '2'],
    ['a full sorted page', 'scanned', '$total=1&$sort=-n&$limit=2', 2, '5'],
    ['a full sorted page of a filter', 'scanned', 'tag=a&$total=1&$sort=n&$limit=2', 2, '3'],
    ['a sorted page past the last', 'scanned', 'tag=a&$total=1&$sort=n&$limit=2&$page=3', 0, '3'],
  ];

  it.each(PAGES)("is the filter's for %s (%s)", async (_title, found, query, documents, total) => {
    const answer = await send(handle, 'GET', `/posts?${query}`);
    expect((answer.body as Document[]).length).toBe(documents);
    expect(answer.headers['x-total-count']).toBe(total);
    const expected = found === 'told' || (found === 'scanned' && tells) ? 0 : 1;
    expect(counts()).toBe(expected);
  });

  it('is counted for the last page after a cursor: the total is the whole filter', async () => {
    const first = await send(handle, 'GET', '/posts?$sort=n&$limit=3&$total=1');
    expect(first.headers['x-total-count']).toBe('5');
    const next = /[?&](\$after=[^&>]+)/.exec(first.headers.link ?? '')?.[1];
    expect(next).toBeDefined();
    const last = await send(handle, 'GET', `/posts?$sort=n&$limit=3&$total=1&${next}`);
    expect((last.body as Document[]).map((doc) => doc.n)).toEqual([3, 4]);
    expect(last.headers['x-total-count']).toBe('5');
    // The first page's sorted scan told its total on an engine that counts as it reads.
    expect(counts()).toBe(tells ? 1 : 2);
  });
});
