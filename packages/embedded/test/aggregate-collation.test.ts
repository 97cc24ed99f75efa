/**
 * Collation in aggregation pipelines and `distinct`, and `let` in `find`, on the embedded engine:
 * strings compared by the collation in every `$match`, `$sort`, `$group` key, accumulator,
 * `$lookup` read and comparing expression, or refused by name (238), never compared binary.
 */

import type { Collation, Document } from '@store/common';
import { describe, expect, it } from 'vitest';
import type { EmbeddedCollection } from '../src/index';
import { createEmbeddedDb } from '../src/index';

const EN_2: Collation = { locale: 'en_US', strength: 2 };
const EN_1: Collation = { locale: 'en', strength: 1 };

const WORDS = [
  { _id: 1, x: 'cafe', n: 1 },
  { _id: 2, x: 'Café', n: 2 },
  { _id: 3, x: 'CAFE', n: 3 },
  { _id: 4, x: 'café', n: 4 },
  { _id: 5, x: 'tea', n: 5 },
  { _id: 6, x: 7, n: 6 },
];

async function collectionOf(
  docs: Document[],
  name = 'c',
  db = createEmbeddedDb(),
): Promise<EmbeddedCollection> {
  const coll = db.collection(name);
  if (docs.length > 0) await coll.insertMany(docs);
  return coll;
}

const idsOf = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

const aggregate = async (pipeline: Document[], collation?: Collation, docs: Document[] = WORDS) =>
  (await collectionOf(docs)).aggregate(pipeline, { collation }).toArray();

describe('aggregate with a collation', () => {
  it.each([
    ['no collation: binary', undefined, [3]],
    ['simple: binary', { locale: 'simple' }, [3]],
    ['strength 2: case does not count', EN_2, [1, 3]],
    ['strength 1: neither case nor accents count', EN_1, [1, 2, 3, 4]],
  ] satisfies Array<[string, Collation | undefined, number[]]>)(
    'a leading $match compares by the collation (%s)',
    async (_name, collation, expected) => {
      expect(idsOf(await aggregate([{ $match: { x: 'CAFE' } }], collation))).toEqual(expected);
    },
  );

  it("counts a count's pipeline (the driver's countDocuments) by the collation", async () => {
    const pipeline = [{ $match: { x: 'CAFE' } }, { $group: { _id: 1, n: { $sum: 1 } } }];
    expect(await aggregate(pipeline, EN_1)).toEqual([{ _id: 1, n: 4 }]);
    expect(await aggregate(pipeline)).toEqual([{ _id: 1, n: 1 }]);
  });

  it('a $match after other stages compares by the collation', async () => {
    const pipeline = [{ $set: { y: '$x' } }, { $match: { y: { $gte: 'CAFE', $lt: 'D' } } }];
    expect(idsOf(await aggregate(pipeline, EN_2))).toEqual([1, 2, 3, 4]);
    // Binary, 'Café' sorts after 'CAFE' (a > A) and before 'D'.
    expect(idsOf(await aggregate(pipeline))).toEqual([2, 3]);
  });

  it('$sort orders strings by the collation', async () => {
    const docs = [
      { _id: 1, v: 'b' },
      { _id: 2, v: '10' },
      { _id: 3, v: 'A' },
      { _id: 4, v: '9' },
    ];
    const pipeline = [{ $sort: { v: 1 } }];
    expect(idsOf(await aggregate(pipeline, undefined, docs))).toEqual([2, 4, 3, 1]);
    const numeric = { locale: 'en', numericOrdering: true };
    expect(idsOf(await aggregate(pipeline, numeric, docs))).toEqual([4, 2, 3, 1]);
    expect(idsOf(await aggregate([...pipeline, { $limit: 2 }], numeric, docs))).toEqual([4, 2]);
  });

  it('$group groups keys equal under the collation, the first seen as the _id', async () => {
    const pipeline = [{ $group: { _id: '$x', ids: { $push: '$_id' } } }];
    expect(await aggregate(pipeline, EN_2)).toEqual([
      { _id: 'cafe', ids: [1, 3] },
      { _id: 'Café', ids: [2, 4] },
      { _id: 'tea', ids: [5] },
      { _id: 7, ids: [6] },
    ]);
    expect(await aggregate(pipeline)).toHaveLength(6);
    const nested = [{ $group: { _id: { w: '$x' }, n: { $sum: 1 } } }];
    expect(await aggregate(nested, EN_1)).toEqual([
      { _id: { w: 'cafe' }, n: 4 },
      { _id: { w: 'tea' }, n: 1 },
      { _id: { w: 7 }, n: 1 },
    ]);
  });

  it('$min, $max and $addToSet compare strings by the collation', async () => {
    const docs = [
      { _id: 1, v: 'b' },
      { _id: 2, v: 'B' },
      { _id: 3, v: 'a' },
      { _id: 4, v: 'C' },
    ];
    const pipeline = [
      { $group: { _id: null, min: { $min: '$v' }, max: { $max: '$v' }, set: { $addToSet: '$v' } } },
    ];
    expect(await aggregate(pipeline, EN_2, docs)).toEqual([
      { _id: null, min: 'a', max: 'C', set: ['b', 'a', 'C'] },
    ]);
    expect(await aggregate(pipeline, undefined, docs)).toEqual([
      { _id: null, min: 'B', max: 'b', set: ['b', 'B', 'a', 'C'] },
    ]);
    const expression = [{ $match: { _id: 1 } }, { $project: { _id: 0, max: { $max: ['a', 'B'] } } }];
    expect(await aggregate(expression, EN_2, docs)).toEqual([{ max: 'B' }]);
    expect(await aggregate(expression, undefined, docs)).toEqual([{ max: 'a' }]);
  });

  it('$sortByCount groups by the collation', async () => {
    expect(await aggregate([{ $sortByCount: '$x' }], EN_1)).toEqual([
      { _id: 'cafe', count: 4 },
      { _id: 'tea', count: 1 },
      { _id: 7, count: 1 },
    ]);
  });

  it('$lookup matches the foreign collection by the collation', async () => {
    const db = createEmbeddedDb();
    const orders = await collectionOf([{ _id: 1, item: 'CAFE' }], 'orders', db);
    await collectionOf(WORDS, 'words', db);
    const pipeline = [
      { $lookup: { from: 'words', localField: 'item', foreignField: 'x', as: 'found' } },
      { $project: { ids: '$found._id' } },
    ];
    expect(await orders.aggregate(pipeline, { collation: EN_2 }).toArray()).toEqual([
      { _id: 1, ids: [1, 3] },
    ]);
    expect(await orders.aggregate(pipeline).toArray()).toEqual([{ _id: 1, ids: [3] }]);
  });

  it('$eq, $cmp, $in and their kin in expressions compare by the collation', async () => {
    const pipeline = [
      { $match: { _id: 3 } },
      {
        $project: {
          eq: { $eq: ['$x', 'cafe'] },
          ne: { $ne: ['$x', 'cafe'] },
          cmp: { $cmp: ['$x', 'cafe'] },
          lt: { $lt: ['$x', 'Caff'] },
          in: { $in: ['$x', ['tea', 'cafe']] },
          inArray: { $in: [['CAFE'], [['cafe']]] },
          numbers: { $gt: ['$n', 2] },
        },
      },
    ];
    expect(await aggregate(pipeline, EN_2)).toEqual([
      { _id: 3, eq: true, ne: false, cmp: 0, lt: true, in: true, inArray: true, numbers: true },
    ]);
    expect(await aggregate(pipeline)).toEqual([
      { _id: 3, eq: false, ne: true, cmp: -1, lt: true, in: false, inArray: false, numbers: true },
    ]);
  });

  it('a filter inside $project ($filter) compares by the collation', async () => {
    const pipeline = [
      { $match: { _id: 1 } },
      { $project: { kept: { $filter: { input: ['A', 'a', 'b'], cond: { $eq: ['$$this', 'a'] } } } } },
    ];
    expect(await aggregate(pipeline, EN_2)).toEqual([{ _id: 1, kept: ['A', 'a'] }]);
  });

  it.each([
    ['$setUnion', { $setUnion: [['a'], ['A']] }],
    ['$indexOfArray', { $indexOfArray: [['a', 'b'], 'B'] }],
    ['$sortArray', { $sortArray: { input: ['b', 'A'], sortBy: 1 } }],
  ])('refuses %s comparing strings under a collation by name (238)', async (name, expr) => {
    const error = await aggregate([{ $project: { v: expr } }], EN_2).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 238 });
    expect((error as Error).message).toContain(name);
  });

  it('computes a set expression holding no string under a collation', async () => {
    const pipeline = [{ $match: { _id: 1 } }, { $project: { v: { $setUnion: [[1], [2, 1]] } } }];
    const [doc] = await aggregate(pipeline, EN_2);
    expect([...((doc?.v ?? []) as number[])].sort()).toEqual([1, 2]);
  });

  it('refuses $expr in a $match under a collation by name (238)', async () => {
    await expect(aggregate([{ $match: { $expr: { $eq: ['$x', 'CAFE'] } } }], EN_2)).rejects.toMatchObject({
      code: 238,
    });
  });

  it('refuses a bad or inexpressible collation as find does', async () => {
    await expect(aggregate([], { locale: 'xx' })).rejects.toMatchObject({ code: 2 });
    await expect(aggregate([], { locale: 'en', strength: 4 })).rejects.toMatchObject({ code: 238 });
  });

  it('takes a collation on a database-level pipeline', async () => {
    const db = createEmbeddedDb();
    const pipeline = [{ $documents: [{ v: 'A' }, { v: 'b' }, { v: 'a' }] }, { $match: { v: 'a' } }];
    expect(await db.aggregate(pipeline, { collation: EN_2 }).toArray()).toEqual([{ v: 'A' }, { v: 'a' }]);
  });
});

describe('distinct with a collation', () => {
  it('keeps the first seen of values equal under the collation, in its order', async () => {
    const coll = await collectionOf([
      { _id: 1, s: 'PING' },
      { _id: 2, s: 'ping' },
      { _id: 3, s: ['b', 'Pong'] },
      { _id: 4, s: 'pong' },
    ]);
    expect(await coll.distinct('s', {}, { collation: EN_2 })).toEqual(['b', 'PING', 'Pong']);
    expect(await coll.distinct('s')).toEqual(['PING', 'Pong', 'b', 'ping', 'pong']);
  });

  it('matches its filter by the collation', async () => {
    const coll = await collectionOf(WORDS);
    expect(await coll.distinct('_id', { x: 'CAFE' }, { collation: EN_1 })).toEqual([1, 2, 3, 4]);
    expect(await coll.distinct('_id', { x: 'CAFE' })).toEqual([3]);
  });
});

describe('find with let', () => {
  it('gives $expr the variables of let, each evaluated once', async () => {
    const coll = await collectionOf(WORDS);
    const filter = { $expr: { $eq: ['$_id', '$$id'] } };
    expect(await coll.find(filter, { let: { id: 2 } }).toArray()).toEqual([WORDS[1]]);
    expect(await coll.find(filter, { let: { id: { $add: [1, 2] } } }).toArray()).toEqual([WORDS[2]]);
    expect(await coll.findOne({ $expr: { $gt: ['$n', '$$least'] } }, { let: { least: 4 } })).toEqual(
      WORDS[4],
    );
  });

  it('refuses a let that is not a document, or names a variable badly, as MongoDB does', async () => {
    const coll = await collectionOf(WORDS);
    await expect(coll.find({}, { let: 1 as never }).toArray()).rejects.toMatchObject({ code: 9 });
    await expect(coll.find({}, { let: { Bad: 1 } }).toArray()).rejects.toMatchObject({ code: 16867 });
    await expect(coll.find({}, { let: { x: '$field' } }).toArray()).rejects.toMatchObject({ code: 9 });
  });
});
