/**
 * Collation on aggregate and distinct, and `let` on find, through the wire front: the driver's
 * options reach the embedded engine, which answers as MongoDB does or refuses by name (238).
 */
import { describe, expect, it } from 'vitest';
import { DRIVERS, servedFront } from './support/drivers';

const EN_2 = { locale: 'en_US', strength: 2 };

describe.each(DRIVERS)('collation on aggregate and distinct, let on find, %s', (_name, MongoClient) => {
  const served = servedFront(MongoClient);
  let dbs = 0;
  const seeded = async () => {
    dbs += 1;
    const coll = served.client.db(`collation_reads_${dbs}`).collection<{ _id: number; x: unknown }>('c');
    await coll.insertMany([
      { _id: 1, x: 'PING' },
      { _id: 2, x: 'ping' },
      { _id: 3, x: 'pong' },
    ]);
    return coll;
  };

  it('aggregates, counts and groups by the collation', async () => {
    const coll = await seeded();
    const matched = await coll.aggregate([{ $match: { x: 'ping' } }], { collation: EN_2 }).toArray();
    expect(matched.map((doc) => doc._id)).toEqual([1, 2]);
    expect(await coll.countDocuments({ x: 'Ping' }, { collation: EN_2 })).toBe(2);
    const grouped = await coll
      .aggregate([{ $group: { _id: '$x', n: { $sum: 1 } } }], { collation: EN_2 })
      .toArray();
    expect(grouped).toEqual([
      { _id: 'PING', n: 2 },
      { _id: 'pong', n: 1 },
    ]);
  });

  it('answers distinct by the collation, the first seen of equal values kept', async () => {
    const coll = await seeded();
    expect(await coll.distinct('x', {}, { collation: EN_2 })).toEqual(['PING', 'pong']);
    expect(await coll.distinct('x')).toEqual(['PING', 'ping', 'pong']);
  });

  it('gives find the variables of let', async () => {
    const coll = await seeded();
    const found = await coll.find({ $expr: { $eq: ['$_id', '$$id'] } }, { let: { id: 3 } }).toArray();
    expect(found).toEqual([{ _id: 3, x: 'pong' }]);
  });

  it('refuses by name an expression comparing strings it does not collate', async () => {
    const coll = await seeded();
    await expect(
      coll.aggregate([{ $project: { s: { $setUnion: [['a'], ['A']] } } }], { collation: EN_2 }).toArray(),
    ).rejects.toMatchObject({ code: 238, message: expect.stringContaining('$setUnion') });
  });
});
