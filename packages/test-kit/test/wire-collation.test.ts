/**
 * Collation through the wire front: the driver's `collation` on find, count, updates, deletes,
 * findAndModify and createIndexes reaches the embedded engine, which answers as MongoDB does or
 * refuses by name (238) what it cannot compute exactly.
 */
import { describe, expect, it } from 'vitest';
import { DRIVERS, servedFront } from './support/drivers';

const EN_2 = { locale: 'en_US', strength: 2 };

describe.each(DRIVERS)('collation through the wire front, %s', (_name, MongoClient) => {
  const served = servedFront(MongoClient);
  let dbs = 0;
  const seeded = async () => {
    dbs += 1;
    const coll = served.client.db(`collation_${dbs}`).collection<{ _id: number; x: unknown }>('c');
    await coll.insertMany([
      { _id: 1, x: 'ping' },
      { _id: 2, x: 'PING' },
      { _id: 3, x: 'pïng' },
      { _id: 4, x: 7 },
    ]);
    return coll;
  };

  it('finds, sorts and counts (the count command) by the collation', async () => {
    const coll = await seeded();
    const found = await coll.find({ x: 'Ping' }, { collation: EN_2 }).toArray();
    expect(found.map((doc) => doc._id)).toEqual([1, 2]);
    const sorted = await coll
      .find({}, { sort: { x: -1 }, collation: { locale: 'en', strength: 1 } })
      .toArray();
    expect(sorted.map((doc) => doc._id)).toEqual([1, 2, 3, 4]);
    // The count command (the driver's countDocuments runs an aggregation: aggregate.ts's collation).
    const count = (collation?: object) =>
      served.client
        .db(coll.dbName)
        .command({ count: 'c', query: { x: 'PING' }, ...(collation ? { collation } : {}) });
    expect(await count({ locale: 'en', strength: 1 })).toMatchObject({ n: 3 });
    expect(await count()).toMatchObject({ n: 1 });
  });

  it('updates and deletes by the collation', async () => {
    const coll = await seeded();
    const updated = await coll.updateMany({ x: 'ping' }, { $set: { y: 1 } }, { collation: EN_2 });
    expect(updated.modifiedCount).toBe(2);
    const before = await coll.findOneAndDelete({ x: 'PÏNG' }, { collation: EN_2 });
    expect(before?._id).toBe(3);
    expect(await coll.deleteMany({ x: 'PING' }, { collation: EN_2 })).toMatchObject({ deletedCount: 2 });
  });

  it('creates and lists an index with its collation', async () => {
    const coll = await seeded();
    await coll.createIndex({ x: 1 }, { collation: EN_2 });
    const indexes = await coll.listIndexes().toArray();
    expect(indexes[1]).toMatchObject({ key: { x: 1 }, collation: { locale: 'en_US', strength: 2 } });
  });

  it('refuses by name what the engine cannot compute exactly, and a bad collation as MongoDB does', async () => {
    const coll = await seeded();
    await expect(
      coll.find({ x: 'a' }, { collation: { locale: 'en', strength: 4 } }).toArray(),
    ).rejects.toMatchObject({
      code: 238,
      message: expect.stringContaining('strength 4'),
    });
    await expect(coll.find({ x: 'a' }, { collation: { locale: 'xx' } }).toArray()).rejects.toMatchObject({
      code: 2,
    });
  });
});
