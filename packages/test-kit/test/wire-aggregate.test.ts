/**
 * Aggregation, `distinct` and counts through the wire front, drivers 6 and 7: the front
 * translates the commands to the engine's `aggregate` (a collection's, and the database's for
 * `aggregate: 1`), `distinct` and `countDocuments`, and the engine's answers and refusals come
 * back as MongoDB's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWireFront, type WireFront } from '../src/wire/front';
import { type Client, DRIVERS } from './support/drivers';

describe.each(DRIVERS)('aggregate, distinct and count through the %s', (_name, MongoClient) => {
  let front: WireFront;
  let client: Client;

  beforeAll(async () => {
    front = await startWireFront();
    client = await new MongoClient(front.uri, { serverSelectionTimeoutMS: 2_000 }).connect();
    const db = client.db('shop');
    await db.collection('sales').insertMany([
      { _id: 1, item: 'abc', qty: 2, tags: ['a', 'b'] },
      { _id: 2, item: 'xyz', qty: 5, tags: ['b'] },
      { _id: 3, item: 'abc', qty: 7, tags: 'c' },
    ] as never[]);
    await db.collection('items').insertMany([
      { _id: 'abc', label: 'Apple' },
      { _id: 'xyz', label: 'Yarn' },
    ] as never[]);
  });
  afterAll(async () => {
    await client.close();
    await front.close();
  });

  it('runs a pipeline of several stages, in batches past the first', async () => {
    const sales = client.db('shop').collection('sales');
    const out = await sales
      .aggregate(
        [
          { $unwind: '$tags' },
          { $group: { _id: '$item', qty: { $sum: '$qty' }, tags: { $addToSet: '$tags' } } },
          { $lookup: { from: 'items', localField: '_id', foreignField: '_id', as: 'item' } },
          { $sort: { _id: 1 } },
        ],
        { batchSize: 1 },
      )
      .toArray();
    expect(out.map(({ _id, qty, item }) => ({ _id, qty, item }))).toEqual([
      { _id: 'abc', qty: 11, item: [{ _id: 'abc', label: 'Apple' }] },
      { _id: 'xyz', qty: 5, item: [{ _id: 'xyz', label: 'Yarn' }] },
    ]);
  });

  it('passes let to the engine', async () => {
    const sales = client.db('shop').collection('sales');
    const out = await sales
      .aggregate([{ $match: { $expr: { $gt: ['$qty', '$$least'] } } }, { $project: { _id: 1 } }], {
        let: { least: 4 },
      })
      .toArray();
    expect(out).toEqual([{ _id: 2 }, { _id: 3 }]);
  });

  it('runs a database-level pipeline from $documents', async () => {
    const out = await client
      .db('shop')
      .aggregate([{ $documents: [{ n: 2 }, { n: 1 }] }, { $sort: { n: 1 } }])
      .toArray();
    expect(out).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('refuses a stage by name: NotImplemented (238), or 40324 for one MongoDB does not know', async () => {
    const sales = client.db('shop').collection('sales');
    await expect(sales.aggregate([{ $out: 'copy' }]).toArray()).rejects.toMatchObject({
      code: 238,
      codeName: 'NotImplemented',
      message: expect.stringContaining('$out'),
    });
    await expect(
      client
        .db('admin')
        .aggregate([{ $currentOp: {} }])
        .toArray(),
    ).rejects.toMatchObject({
      code: 238,
      message: expect.stringContaining('$currentOp'),
    });
    await expect(sales.aggregate([{ $nope: {} }]).toArray()).rejects.toMatchObject({ code: 40324 });
  });

  it('answers distinct with arrays unwound, each value once', async () => {
    const sales = client.db('shop').collection('sales');
    expect(await sales.distinct('tags')).toEqual(['a', 'b', 'c']);
    expect(await sales.distinct('item', { qty: { $gt: 3 } })).toEqual(['abc', 'xyz']);
  });

  it('counts with skip and limit, by countDocuments and the count command', async () => {
    const db = client.db('shop');
    const sales = db.collection('sales');
    expect(await sales.countDocuments({}, { skip: 1, limit: 1 })).toBe(1);
    expect(await sales.countDocuments({ item: 'abc' }, { skip: 1 })).toBe(1);
    expect(await sales.estimatedDocumentCount()).toBe(3);
    expect(
      await db.command({ count: 'sales', query: { qty: { $gt: 1 } }, skip: 1, limit: -5 }),
    ).toMatchObject({
      n: 2,
    });
    await expect(db.command({ count: 'sales', hint: 'nope_1' })).rejects.toMatchObject({ code: 2 });
  });
});
