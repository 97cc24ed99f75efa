/**
 * The wire front's checks of command fields, through the official driver (majors 6 and 7): a
 * field MongoDB does not know is its unknown-field error, one it knows that the front does not
 * implement is NotImplemented, transactions and a standalone's impossible write concerns are
 * refused, and nothing a driver sends for the ordinary CRUD calls is.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_FIELDS } from '../src/wire/command-fields';
import { commandNames } from '../src/wire/commands';
import { DRIVERS, servedFront } from './support/drivers';

it('lists the fields of every command the front answers', () => {
  expect(commandNames().filter((name) => !Object.hasOwn(COMMAND_FIELDS, name))).toEqual([]);
});

describe.each(DRIVERS)('command fields through the %s', (_name, MongoClient) => {
  const served = servedFront(MongoClient);
  const dbNames: string[] = [];
  const freshDb = () => {
    dbNames.push(`fields_${dbNames.length + 1}`);
    return served.client.db(dbNames.at(-1));
  };

  it('answers a field MongoDB does not know with its unknown-field error (40415)', async () => {
    await expect(freshDb().command({ find: 'posts', notAField: 1 })).rejects.toMatchObject({
      code: 40415,
      codeName: 'Location40415',
      errmsg: "BSON field 'find.notAField' is an unknown field.",
    });
  });

  it("answers an update statement's sort as MongoDB 7.0 does: an unknown field, nothing updated", async () => {
    const posts = freshDb().collection('posts');
    await posts.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ] as never[]);
    await expect(
      posts.updateOne({}, { $set: { seen: true } }, { sort: { n: -1 } } as never),
    ).rejects.toMatchObject({
      code: 40415,
      errmsg: "BSON field 'update.updates.sort' is an unknown field.",
    });
    expect(await posts.countDocuments({ seen: true })).toBe(0);
  });

  it('refuses a field MongoDB knows that the front does not implement with 238, naming it', async () => {
    const posts = freshDb().collection('posts');
    await expect(posts.find({}, { returnKey: true }).toArray()).rejects.toMatchObject({
      code: 238,
      codeName: 'NotImplemented',
      errmsg: expect.stringContaining("'find.returnKey'"),
    });
  });

  it("passes an update's and a delete's maxTimeMS to the engine: a scan past it is MaxTimeMSExpired (50)", async () => {
    const posts = freshDb().collection('posts');
    await posts.insertMany(Array.from({ length: 100_000 }, (_, i) => ({ _id: i, n: i })) as never[]);
    // A statement's error, as a write error: MongoDB's code, without a code name.
    const expired = { code: 50, errmsg: expect.stringContaining('time limit') };
    // A filter no document matches: every one is examined, far past a millisecond.
    const none = { missing: { $exists: true } };
    await expect(posts.updateMany(none, { $set: { x: 1 } }, { maxTimeMS: 1 })).rejects.toMatchObject(expired);
    await expect(posts.deleteMany(none, { maxTimeMS: 1 })).rejects.toMatchObject(expired);
    expect(await posts.countDocuments({})).toBe(100_000);
  });

  it('refuses collMod with 238, naming it, and leaves the collection as it was', async () => {
    const db = freshDb();
    await db.collection('posts').insertOne({ _id: 1 } as never);
    await expect(db.command({ collMod: 'posts', validator: { n: { $gt: 0 } } })).rejects.toMatchObject({
      code: 238,
      codeName: 'NotImplemented',
      errmsg: expect.stringContaining('collMod'),
    });
    expect(await db.collection('posts').countDocuments({})).toBe(1);
  });

  it('refuses a transaction with 238, writing nothing', async () => {
    const posts = freshDb().collection('posts');
    const session = served.client.startSession();
    try {
      session.startTransaction();
      await expect(posts.insertOne({ _id: 1 } as never, { session })).rejects.toMatchObject({
        code: 238,
        codeName: 'NotImplemented',
        errmsg: 'transactions are not supported by the embedded engine',
      });
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect(await posts.countDocuments({})).toBe(0);
  });

  it("refuses a write concern of more than one member as MongoDB's standalone does, writing nothing", async () => {
    const posts = freshDb().collection('posts');
    await expect(posts.insertOne({ _id: 1 } as never, { writeConcern: { w: 2 } })).rejects.toMatchObject({
      code: 2,
      codeName: 'BadValue',
      errmsg: "cannot use 'w' > 1 on a standalone",
    });
    await expect(
      posts.updateOne(
        { _id: 1 } as never,
        { $set: { n: 1 } },
        { upsert: true, writeConcern: { w: 'dc1' as never } },
      ),
    ).rejects.toMatchObject({ code: 2 });
    expect(await posts.countDocuments({})).toBe(0);
  });

  it('refuses a read concern one node cannot give with 238', async () => {
    const posts = freshDb().collection('posts');
    await expect(posts.find({}, { readConcern: { level: 'snapshot' } }).toArray()).rejects.toMatchObject({
      code: 238,
      errmsg: expect.stringContaining("readConcern level 'snapshot'"),
    });
  });

  it('refuses nothing the driver sends for the ordinary CRUD calls', async () => {
    const db = freshDb();
    const posts = db.collection('posts');
    const concern = { writeConcern: { w: 'majority' as const, j: true, wtimeoutMS: 1_000 } };
    await db.createCollection('posts');
    await posts.createIndex({ n: 1 }, { name: 'by_n' });
    expect(await posts.insertOne({ _id: 1, n: 1 } as never, { comment: 'why', ...concern })).toMatchObject({
      insertedId: 1,
    });
    await posts.insertMany(
      [
        { _id: 2, n: 2 },
        { _id: 3, n: 3 },
      ] as never[],
      { ordered: false, ...concern },
    );
    const read = { readConcern: { level: 'majority' as const }, comment: 'why', maxTimeMS: 5_000 };
    expect(
      await posts
        .find(
          { n: { $gte: 2 } },
          { sort: { n: -1 }, projection: { n: 1 }, limit: 5, skip: 0, batchSize: 1, ...read },
        )
        .toArray(),
    ).toEqual([
      { _id: 3, n: 3 },
      { _id: 2, n: 2 },
    ]);
    expect(await posts.findOne({ _id: 2 } as never, read)).toEqual({ _id: 2, n: 2 });
    expect(await posts.countDocuments({ n: { $gt: 1 } }, read)).toBe(2);
    expect(await posts.estimatedDocumentCount(read)).toBe(3);
    expect(await posts.updateOne({ _id: 1 } as never, { $inc: { n: 10 } }, concern)).toMatchObject({
      modifiedCount: 1,
    });
    expect(
      await posts.updateMany({}, { $set: { seen: true } }, { comment: 'why', ...concern }),
    ).toMatchObject({
      matchedCount: 3,
    });
    expect(
      await posts.updateOne({ _id: 9 } as never, { $set: { n: 9 } }, { upsert: true, ...concern }),
    ).toMatchObject({
      upsertedId: 9,
    });
    expect(await posts.replaceOne({ _id: 9 } as never, { n: 90 }, concern)).toMatchObject({
      modifiedCount: 1,
    });
    expect(
      await posts.findOneAndUpdate(
        { _id: 2 } as never,
        { $set: { n: 20 } },
        { returnDocument: 'after', projection: { n: 1 }, sort: { _id: 1 }, upsert: false, ...concern },
      ),
    ).toEqual({ _id: 2, n: 20 });
    expect(await posts.findOneAndReplace({ _id: 3 } as never, { n: 30 }, concern)).toMatchObject({
      _id: 3,
      n: 3,
    });
    expect(await posts.findOneAndDelete({ _id: 3 } as never, concern)).toEqual({ _id: 3, n: 30 });
    expect(
      await posts
        .aggregate([{ $match: { seen: true } }, { $skip: 0 }, { $limit: 10 }], {
          ...read,
          allowDiskUse: true,
        })
        .toArray(),
    ).toHaveLength(2);
    expect(await posts.distinct('n', {}, read)).toEqual([11, 20, 90]);
    expect(await posts.deleteOne({ _id: 9 } as never, concern)).toMatchObject({ deletedCount: 1 });
    expect(await posts.deleteMany({}, { comment: 'why', ...concern })).toMatchObject({ deletedCount: 2 });
    expect(await posts.listIndexes().toArray()).toHaveLength(2);
    await posts.dropIndex('by_n', concern);
    expect((await db.listCollections({}, { nameOnly: true }).toArray()).map(({ name }) => name)).toEqual([
      'posts',
    ]);
    expect(await posts.drop(concern)).toBe(true);
    await db.dropDatabase(concern);
  });
});
