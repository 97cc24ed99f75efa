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
    { _id: 1, x: 11 },
    { _id: 2, x: 22 },
  ]);
});
afterEach(() => db.close());

const ids = async () => (await docs.find({}).toArray()).map((doc) => doc._id);

describe('bulkWrite', () => {
  it('runs every model in order and counts as the driver BulkWriteResult does', async () => {
    const result = await docs.bulkWrite([
      { insertOne: { document: { _id: 3, x: 33 } } },
      { updateOne: { filter: { _id: 1 }, update: { $inc: { x: 1 } } } },
      { updateMany: { filter: { x: { $gt: 20 } }, update: { $set: { big: true } } } },
      { replaceOne: { filter: { _id: 2 }, replacement: { x: 0 } } },
      { updateOne: { filter: { _id: 4 }, update: { $set: { x: 44 } }, upsert: true } },
      { deleteOne: { filter: { _id: 1 } } },
      { deleteMany: { filter: { x: { $lt: 1 } } } },
    ]);
    expect(result).toEqual({
      insertedCount: 1,
      matchedCount: 4,
      modifiedCount: 4,
      deletedCount: 2,
      upsertedCount: 1,
      insertedIds: { 0: 3 },
      upsertedIds: { 4: 4 },
    });
    expect(await ids()).toEqual([3, 4]);
  });

  it('passes the batch let to every filter', async () => {
    const result = await docs.bulkWrite([{ deleteOne: { filter: { $expr: { $eq: ['$_id', '$$id'] } } } }], {
      let: { id: 2 },
    });
    expect(result.deletedCount).toBe(1);
    expect(await ids()).toEqual([1]);
  });

  it('ordered (the default): stops at the first failure, keeping what ran before it', async () => {
    const refused = docs.bulkWrite([
      { insertOne: { document: { _id: 3 } } },
      { insertOne: { document: { _id: 1 } } },
      { insertOne: { document: { _id: 4 } } },
    ]);
    await expect(refused).rejects.toMatchObject({
      code: 11000,
      writeErrors: [{ index: 1, code: 11000 }],
      result: { insertedCount: 1 },
    });
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('unordered: runs every operation and lists every failure', async () => {
    const refused = docs.bulkWrite(
      [
        { insertOne: { document: { _id: 1 } } },
        { insertOne: { document: { _id: 3 } } },
        { updateOne: { filter: { _id: 2 }, update: { $inc: { x: 'a' } } } },
        { insertOne: { document: { _id: 4 } } },
      ],
      { ordered: false },
    );
    await expect(refused).rejects.toMatchObject({
      writeErrors: [{ index: 0, code: 11000 }, { index: 2 }],
      result: { insertedCount: 2, insertedIds: { 1: 3, 3: 4 } },
    });
    expect(await ids()).toEqual([1, 2, 3, 4]);
  });

  it.each([
    ['an empty batch', []],
    ['an unknown model', [{ upsertOne: { filter: {} } }]],
    [
      'an update without operators',
      [{ insertOne: { document: { _id: 5 } } }, { updateOne: { filter: {}, update: { x: 1 } } }],
    ],
    [
      'a replacement with operators',
      [
        { insertOne: { document: { _id: 5 } } },
        { replaceOne: { filter: {}, replacement: { $set: { x: 1 } } } },
      ],
    ],
  ])('refuses %s before running any operation, as the driver does', async (_what, operations) => {
    await expect(docs.bulkWrite(operations)).rejects.toBeInstanceOf(EmbeddedArgumentError);
    expect(await ids()).toEqual([1, 2]);
  });

  it('refuses an option it does not implement, naming it (238)', async () => {
    await expect(
      docs.bulkWrite([{ deleteOne: { filter: {} } }], { bypassEverything: true } as object),
    ).rejects.toMatchObject({ code: 238, message: expect.stringContaining('bypassEverything') });
  });

  it.each([
    ['insertOne', { insertOne: { document: { _id: 3 }, colation: {} } }],
    ['updateOne', { updateOne: { filter: { _id: 1 }, update: { $set: { y: 1 } }, colation: {} } }],
    ['updateMany', { updateMany: { filter: {}, update: { $set: { y: 1 } }, colation: {} } }],
    ['replaceOne', { replaceOne: { filter: { _id: 1 }, replacement: { y: 1 }, colation: {} } }],
    ['deleteOne', { deleteOne: { filter: { _id: 1 }, colation: {} } }],
    ['deleteMany', { deleteMany: { filter: {}, colation: {} } }],
  ])("refuses a %s model's option it does not know, naming it, writing nothing", async (_name, model) => {
    await expect(docs.bulkWrite([model])).rejects.toMatchObject({
      code: 238,
      message: expect.stringContaining("'colation'"),
    });
    expect(await docs.find({}).toArray()).toEqual([
      { _id: 1, x: 11 },
      { _id: 2, x: 22 },
    ]);
  });
});

describe('insertMany', () => {
  it('unordered: tries every document and reports each failure with the driver bulk result', async () => {
    const refused = docs.insertMany([{ _id: 1 }, { _id: 3 }, { _id: 3 }, { _id: 4 }], { ordered: false });
    await expect(refused).rejects.toMatchObject({
      code: 11000,
      writeErrors: [
        { index: 0, code: 11000 },
        { index: 2, code: 11000 },
      ],
      result: {
        insertedCount: 2,
        matchedCount: 0,
        modifiedCount: 0,
        deletedCount: 0,
        upsertedCount: 0,
        upsertedIds: {},
      },
    });
    expect(await ids()).toEqual([1, 2, 3, 4]);
  });

  it('ordered: stops at the first failure', async () => {
    await expect(docs.insertMany([{ _id: 3 }, { _id: 1 }, { _id: 4 }])).rejects.toMatchObject({
      writeErrors: [{ index: 1, code: 11000 }],
      result: { insertedCount: 1 },
    });
    expect(await ids()).toEqual([1, 2, 3]);
  });
});
