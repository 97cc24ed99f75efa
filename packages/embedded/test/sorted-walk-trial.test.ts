/**
 * A sorted page walked from an ordered index gives up for a scan and a sort when matches are rare
 * (past its trial of entries): the page is the same either way, in both directions, with ties on
 * an indexed field ordered by the other keys, and with matches near the start, the end, or nowhere.
 */
import { describe, expect, it } from 'vitest';
import { createEmbeddedDb } from '../src/index';

type Item = { _id: number; n: number; s: string };

const ITEMS: Item[] = Array.from({ length: 6000 }, (_, i) => ({
  _id: i,
  n: (i * 7919) % 500,
  // Rare values early, late and spread, so walks in either direction meet them at different depths.
  s: i === 3 || i === 5990 || i % 1700 === 11 ? 'rare' : i % 2 === 0 ? 'even' : 'odd',
}));

function expected(
  filter: (item: Item) => boolean,
  sort: readonly (readonly [keyof Item, 1 | -1])[],
  skip: number,
  limit: number,
) {
  const compare = (a: Item, b: Item) => {
    for (const [field, direction] of sort) {
      const order = (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0) * direction;
      if (order !== 0) return order;
    }
    return a._id - b._id;
  };
  return ITEMS.filter(filter)
    .sort(compare)
    .slice(skip, skip + limit);
}

describe('a sorted walk over rare matches', async () => {
  const db = createEmbeddedDb();
  const items = db.collection('items');
  await items.insertMany(ITEMS.map((item) => ({ ...item })));
  await items.createIndex({ n: 1 });

  it.each([
    ['rare matches by _id', { s: 'rare' }, [['_id', 1]], 0, 20],
    ['rare matches by _id, down', { s: 'rare' }, [['_id', -1]], 0, 20],
    [
      'rare matches by an indexed field with ties',
      { s: 'rare' },
      [
        ['n', 1],
        ['_id', -1],
      ],
      0,
      3,
    ],
    ['no match', { s: 'none' }, [['_id', 1]], 0, 20],
    ['common matches by _id (the walk fills the page)', { s: 'even' }, [['_id', -1]], 5, 20],
    ['common matches by n, down', { s: 'odd' }, [['n', -1]], 0, 50],
  ] as const)('%s', async (_, filter, sort, skip, limit) => {
    const found = await items.find(filter, { sort: Object.fromEntries(sort), skip, limit }).toArray();
    const want = expected((item) => item.s === filter.s, sort, skip, limit);
    expect(found).toEqual(want);
  });
});
