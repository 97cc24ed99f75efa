/**
 * A document's insertion sequence lives in its `_id` index entry, found by binary search until
 * a map of them all is built: documents found through an index come back in the order a scan
 * reads them either way, across inserts in random `_id` order (some still waiting to be merged
 * into the index), updates, deletes and inserts again.
 */
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { seededIntegers } from './support/seeded-random';

describe('the insertion sequence of documents found through an index', () => {
  it.each([1, 2, 3])('keeps them in scan order, searched for and from the map (seed %i)', async (seed) => {
    const int = seededIntegers(seed);
    const collection = createEmbeddedDb().collection(`seq${seed}`);
    await collection.createIndex({ n: 1 });
    const id = () => `${int(1e9).toString(36)}-${int(1e9).toString(36)}`;
    const ids: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const docs = Array.from({ length: 500 }, () => ({ _id: id(), n: int(10) }));
      ids.push(...docs.map((doc) => doc._id));
      await collection.insertMany(docs);
      for (let i = 0; i < 40; i++) {
        const target = ids[int(ids.length)];
        if (int(3) === 0) await collection.deleteOne({ _id: target });
        else await collection.updateOne({ _id: target }, { $set: { n: int(10) } });
      }
      await collection.insertOne({ _id: id(), n: int(10) });
      const values = [int(10), int(10), int(10)];
      const byIndex = await collection.find({ n: { $in: values } }).toArray();
      // The whole collection in scan order, filtered here.
      const scanned = (await collection.find({}).toArray()).filter((doc) => values.includes(doc.n as number));
      expect(byIndex).toEqual(scanned);
      expect(byIndex.length).toBeGreaterThan(0);
    }
  });
});
