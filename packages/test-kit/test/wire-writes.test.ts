/**
 * The write commands of the wire front through the official driver, majors 6 and 7: each
 * statement reaches the embedded engine with its options (update pipelines, arrayFilters, let,
 * upserts of updateMany, unordered inserts, findAndModify's sort and fields) and the engine's
 * answer comes back as MongoDB's reply.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DRIVERS, servedFront } from './support/drivers';

describe.each(DRIVERS)('write commands of the wire front through the %s', (_name, MongoClient) => {
  const served = servedFront(MongoClient);
  let runs = 0;
  // biome-ignore lint/suspicious/noExplicitAny: each driver major has its own Collection type.
  let docs: any;

  beforeEach(async () => {
    runs += 1;
    docs = served.client.db(`writes_${runs}`).collection('docs');
    await docs.insertMany([
      { _id: 1, x: 11, y: [{ b: 3 }, { b: 1 }] },
      { _id: 2, x: 22, y: [{ b: 1 }] },
    ]);
  });

  it('runs an update pipeline with let variables', async () => {
    const result = await docs.updateOne(
      { $expr: { $eq: ['$_id', '$$id'] } },
      [{ $set: { z: { $add: ['$x', '$$plus'] } } }, { $unset: 'y' }],
      { let: { id: 1, plus: 1 } },
    );
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, x: 11, z: 12 });
  });

  it('updates the elements arrayFilters choose, and answers a missing filter with code 2', async () => {
    const result = await docs.updateMany({}, { $set: { 'y.$[i].b': 0 } }, { arrayFilters: [{ 'i.b': 1 }] });
    expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect((await docs.findOne({ _id: 1 })).y).toEqual([{ b: 3 }, { b: 0 }]);
    await expect(docs.updateOne({}, { $set: { 'y.$[j].b': 0 } })).rejects.toMatchObject({ code: 2 });
  });

  it('upserts through updateMany and reports the upserted _id', async () => {
    const result = await docs.updateMany({ _id: 7 }, { $set: { n: 1 } }, { upsert: true });
    expect(result).toMatchObject({ matchedCount: 0, upsertedCount: 1, upsertedId: 7 });
    expect(await docs.findOne({ _id: 7 })).toEqual({ _id: 7, n: 1 });
  });

  it('counts a replacement that changes nothing as matched, not modified', async () => {
    await docs.replaceOne({ _id: 2 }, { x: 2 });
    expect(await docs.replaceOne({ _id: 2 }, { x: 2 })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('inserts every document of an unordered insertMany and lists each failure', async () => {
    const refused = docs.insertMany([{ _id: 1 }, { _id: 3 }, { _id: 2 }, { _id: 4 }], { ordered: false });
    await expect(refused).rejects.toMatchObject({ code: 11000, result: { insertedCount: 2 } });
    const error = await refused.catch((caught: { writeErrors: Array<{ index: number }> }) => caught);
    expect(error.writeErrors.map((each: { index: number }) => each.index)).toEqual([0, 2]);
    expect(await docs.countDocuments({})).toBe(4);
  });

  it('runs a bulkWrite of every model', async () => {
    const result = await docs.bulkWrite([
      { insertOne: { document: { _id: 3 } } },
      { updateOne: { filter: { _id: 1 }, update: { $inc: { x: 1 } } } },
      { replaceOne: { filter: { _id: 2 }, replacement: { x: 0 } } },
      { updateMany: { filter: { _id: 5 }, update: { $set: { x: 5 } }, upsert: true } },
      { deleteMany: { filter: { x: 0 } } },
    ]);
    expect(result).toMatchObject({
      insertedCount: 1,
      matchedCount: 2,
      modifiedCount: 2,
      upsertedCount: 1,
      deletedCount: 1,
    });
  });

  it('findOneAndUpdate / Delete take the first by sort and project the document', async () => {
    expect(
      await docs.findOneAndUpdate(
        {},
        { $set: { top: true } },
        { sort: { x: -1 }, projection: { x: 1 }, returnDocument: 'after' },
      ),
    ).toEqual({ _id: 2, x: 22 });
    expect(await docs.findOneAndDelete({}, { sort: { x: 1 }, projection: { _id: 0, x: 1 } })).toEqual({
      x: 11,
    });
    expect(await docs.countDocuments({})).toBe(1);
  });

  it('findOneAndReplace upserts and reports it in the metadata', async () => {
    const reply = await docs.findOneAndReplace(
      { _id: 8 },
      { n: 8 },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(reply).toMatchObject({
      value: { _id: 8, n: 8 },
      lastErrorObject: { n: 1, updatedExisting: false, upserted: 8 },
    });
  });

  it('refuses sort on an update statement as MongoDB 7.0 does (an unknown field)', async () => {
    await expect(docs.updateOne({}, { $set: { a: 1 } }, { sort: { x: 1 } })).rejects.toMatchObject({
      code: 40415,
    });
  });
});
