import { ObjectId } from 'bson';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEmbeddedDb,
  EmbeddedArgumentError,
  type EmbeddedCollection,
  type EmbeddedDb,
} from '../src/index';

let db: EmbeddedDb;
let docs: EmbeddedCollection;
beforeEach(async () => {
  db = createEmbeddedDb();
  docs = db.collection('docs');
  await docs.insertMany([
    { _id: 1, x: 11, y: [{ b: 3 }, { b: 1 }] },
    { _id: 2, x: 22, y: [{ b: 0 }, { b: 1 }] },
    { _id: 3, x: 33, y: [{ b: 5, c: [{ d: 2 }, { d: 1 }] }] },
  ]);
});
afterEach(() => db.close());

describe('arrayFilters', () => {
  it('updates only the array elements the filter of each identifier matches', async () => {
    const result = await docs.updateMany({}, { $set: { 'y.$[i].b': 2 } }, { arrayFilters: [{ 'i.b': 1 }] });
    expect(result).toMatchObject({ matchedCount: 3, modifiedCount: 2 });
    expect((await docs.findOne({ _id: 1 }))?.y).toEqual([{ b: 3 }, { b: 2 }]);
    expect((await docs.findOne({ _id: 3 }))?.y).toEqual([{ b: 5, c: [{ d: 2 }, { d: 1 }] }]);
  });

  it('nests identifiers', async () => {
    await docs.updateOne(
      { _id: 3 },
      { $set: { 'y.$[i].c.$[j].d': 0 } },
      { arrayFilters: [{ 'i.b': 5 }, { 'j.d': 1 }] },
    );
    expect((await docs.findOne({ _id: 3 }))?.y).toEqual([{ b: 5, c: [{ d: 2 }, { d: 0 }] }]);
  });

  it.each([
    [
      'an identifier without a filter (BadValue, 2)',
      { 'y.$[i].b': 2 },
      [],
      2,
      "No array filter found for identifier 'i'",
    ],
    [
      'a filter the update does not use (FailedToParse, 9)',
      { $set: { x: 1 } },
      [{ 'i.b': 1 }],
      9,
      "The array filter for identifier 'i' was not used",
    ],
    [
      'two filters of one identifier (FailedToParse, 9)',
      { 'y.$[i].b': 2 },
      [{ 'i.b': 1 }, { 'i.b': 2 }],
      9,
      'multiple array filters',
    ],
    [
      'an identifier that is not a lowercase name (BadValue, 2)',
      { 'y.$[I].b': 2 },
      [{ 'I.b': 1 }],
      2,
      'alphanumeric',
    ],
  ])('refuses %s before changing anything', async (_what, set, arrayFilters, code, message) => {
    const update = '$set' in set ? set : { $set: set };
    const refused = docs.updateMany({}, update, { arrayFilters });
    await expect(refused).rejects.toMatchObject({ code });
    await expect(refused).rejects.toThrow(message);
    expect((await docs.findOne({ _id: 1 }))?.x).toBe(11);
  });

  it.each([
    [
      'an upsert whose new document lacks the array',
      () => docs.updateOne({ _id: 9 }, { $set: { 'y.$[]': 1 } }, { upsert: true }),
      "The path 'y' must exist",
    ],
    [
      'a document lacking the array',
      () => docs.updateOne({ _id: 1 }, { $set: { 'z.$[i]': 1 } }, { arrayFilters: [{ i: 1 }] }),
      "The path 'z' must exist",
    ],
    [
      'a document holding a scalar there',
      () => docs.updateOne({ _id: 1 }, { $set: { 'x.$[i]': 1 } }, { arrayFilters: [{ i: 1 }] }),
      'non-array element x: 11',
    ],
  ])('refuses an array update through %s (BadValue), never a silent no-op', async (_what, run, message) => {
    const refused = run();
    await expect(refused).rejects.toMatchObject({ code: 2 });
    await expect(refused).rejects.toThrow(message);
    expect(await docs.countDocuments({})).toBe(3);
  });

  it('applies to findOneAndUpdate', async () => {
    const after = await docs.findOneAndUpdate(
      { _id: 2 },
      { $inc: { 'y.$[i].b': 10 } },
      { arrayFilters: [{ 'i.b': { $gt: 0 } }], returnDocument: 'after' },
    );
    expect(after?.y).toEqual([{ b: 0 }, { b: 11 }]);
  });
});

describe('let', () => {
  const byLet = { $expr: { $eq: ['$_id', '$$id'] } };

  it.each([
    ['deleteOne', () => docs.deleteOne(byLet, { let: { id: 2 } })],
    ['deleteMany', () => docs.deleteMany(byLet, { let: { id: 2 } })],
    ['findOneAndDelete', () => docs.findOneAndDelete(byLet, { let: { id: 2 } })],
  ])('reaches $expr in the filter of %s', async (_method, run) => {
    await run();
    expect((await docs.find({}).toArray()).map((doc) => doc._id)).toEqual([1, 3]);
  });

  it('reaches $expr in the filter of updateMany and replaceOne', async () => {
    await docs.updateMany(byLet, { $set: { hit: true } }, { let: { id: 3 } });
    await docs.replaceOne(byLet, { replaced: true }, { let: { id: 1 } });
    expect(await docs.findOne({ _id: 3 })).toMatchObject({ hit: true });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, replaced: true });
  });

  it('refuses a variable name MongoDB refuses, with its code (16867) and the name', async () => {
    await expect(docs.deleteOne(byLet, { let: { Id: 2 } })).rejects.toMatchObject({
      code: 16867,
      message: expect.stringContaining("'Id'"),
    });
  });

  it('refuses a let expression that reads a field: it runs before any document is read', async () => {
    await expect(docs.deleteOne(byLet, { let: { id: '$x' } })).rejects.toThrow('Command let Expression');
    expect(await docs.countDocuments({})).toBe(3);
  });

  it('evaluates let expressions once, before the operation', async () => {
    await docs.updateMany({}, [{ $set: { at: '$$when', sum: '$$sum' } }], {
      let: { when: '$$NOW', sum: { $add: [1, 2] } },
    });
    const stamped = await docs.find({}).toArray();
    expect(stamped.every((doc) => doc.sum === 3 && doc.at instanceof Date)).toBe(true);
    expect(new Set(stamped.map((doc) => (doc.at as Date).getTime())).size).toBe(1);
  });

  it('answers an undefined variable with an error, not a silent non-match', async () => {
    await expect(docs.deleteOne(byLet)).rejects.toMatchObject({ code: 2 });
  });
});

describe('single-document writes', () => {
  it('findOneAndUpdate and findOneAndDelete take the first match by sort, projected', async () => {
    const updated = await docs.findOneAndUpdate(
      { x: { $gt: 0 } },
      { $set: { top: true } },
      { sort: { x: -1 }, projection: { x: 1 }, returnDocument: 'after' },
    );
    expect(updated).toEqual({ _id: 3, x: 33 });
    const removed = await docs.findOneAndDelete({}, { sort: { x: 1 }, projection: { _id: 0, x: 1 } });
    expect(removed).toEqual({ x: 11 });
    expect(await docs.countDocuments({})).toBe(2);
  });

  it('findOneAndReplace takes the first match by sort', async () => {
    const before = await docs.findOneAndReplace({}, { fresh: 1 }, { sort: { x: -1 } });
    expect(before?._id).toBe(3);
    expect(await docs.findOne({ _id: 3 })).toEqual({ _id: 3, fresh: 1 });
  });

  it('findOneAndUpdate with includeResultMetadata answers as the findAndModify command', async () => {
    expect(
      await docs.findOneAndUpdate(
        { _id: 7 },
        { $set: { a: 1 } },
        { upsert: true, includeResultMetadata: true },
      ),
    ).toEqual({ lastErrorObject: { n: 1, updatedExisting: false, upserted: 7 }, value: null, ok: 1 });
    expect(await docs.findOneAndDelete({ _id: 7 }, { includeResultMetadata: true })).toEqual({
      lastErrorObject: { n: 1 },
      value: { _id: 7, a: 1 },
      ok: 1,
    });
  });

  it('replaceOne replaces, counts an unchanged replacement as not modified, and upserts with the filter _id', async () => {
    expect(await docs.replaceOne({ _id: 1 }, { x: 1 })).toEqual({
      matchedCount: 1,
      modifiedCount: 1,
      upsertedCount: 0,
      upsertedId: null,
    });
    expect(await docs.replaceOne({ _id: 1 }, { x: 1 })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await docs.replaceOne({ _id: 4 }, { x: 4 }, { upsert: true })).toEqual({
      matchedCount: 0,
      modifiedCount: 0,
      upsertedCount: 1,
      upsertedId: 4,
    });
    expect(await docs.findOne({ _id: 4 })).toEqual({ _id: 4, x: 4 });
  });

  it('updateMany upserts when nothing matches and reports the upserted _id', async () => {
    const result = await docs.updateMany({ kind: 'new' }, { $set: { n: 1 } }, { upsert: true });
    expect(result).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
    expect(result.upsertedId).toBeInstanceOf(ObjectId);
    expect(await docs.findOne({ _id: result.upsertedId })).toMatchObject({ kind: 'new', n: 1 });
  });

  it.each([
    ['updateOne', () => docs.updateOne({ _id: 1 }, { $set: { a: 1 } }, { sort: { x: 1 } } as object)],
    ['replaceOne', () => docs.replaceOne({ _id: 1 }, { a: 1 }, { sort: { x: 1 } } as object)],
  ])('%s refuses sort (MongoDB 7.0 has none there) with NotImplemented naming it', async (_m, run) => {
    await expect(run()).rejects.toMatchObject({ code: 238, message: expect.stringContaining('sort') });
  });

  it.each([
    ['updateOne without operators', () => docs.updateOne({ _id: 1 }, { x: 1 })],
    ['updateMany without operators', () => docs.updateMany({}, { x: 1 })],
    ['replaceOne with operators', () => docs.replaceOne({ _id: 1 }, { $set: { x: 1 } })],
    ['findOneAndUpdate without operators', () => docs.findOneAndUpdate({ _id: 1 }, { x: 1 })],
  ])('refuses %s as the driver does, before sending anything (no code)', async (_what, run) => {
    const refused = run();
    await expect(refused).rejects.toBeInstanceOf(EmbeddedArgumentError);
    await expect(refused).rejects.not.toHaveProperty('code');
    expect((await docs.findOne({ _id: 1 }))?.x).toBe(11);
  });
});

describe('_id', () => {
  it.each([
    ['insertOne', async () => docs.insertOne({ _id: null })],
    ['insertMany', async () => docs.insertMany([{ _id: null }])],
    [
      'an updateOne upsert',
      async () => docs.updateOne({ _id: null }, { $unset: { a: '' } }, { upsert: true }),
    ],
    [
      'an updateMany upsert',
      async () => docs.updateMany({ _id: null }, { $unset: { a: '' } }, { upsert: true }),
    ],
    ['a replaceOne upsert', async () => docs.replaceOne({ nope: 1 }, { _id: null }, { upsert: true })],
  ])('keeps a null _id null through %s', async (_how, run) => {
    await run();
    expect(await docs.countDocuments({ _id: { $type: 'null' } })).toBe(1);
  });

  it.each([{ $a: 1 }, { a: { $b: 1 } }, { a: [{ $b: 1 }] }])(
    'refuses to store the _id %j, which holds a $-prefixed field (code 52)',
    async (id) => {
      await expect(docs.insertOne({ _id: id })).rejects.toMatchObject({ code: 52 });
      expect(await docs.countDocuments({})).toBe(3);
    },
  );
});
