/**
 * The wire front through the official driver, majors 6 and 7: what a driver sees of the
 * embedded engine behind it (CRUD, cursors past one batch, duplicate keys, indexes). Fail points
 * and a late start: `wire-front-failures.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { DRIVERS, servedFront } from './support/drivers';

describe.each(DRIVERS)('wire front through the %s', (_name, MongoClient) => {
  const served = servedFront(MongoClient);
  const dbNames: string[] = [];
  const freshDb = () => {
    dbNames.push(`wire_${dbNames.length + 1}`);
    return served.client.db(dbNames.at(-1));
  };

  it('answers ping and a standalone hello', async () => {
    expect(await served.client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect(await served.client.db('admin').command({ hello: 1 })).toMatchObject({
      isWritablePrimary: true,
      maxWireVersion: 21,
      maxBsonObjectSize: 16_777_216,
    });
  });

  it('inserts, finds, updates, replaces and deletes', async () => {
    const posts = freshDb().collection('posts');
    await posts.insertMany([
      { _id: 1, title: 'a', n: 1 },
      { _id: 2, title: 'b', n: 2 },
      { _id: 3, title: 'c', n: 3 },
    ] as never[]);
    expect(
      await posts.find({ n: { $gte: 2 } }, { sort: { n: -1 }, projection: { title: 1 } }).toArray(),
    ).toEqual([
      { _id: 3, title: 'c' },
      { _id: 2, title: 'b' },
    ]);
    expect(await posts.countDocuments({ n: { $gt: 1 } })).toBe(2);
    expect(await posts.countDocuments({}, { skip: 1, limit: 1 })).toBe(1);
    expect(await posts.updateOne({ _id: 1 } as never, { $inc: { n: 10 } })).toMatchObject({
      matchedCount: 1,
      modifiedCount: 1,
    });
    expect(await posts.updateMany({}, { $set: { seen: true } })).toMatchObject({
      matchedCount: 3,
      modifiedCount: 3,
    });
    const upserted = await posts.updateOne({ _id: 9 } as never, { $set: { n: 9 } }, { upsert: true });
    expect(upserted).toMatchObject({ upsertedCount: 1, upsertedId: 9 });
    expect(await posts.replaceOne({ _id: 2 } as never, { title: 'B' })).toMatchObject({ modifiedCount: 1 });
    expect(await posts.findOne({ _id: 2 } as never)).toEqual({ _id: 2, title: 'B' });
    expect(await posts.deleteOne({ _id: 3 } as never)).toMatchObject({ deletedCount: 1 });
    expect(await posts.deleteMany({ seen: true })).toMatchObject({ deletedCount: 1 });
    expect(await posts.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 2, title: 'B' },
      { _id: 9, n: 9 },
    ]);
  });

  it('hands out a result past one batch through getMore, and kills an open cursor', async () => {
    const items = freshDb().collection('items');
    await items.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: i })) as never[]);
    expect(await items.find({}, { batchSize: 20 }).toArray()).toHaveLength(250);
    expect(await items.find({}).toArray()).toHaveLength(250);
    expect(await items.find({}, { limit: 130, batchSize: 50 }).toArray()).toHaveLength(130);
    const cursor = items.find({}, { batchSize: 10 });
    expect(await cursor.next()).toEqual({ _id: 0 });
    await cursor.close();
  });

  it('splits a result larger than one 16 MiB reply into batches', async () => {
    const blobs = freshDb().collection('blobs');
    const text = 'x'.repeat(1024 * 1024);
    await blobs.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, text })) as never[]);
    const found = await blobs.find({}, { projection: { _id: 1 } }).toArray();
    expect(found).toHaveLength(20);
    expect((await blobs.find({}).toArray()).map((doc) => doc._id)).toEqual(found.map((doc) => doc._id));
  });

  it('answers code 11000 for a duplicate key from insert and findAndModify', async () => {
    const people = freshDb().collection('people');
    await people.createIndex({ email: 1 }, { unique: true });
    await people.insertOne({ _id: 1, email: 'a@example.com' } as never);
    await expect(people.insertOne({ _id: 1 } as never)).rejects.toMatchObject({ code: 11000 });
    await expect(people.insertOne({ _id: 2, email: 'a@example.com' } as never)).rejects.toMatchObject({
      code: 11000,
      keyValue: { email: 'a@example.com' },
    });
    const upsert = people.findOneAndUpdate(
      { _id: 3 } as never,
      { $set: { email: 'a@example.com' } },
      { upsert: true },
    );
    await expect(upsert).rejects.toMatchObject({ code: 11000 });
  });

  it('goes on past a failed document of an unordered insert, and stops at it when ordered', async () => {
    const tags = freshDb().collection('tags');
    const docs = [{ _id: 1 }, { _id: 1 }, { _id: 2 }] as never[];
    await expect(tags.insertMany(docs, { ordered: false })).rejects.toMatchObject({
      code: 11000,
      result: { insertedCount: 2 },
    });
    await tags.deleteMany({});
    await expect(tags.insertMany(docs)).rejects.toMatchObject({ code: 11000, result: { insertedCount: 1 } });
    expect(await tags.countDocuments()).toBe(1);
  });

  it('updates array elements through the positional operator, on every matching document', async () => {
    const orders = freshDb().collection('orders');
    await orders.insertMany([
      {
        _id: 1,
        lines: [
          { sku: 'a', n: 1 },
          { sku: 'b', n: 1 },
        ],
      },
      { _id: 2, lines: [{ sku: 'b', n: 5 }] },
      { _id: 3, lines: [{ sku: 'c', n: 1 }] },
    ] as never[]);
    const outcome = await orders.updateMany({ 'lines.sku': 'b' }, { $inc: { 'lines.$.n': 10 } });
    expect(outcome).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect(await orders.find({}, { sort: { _id: 1 }, projection: { _id: 0, lines: 1 } }).toArray()).toEqual([
      {
        lines: [
          { sku: 'a', n: 1 },
          { sku: 'b', n: 11 },
        ],
      },
      { lines: [{ sku: 'b', n: 15 }] },
      { lines: [{ sku: 'c', n: 1 }] },
    ]);
  });

  it('finds and modifies the first document by sort, before or after', async () => {
    const jobs = freshDb().collection('jobs');
    await jobs.insertMany([
      { _id: 1, p: 1 },
      { _id: 2, p: 5 },
      { _id: 3, p: 3 },
    ] as never[]);
    const taken = await jobs.findOneAndUpdate(
      {},
      { $set: { taken: true } },
      { sort: { p: -1 }, projection: { p: 1 } },
    );
    expect(taken).toEqual({ _id: 2, p: 5 });
    const after = await jobs.findOneAndUpdate(
      { taken: { $ne: true } },
      { $inc: { p: 1 } },
      {
        sort: { p: -1 },
        returnDocument: 'after',
      },
    );
    expect(after).toEqual({ _id: 3, p: 4 });
    expect(await jobs.findOneAndDelete({}, { sort: { p: 1 } })).toEqual({ _id: 1, p: 1 });
    expect(
      await jobs.findOneAndReplace({ _id: 7 } as never, { p: 0 }, { upsert: true, returnDocument: 'after' }),
    ).toEqual({
      _id: 7,
      p: 0,
    });
  });

  it('lists and drops indexes as MongoDB does', async () => {
    const db = freshDb();
    await expect(db.collection('none').listIndexes().toArray()).rejects.toMatchObject({ code: 26 });
    const posts = db.collection('posts');
    await posts.createIndex({ title: 'text' }, { default_language: 'none' });
    await posts.createIndex({ at: -1 }, { expireAfterSeconds: 5 });
    expect(await posts.listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      {
        v: 2,
        key: { _fts: 'text', _ftsx: 1 },
        name: 'title_text',
        weights: { title: 1 },
        default_language: 'none',
        language_override: 'language',
        textIndexVersion: 3,
      },
      { v: 2, key: { at: -1 }, name: 'at_-1', expireAfterSeconds: 5 },
    ]);
    await expect(posts.createIndex({ body: 'text' }, { name: 'title_text' })).rejects.toMatchObject({
      code: 85,
    });
    await posts.dropIndex('title_text');
    await expect(posts.dropIndex('title_text')).rejects.toMatchObject({ code: 27 });
    await expect(posts.dropIndex('_id_')).rejects.toMatchObject({ code: 72 });
    expect((await posts.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'at_-1']);
    await posts.dropIndexes();
    expect((await posts.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });

  it('lists, drops and recreates collections and databases', async () => {
    const db = freshDb();
    await db.createCollection('a');
    await db.collection('b').insertOne({ x: 1 });
    expect((await db.listCollections().toArray()).map((c) => c.name).sort()).toEqual(['a', 'b']);
    expect(await db.listCollections({ name: 'b' }, { nameOnly: true }).toArray()).toEqual([
      { name: 'b', type: 'collection' },
    ]);
    await db.collection('b').drop();
    expect(await db.collection('b').countDocuments()).toBe(0);
    await db.dropDatabase();
    expect(await db.listCollections().toArray()).toEqual([]);
  });

  it('refuses what it does not run with a clear error', async () => {
    const db = freshDb();
    await expect(db.command({ frobnicate: 1 })).rejects.toMatchObject({ code: 59 });
    await expect(
      db
        .collection('x')
        .aggregate([{ $frobnicate: {} }])
        .toArray(),
    ).rejects.toThrow(/Unrecognized pipeline stage name: '\$frobnicate'/);
    await expect(
      db
        .collection('x')
        .aggregate([{ $out: 'y' }])
        .toArray(),
    ).rejects.toMatchObject({ code: 238, message: expect.stringContaining('$out') });
  });
});
