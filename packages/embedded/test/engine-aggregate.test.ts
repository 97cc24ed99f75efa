/**
 * Aggregation pipelines, `distinct` and counts of the embedded engine: MongoDB's answers for the
 * stages it runs, a refusal naming what it does not (NotImplemented, 238; a stage MongoDB does
 * not know, 40324), and pipelines that keep to the engine's slices and budgets.
 */
import type { Document } from '@store/common';
import { createEmbeddedDb, type EmbeddedCollection, type EmbeddedDb } from '@store/embedded';
import { ObjectId } from 'bson';
import { beforeAll, describe, expect, it } from 'vitest';

const SALES: Document[] = [
  { _id: 1, item: 'abc', price: 10, qty: 2, tags: ['a', 'b'], shop: { city: 'Oslo' } },
  { _id: 2, item: 'jkl', price: 20, qty: 1, tags: ['b'], shop: { city: 'Rome' } },
  { _id: 3, item: 'xyz', price: 5, qty: 10, tags: [], shop: { city: 'Oslo' } },
  { _id: 4, item: 'xyz', price: 5, qty: 20, shop: { city: 'Lima' } },
  { _id: 5, item: 'abc', price: 10, qty: 10, tags: 'c', shop: null },
];

const ITEMS: Document[] = [
  { _id: 'abc', label: 'Apple', stock: 3 },
  { _id: 'jkl', label: 'Jam', stock: 0 },
  { _id: 'xyz', label: 'Yarn', stock: 9 },
  { _id: 'nul', label: 'Nothing' },
];

let db: EmbeddedDb;
let sales: EmbeddedCollection;

const run = (pipeline: Document[], options: Document = {}) => sales.aggregate(pipeline, options).toArray();

beforeAll(async () => {
  db = createEmbeddedDb();
  sales = db.collection('sales');
  await sales.insertMany(SALES);
  await db.collection('items').insertMany(ITEMS);
});

describe('aggregate: stages', () => {
  it('runs a leading $match through the collection (indexes and all) and later ones over the documents in hand', async () => {
    await sales.createIndex({ item: 1 });
    expect(await run([{ $match: { item: 'abc' } }])).toEqual([SALES[0], SALES[4]]);
    expect(await run([{ $sort: { qty: -1 } }, { $match: { qty: { $gte: 10 } } }])).toEqual([
      SALES[3],
      SALES[2],
      SALES[4],
    ]);
    expect(await run([{ $match: { item: { $regex: '^x' } } }, { $match: { qty: 20 } }])).toEqual([SALES[3]]);
  });

  it('answers an empty pipeline with every document, in natural order', async () => {
    expect(await run([])).toEqual(SALES);
  });

  it('projects, adds, sets and unsets fields', async () => {
    expect(
      await run([
        { $match: { _id: 1 } },
        { $project: { _id: 0, item: 1, total: { $multiply: ['$price', '$qty'] } } },
      ]),
    ).toEqual([{ item: 'abc', total: 20 }]);
    expect(
      await run([
        { $match: { _id: 2 } },
        { $addFields: { total: { $multiply: ['$price', '$qty'] } } },
        { $unset: ['tags', 'shop'] },
      ]),
    ).toEqual([{ _id: 2, item: 'jkl', price: 20, qty: 1, total: 20 }]);
    expect(
      await run([{ $match: { _id: 1 } }, { $set: { 'shop.zip': '0150' } }, { $project: { shop: 1 } }]),
    ).toEqual([{ _id: 1, shop: { city: 'Oslo', zip: '0150' } }]);
  });

  it("writes a $project's included fields in the document's order, then the computed ones in the specification's", async () => {
    const [doc] = await run([
      { $match: { _id: 1 } },
      { $project: { z: '$qty', qty: 1, item: 1, 'shop.city': 1 } },
    ]);
    expect(Object.keys(doc as Document)).toEqual(['_id', 'item', 'qty', 'shop', 'z']);
    const [excluded] = await run([{ $match: { _id: 1 } }, { $project: { tags: 0, price: 0 } }]);
    expect(Object.keys(excluded as Document)).toEqual(['_id', 'item', 'qty', 'shop']);
  });

  it('takes _id: 1 beside exclusions, and refuses by name a computed $project path through an array', async () => {
    const [doc] = await run([{ $match: { _id: 2 } }, { $project: { _id: 1, tags: 0, shop: 0 } }]);
    expect(doc).toEqual({ _id: 2, item: 'jkl', price: 20, qty: 1 });
    const error = await run([{ $project: { 'tags.n': '$qty' } }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 238 });
    expect((error as Error).message).toContain('tags.n');
    expect(await run([{ $match: { _id: 1 } }, { $project: { 'shop.n': '$qty' } }])).toEqual([
      { _id: 1, shop: { n: 2 } },
    ]);
  });

  it('leaves out a field whose expression is missing, as MongoDB does', async () => {
    const [doc] = await run([{ $match: { _id: 1 } }, { $project: { _id: 0, x: '$missing', item: 1 } }]);
    expect(Object.keys(doc as Document)).toEqual(['item']);
  });

  it('computes $first, $last, $min, $sum and $avg as array expressions, and refuses $push as one', async () => {
    const [doc] = await run([
      { $match: { _id: 1 } },
      {
        $project: {
          _id: 0,
          f: { $first: '$tags' },
          l: { $last: '$tags' },
          m: { $min: [3, 1] },
          s: { $sum: [1, 2] },
          a: { $avg: [1, 2] },
        },
      },
    ]);
    expect(doc).toEqual({ f: 'a', l: 'b', m: 1, s: 3, a: 1.5 });
    await expect(run([{ $project: { p: { $push: '$tags' } } }])).rejects.toMatchObject({ code: 2 });
  });

  it('refuses an empty $project and an empty $unset', async () => {
    await expect(run([{ $project: {} }])).rejects.toMatchObject({ code: 2 });
    await expect(run([{ $unset: [] }])).rejects.toMatchObject({ code: 2 });
  });

  it('never changes the stored documents (dotted $set, $unset and $project, $unwind)', async () => {
    await run([{ $set: { 'shop.city': 'Paris' } }, { $unwind: '$tags' }]);
    await run([{ $unset: 'shop.city' }]);
    await run([{ $project: { 'shop.city': 0 } }]);
    await run([{ $project: { shop: { city: 0 } } }]);
    await run([{ $project: { tags: 0, _id: 0 } }, { $unset: 'qty' }]);
    await run([{ $replaceWith: { $mergeObjects: ['$shop', { at: '$_id' }] } }]);
    expect(await sales.find({}).toArray()).toEqual(SALES);
    const nested = db.collection('nested');
    await nested.insertOne({ _id: 1, arr: [{ x: 1, y: 2 }, { x: 3 }, 5] });
    expect(await nested.aggregate([{ $unset: 'arr.x' }]).toArray()).toEqual([
      { _id: 1, arr: [{ y: 2 }, {}, 5] },
    ]);
    expect(await nested.aggregate([{ $project: { 'arr.x': 1 } }]).toArray()).toEqual([
      { _id: 1, arr: [{ x: 1 }, { x: 3 }] },
    ]);
    expect(await nested.find({}).toArray()).toEqual([{ _id: 1, arr: [{ x: 1, y: 2 }, { x: 3 }, 5] }]);
  });

  it('writes a dotted $set into every element of an array, replacing a scalar on the way by a sub-document', async () => {
    const nested = db.collection('nested-set');
    await nested.insertMany([
      { _id: 1, arr: [{ x: 1 }, 5, [{ x: 2 }]], s: 'str', o: { keep: 1 } },
      { _id: 2, o: { keep: 2 } },
    ]);
    expect(
      await nested.aggregate([{ $set: { 'arr.z': '$_id', 's.t': 1, o: { added: true } } }]).toArray(),
    ).toEqual([
      { _id: 1, arr: [{ x: 1, z: 1 }, { z: 1 }, [{ x: 2, z: 1 }]], s: { t: 1 }, o: { keep: 1, added: true } },
      { _id: 2, o: { keep: 2, added: true }, arr: { z: 2 }, s: { t: 1 } },
    ]);
    expect(await nested.aggregate([{ $set: { o: '$$REMOVE' } }]).toArray()).toEqual([
      { _id: 1, arr: [{ x: 1 }, 5, [{ x: 2 }]], s: 'str' },
      { _id: 2 },
    ]);
  });

  it('groups by BSON equality with the common accumulators; a missing _id groups as null', async () => {
    const grouped = await run([
      {
        $group: {
          _id: '$item',
          n: { $sum: 1 },
          qty: { $sum: '$qty' },
          avg: { $avg: '$price' },
          min: { $min: '$qty' },
          max: { $max: '$qty' },
          first: { $first: '$_id' },
          last: { $last: '$_id' },
          ids: { $push: '$_id' },
          prices: { $addToSet: '$price' },
          count: { $count: {} },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(grouped).toEqual([
      {
        _id: 'abc',
        n: 2,
        qty: 12,
        avg: 10,
        min: 2,
        max: 10,
        first: 1,
        last: 5,
        ids: [1, 5],
        prices: [10],
        count: 2,
      },
      {
        _id: 'jkl',
        n: 1,
        qty: 1,
        avg: 20,
        min: 1,
        max: 1,
        first: 2,
        last: 2,
        ids: [2],
        prices: [20],
        count: 1,
      },
      {
        _id: 'xyz',
        n: 2,
        qty: 30,
        avg: 5,
        min: 10,
        max: 20,
        first: 3,
        last: 4,
        ids: [3, 4],
        prices: [5],
        count: 2,
      },
    ]);
    expect(await run([{ $group: { _id: '$nothing', n: { $sum: 1 } } }])).toEqual([{ _id: null, n: 5 }]);
    expect(
      await run([{ $group: { _id: null, cities: { $push: '$shop.city' }, tags: { $addToSet: '$tags' } } }]),
    ).toEqual([{ _id: null, cities: ['Oslo', 'Rome', 'Oslo', 'Lima'], tags: [['a', 'b'], ['b'], [], 'c'] }]);
    expect(await run([{ $match: { _id: 0 } }, { $group: { _id: null, n: { $sum: 1 } } }])).toEqual([]);
  });

  it('takes $min and $max in MongoDB order across types, skipping null and missing', async () => {
    const mixed = db.collection('mixed');
    await mixed.insertMany([{ v: 'a' }, { v: 3 }, { v: null }, {}, { v: new Date(0) }]);
    expect(
      await mixed.aggregate([{ $group: { _id: 1, min: { $min: '$v' }, max: { $max: '$v' } } }]).toArray(),
    ).toEqual([{ _id: 1, min: 3, max: new Date(0) }]);
  });

  it('sorts in MongoDB order, then skips and limits', async () => {
    expect(
      (await run([{ $sort: { price: -1, _id: 1 } }, { $skip: 1 }, { $limit: 2 }])).map((d) => d._id),
    ).toEqual([1, 5]);
    expect((await run([{ $sort: { 'shop.city': 1, _id: -1 } }])).map((d) => d._id)).toEqual([5, 4, 3, 1, 2]);
  });

  it('counts with $count and $sortByCount', async () => {
    expect(await run([{ $match: { price: 5 } }, { $count: 'cheap' }])).toEqual([{ cheap: 2 }]);
    expect(await run([{ $match: { price: 99 } }, { $count: 'none' }])).toEqual([]);
    const counted = await run([{ $sortByCount: '$shop.city' }]);
    expect(counted[0]).toEqual({ _id: 'Oslo', count: 2 });
    expect(counted).toHaveLength(4);
  });

  it('unwinds arrays: a scalar is one element; null, missing and [] only when preserved', async () => {
    expect((await run([{ $unwind: '$tags' }])).map((d) => [d._id, d.tags])).toEqual([
      [1, 'a'],
      [1, 'b'],
      [2, 'b'],
      [5, 'c'],
    ]);
    const kept = await run([
      { $unwind: { path: '$tags', preserveNullAndEmptyArrays: true, includeArrayIndex: 'at' } },
      { $project: { tags: 1, at: 1 } },
    ]);
    expect(kept).toEqual([
      { _id: 1, tags: 'a', at: 0 },
      { _id: 1, tags: 'b', at: 1 },
      { _id: 2, tags: 'b', at: 0 },
      { _id: 3, at: null },
      { _id: 4, at: null },
      { _id: 5, tags: 'c', at: null },
    ]);
  });

  it('replaces the root', async () => {
    expect(await run([{ $match: { _id: 1 } }, { $replaceRoot: { newRoot: '$shop' } }])).toEqual([
      { city: 'Oslo' },
    ]);
    expect(await run([{ $match: { _id: 2 } }, { $replaceWith: { name: '$item' } }])).toEqual([
      { name: 'jkl' },
    ]);
    await expect(run([{ $replaceWith: '$shop' }])).rejects.toMatchObject({ code: 2 });
  });

  it('runs $facet sub-pipelines over the same documents', async () => {
    expect(
      await run([
        {
          $facet: {
            cheap: [{ $match: { price: 5 } }, { $count: 'n' }],
            items: [{ $group: { _id: '$item' } }, { $sort: { _id: -1 } }],
          },
        },
      ]),
    ).toEqual([{ cheap: [{ n: 2 }], items: [{ _id: 'xyz' }, { _id: 'jkl' }, { _id: 'abc' }] }]);
  });
});

describe('aggregate: $lookup', () => {
  it('joins by equality, in the foreign natural order; a missing local value matches null and missing', async () => {
    const joined = await run([
      { $match: { _id: { $in: [1, 4] } } },
      { $lookup: { from: 'items', localField: 'item', foreignField: '_id', as: 'found' } },
      { $project: { found: 1 } },
    ]);
    expect(joined).toEqual([
      { _id: 1, found: [ITEMS[0]] },
      { _id: 4, found: [ITEMS[2]] },
    ]);
    const byMissing = await db
      .collection('items')
      .aggregate([
        { $match: { _id: 'nul' } },
        { $lookup: { from: 'sales', localField: 'nothing', foreignField: 'shop', as: 'sales' } },
      ])
      .toArray();
    expect(((byMissing[0]?.sales ?? []) as Document[]).map((d) => d._id)).toEqual([5]);
  });

  it('matches each element of an array local value', async () => {
    const tags = db.collection('tags');
    await tags.insertMany([
      { _id: 'b', n: 2 },
      { _id: 'a', n: 1 },
    ]);
    const joined = await run([
      { $match: { _id: 1 } },
      { $lookup: { from: 'tags', localField: 'tags', foreignField: '_id', as: 't' } },
    ]);
    expect(joined[0]?.t).toEqual([
      { _id: 'b', n: 2 },
      { _id: 'a', n: 1 },
    ]);
  });

  it('runs a pipeline with the let variables of each document', async () => {
    const joined = await run([
      { $match: { _id: { $in: [1, 2] } } },
      {
        $lookup: {
          from: 'items',
          let: { wanted: '$item', most: '$qty' },
          pipeline: [
            { $match: { $expr: { $and: [{ $eq: ['$_id', '$$wanted'] }, { $lt: ['$stock', '$$most'] }] } } },
            { $project: { label: 1 } },
          ],
          as: 'short',
        },
      },
      { $project: { short: 1 } },
    ]);
    expect(joined).toEqual([
      { _id: 1, short: [] },
      { _id: 2, short: [{ _id: 'jkl', label: 'Jam' }] },
    ]);
  });

  it('joins nothing from a collection that does not exist', async () => {
    const joined = await run([
      { $match: { _id: 1 } },
      { $lookup: { from: 'nowhere', localField: 'item', foreignField: 'x', as: 'none' } },
    ]);
    expect(joined[0]?.none).toEqual([]);
  });
});

describe('aggregate: let', () => {
  it('makes its variables visible in expressions and in $match $expr', async () => {
    const out = await run(
      [
        { $match: { $expr: { $eq: ['$_id', '$$id'] } } },
        { $project: { _id: 0, x: '$$x', y: '$$y', sum: { $add: ['$qty', '$$n'] } } },
      ],
      { let: { id: 2, x: 'foo', y: { $literal: '$bar' }, n: { $add: [1, 2] } } },
    );
    expect(out).toEqual([{ x: 'foo', y: '$bar', sum: 4 }]);
  });

  it('keeps a name an inner $let binds apart from the let variable of the same name', async () => {
    const out = await run(
      [{ $match: { $expr: { $let: { vars: { id: 3 }, in: { $eq: ['$_id', '$$id'] } } } } }],
      { let: { id: 2 } },
    );
    expect(out.map((d) => d._id)).toEqual([3]);
  });

  it('refuses a variable name MongoDB refuses, with its code (16867) and the name', async () => {
    await expect(run([], { let: { Bad: 1 } })).rejects.toMatchObject({
      code: 16867,
      message: expect.stringContaining("'Bad'"),
    });
  });
});

describe('aggregate: refusals by name', () => {
  it.each(['$out', '$merge', '$bucket', '$graphLookup', '$unionWith', '$sample', '$setWindowFields'])(
    'refuses %s with NotImplemented (238) naming it',
    async (stage) => {
      const error = await run([{ [stage]: 'x' }]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 238, codeName: 'NotImplemented' });
      expect((error as Error).message).toContain(stage);
    },
  );

  it('refuses a stage MongoDB does not know with 40324', async () => {
    await expect(run([{ $bogus: {} }])).rejects.toMatchObject({
      code: 40324,
      message: "Unrecognized pipeline stage name: '$bogus'",
    });
  });

  it('refuses a stage that is not an object of one field with 40323', async () => {
    await expect(run([{ $match: {}, $limit: 1 }])).rejects.toMatchObject({ code: 40323 });
  });

  it('refuses an accumulator it does not compute by name (238), and an unknown one as MongoDB does', async () => {
    const error = await run([{ $group: { _id: null, s: { $stdDevPop: '$qty' } } }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 238 });
    expect((error as Error).message).toContain('$stdDevPop');
    await expect(run([{ $group: { _id: null, s: { $nope: 1 } } }])).rejects.toMatchObject({ code: 2 });
  });

  it('refuses options it does not implement (explain) by name', async () => {
    const error = await run([], { explain: true } as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 238 });
    expect((error as Error).message).toContain('explain');
    expect(await run([], { batchSize: 2, comment: 'x', allowDiskUse: true })).toHaveLength(5);
  });

  it('checks a hint names an index', async () => {
    expect(await run([{ $match: { item: 'jkl' } }], { hint: 'item_1' })).toEqual([SALES[1]]);
    await expect(run([], { hint: 'nope_1' })).rejects.toMatchObject({ code: 2 });
  });

  it('refuses $text after the first stage and near operators in $match', async () => {
    await expect(run([{ $skip: 0 }, { $match: { $text: { $search: 'x' } } }])).rejects.toMatchObject({
      code: 2,
    });
    await expect(run([{ $match: { loc: { $near: [0, 0] } } }])).rejects.toMatchObject({ code: 2 });
  });

  it('refuses $meta (text scores are not kept)', async () => {
    await expect(run([{ $project: { s: { $meta: 'textScore' } } }])).rejects.toMatchObject({ code: 238 });
  });
});

describe('aggregate at the database level', () => {
  it('starts from $documents and runs the stages after it', async () => {
    const out = await db
      .aggregate([
        { $documents: [{ x: 2 }, { x: 1 }, { x: 3 }] },
        { $match: { x: { $gte: 2 } } },
        { $sort: { x: 1 } },
      ])
      .toArray();
    expect(out).toEqual([{ x: 2 }, { x: 3 }]);
  });

  it('joins the database collections with $lookup', async () => {
    const out = await db
      .aggregate([
        { $documents: [{ item: 'jkl' }] },
        { $lookup: { from: 'items', localField: 'item', foreignField: '_id', as: 'i' } },
      ])
      .toArray();
    expect(out).toEqual([{ item: 'jkl', i: [ITEMS[1]] }]);
  });

  it.each(['$currentOp', '$listLocalSessions', '$listSessions'])(
    'refuses %s with NotImplemented (238) naming it',
    async (stage) => {
      const error = await db
        .aggregate([{ [stage]: {} }, { $limit: 1 }])
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 238 });
      expect((error as Error).message).toContain(stage);
    },
  );

  it('refuses a database-level pipeline that needs a collection (code 73), as MongoDB does', async () => {
    await expect(db.aggregate([{ $match: {} }]).toArray()).rejects.toMatchObject({ code: 73 });
    await expect(db.aggregate([]).toArray()).rejects.toMatchObject({ code: 73 });
  });

  it('refuses $documents in a collection pipeline', async () => {
    await expect(run([{ $documents: [] }])).rejects.toMatchObject({ code: 2 });
  });
});

describe('aggregate: slices and budgets', () => {
  const MANY = 10_000;
  let big: EmbeddedCollection;
  beforeAll(async () => {
    big = db.collection('big');
    await big.insertMany(
      Array.from({ length: MANY }, (_, i) => ({ _id: i, n: i % 100, tags: ['a', 'b', 'c'] })),
    );
  });

  const LONG: Document[] = [
    { $unwind: '$tags' },
    { $addFields: { m: { $mod: ['$_id', 7] } } },
    { $group: { _id: { n: '$n', m: '$m' }, c: { $sum: 1 } } },
    { $sort: { c: -1, '_id.n': 1, '_id.m': 1 } },
  ];

  it('refuses a long pipeline past maxTimeMS with code 50', async () => {
    await expect(big.aggregate(LONG, { maxTimeMS: 1 }).toArray()).rejects.toMatchObject({ code: 50 });
  });

  it('lets a short read finish while a long pipeline runs', async () => {
    const order: string[] = [];
    const long = big
      .aggregate(LONG)
      .toArray()
      .then((out) => {
        order.push('long');
        return out;
      });
    const short = big.findOne({ _id: 5 }).then(() => order.push('short'));
    await Promise.all([long, short]);
    expect(order).toEqual(['short', 'long']);
    expect((await long).length).toBe(700);
  });

  it('counts the documents its scans examine against maxExamined', async () => {
    await expect(big.aggregate([{ $match: { n: 1 } }], { maxExamined: 100 }).toArray()).rejects.toMatchObject(
      {
        codeName: 'ExceededExaminedLimit',
      },
    );
  });
});

describe('distinct', () => {
  it('answers each value once, arrays unwound one level, in BSON order', async () => {
    const values = db.collection('values');
    await values.insertMany([
      { v: 2 },
      { v: [1, 2, [3]] },
      { v: '1' },
      { v: null },
      {},
      { v: 2.0 },
      { v: { a: 1 } },
      { v: new ObjectId('0123456789abcdef01234567') },
    ]);
    expect(await values.distinct('v')).toEqual([
      null,
      1,
      2,
      '1',
      { a: 1 },
      [3],
      new ObjectId('0123456789abcdef01234567'),
    ]);
  });

  it('takes a filter and dotted paths through arrays of sub-documents', async () => {
    expect(await sales.distinct('item', { price: { $lt: 20 } })).toEqual(['abc', 'xyz']);
    expect(await sales.distinct('shop.city')).toEqual(['Lima', 'Oslo', 'Rome']);
    expect(await sales.distinct('tags')).toEqual(['a', 'b', 'c']);
  });

  it('refuses a key that is not a string', async () => {
    await expect(sales.distinct(3 as unknown as string)).rejects.toMatchObject({ code: 14 });
  });
});

describe('counts', () => {
  it('counts past skip and at most limit', async () => {
    expect(await sales.countDocuments({}, { skip: 1, limit: 3 })).toBe(3);
    expect(await sales.countDocuments({}, { skip: 4, limit: 3 })).toBe(1);
    expect(await sales.countDocuments({ price: { $gte: 10 } }, { skip: 1 })).toBe(2);
    expect(await sales.countDocuments({ price: { $gte: 10 } }, { limit: 2 })).toBe(2);
    expect(await sales.countDocuments({}, { skip: 9 })).toBe(0);
  });

  it('refuses a negative skip', async () => {
    await expect(sales.countDocuments({}, { skip: -1 })).rejects.toMatchObject({ code: 2 });
  });

  it('estimates the count from the collection size', async () => {
    expect(await sales.estimatedDocumentCount()).toBe(5);
    expect(await db.collection('never').estimatedDocumentCount({ maxTimeMS: 100 })).toBe(0);
  });
});

describe('aggregate: $$NOW', () => {
  it("gives every document and stage one $$NOW, and compares a $match's '$$NOW' as a string", async () => {
    const collection = createEmbeddedDb().collection('clock');
    // Enough documents that the pipeline runs across many milliseconds.
    await collection.insertMany(
      Array.from({ length: 3000 }, (_, i) => ({ _id: i, label: i === 7 ? '$$NOW' : 'x' })),
    );
    const stamped = await collection
      .aggregate([
        { $addFields: { at: '$$NOW' } },
        { $project: { at: 1, again: '$$NOW', data: { $literal: '$$NOW' } } },
      ])
      .toArray();
    const times = new Set(
      stamped.flatMap((doc) => [(doc.at as Date).getTime(), (doc.again as Date).getTime()]),
    );
    expect(times.size).toBe(1);
    expect(stamped.every((doc) => doc.data === '$$NOW')).toBe(true);
    const literal = await collection.aggregate([{ $match: { label: '$$NOW' } }]).toArray();
    expect(literal.map((doc) => doc._id)).toEqual([7]);
  });
});
