import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedDb, type EmbeddedCollection, type EmbeddedDb } from '../src/index';

describe('update pipelines of the embedded engine', () => {
  let db: EmbeddedDb;
  let docs: EmbeddedCollection;
  beforeEach(async () => {
    db = createEmbeddedDb();
    docs = db.collection('docs');
    await docs.insertMany([
      { _id: 1, x: 1, y: 1, t: { u: { v: 1 } } },
      { _id: 2, x: 2, y: 1 },
    ]);
  });
  afterEach(() => db.close());

  it('replaces the root and adds fields, keeping the _id the new root lacks', async () => {
    const result = await docs.updateOne({ _id: 1 }, [
      { $replaceRoot: { newRoot: '$t' } },
      { $addFields: { foo: 1 } },
    ]);
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, u: { v: 1 }, foo: 1 });
  });

  it('runs $project, $unset and $set with expressions over every matching document', async () => {
    const result = await docs.updateMany({}, [
      { $project: { x: 1 } },
      { $set: { doubled: { $multiply: ['$x', 2] } } },
      { $unset: 'x' },
    ]);
    expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect(await docs.find({}).toArray()).toEqual([
      { _id: 1, doubled: 2 },
      { _id: 2, doubled: 4 },
    ]);
  });

  it('returns the updated document from findOneAndUpdate', async () => {
    const after = await docs.findOneAndUpdate({ _id: 2 }, [{ $replaceWith: { z: '$x' } }], {
      returnDocument: 'after',
    });
    expect(after).toEqual({ _id: 2, z: 2 });
  });

  it('gives every document of one updateMany the same $$NOW, however long it takes', async () => {
    // Enough documents that the update runs across many milliseconds.
    await docs.insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: 100 + i, x: i })));
    await docs.updateMany({}, [{ $set: { at: '$$NOW', plain: { $literal: '$$NOW' } } }]);
    const stamped = await docs.find({}).toArray();
    expect(stamped.every((doc) => doc.at instanceof Date && doc.plain === '$$NOW')).toBe(true);
    expect(new Set(stamped.map((doc) => (doc.at as Date).getTime())).size).toBe(1);
  });

  it('reads the let variables of the operation', async () => {
    await docs.updateOne({ $expr: { $eq: ['$_id', '$$id'] } }, [{ $set: { x: '$$x' } }], {
      let: { id: 1, x: 'foo' },
    });
    expect(await docs.findOne({ _id: 1 })).toMatchObject({ x: 'foo' });
  });

  it('counts a pipeline that leaves the document as it was as matched, not modified', async () => {
    const result = await docs.updateOne({ _id: 2 }, [{ $set: { x: 2 } }]);
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('upserts from the filter equalities through the pipeline', async () => {
    const result = await docs.updateOne({ _id: 9 }, [{ $set: { made: true } }], { upsert: true });
    expect(result).toMatchObject({ matchedCount: 0, upsertedCount: 1, upsertedId: 9 });
    expect(await docs.findOne({ _id: 9 })).toEqual({ _id: 9, made: true });
  });

  it.each([
    [[{ $match: { x: 1 } }], 72],
    [[{ $group: { _id: null } }], 72],
    [[{ $set: { a: 1 }, $unset: 'b' }], 9],
  ])('refuses the stage %j of an update pipeline (code %i)', async (pipeline, code) => {
    await expect(docs.updateOne({ _id: 1 }, pipeline)).rejects.toMatchObject({ code });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, x: 1, y: 1, t: { u: { v: 1 } } });
  });

  it('refuses a pipeline that changes the _id (ImmutableField, 66)', async () => {
    await expect(docs.updateOne({ _id: 1 }, [{ $set: { _id: 5 } }])).rejects.toMatchObject({ code: 66 });
  });

  it('refuses arrayFilters with a pipeline', async () => {
    await expect(
      docs.updateOne({ _id: 1 }, [{ $set: { a: 1 } }], { arrayFilters: [{ 'i.b': 1 }] }),
    ).rejects.toMatchObject({ code: 9 });
  });
});
