import type { Document } from '@store/common';
import { createEmbeddedDb, type EmbeddedCollection } from '@store/embedded';
import { beforeEach, describe, expect, it } from 'vitest';
import { KNOWN_OPTIONS, type OptionsMethod } from '../src/known-options';

/** One call of each method that takes options, with `options`. */
const CALLS: Record<OptionsMethod, (posts: EmbeddedCollection, options: Document) => Promise<unknown>> = {
  find: (posts, options) => posts.find({}, options).toArray(),
  findOne: (posts, options) => posts.findOne({}, options),
  countDocuments: (posts, options) => posts.countDocuments({}, options),
  estimatedDocumentCount: (posts, options) => posts.estimatedDocumentCount(options),
  distinct: (posts, options) => posts.distinct('n', {}, options),
  aggregate: (posts, options) => posts.aggregate([{ $match: {} }, { $sort: { _id: 1 } }], options).toArray(),
  insertOne: (posts, options) => posts.insertOne({ _id: 'new' }, options),
  insertMany: (posts, options) => posts.insertMany([{ _id: 'new' }], options),
  bulkWrite: (posts, options) => posts.bulkWrite([{ insertOne: { document: { _id: 'new' } } }], options),
  findOneAndReplace: (posts, options) => posts.findOneAndReplace({ _id: 1 }, { n: 9 }, options),
  findOneAndUpdate: (posts, options) => posts.findOneAndUpdate({ _id: 1 }, { $set: { n: 9 } }, options),
  findOneAndDelete: (posts, options) => posts.findOneAndDelete({ _id: 1 }, options),
  updateOne: (posts, options) => posts.updateOne({ _id: 1 }, { $set: { n: 9 } }, options),
  replaceOne: (posts, options) => posts.replaceOne({ _id: 1 }, { n: 9 }, options),
  updateMany: (posts, options) => posts.updateMany({}, { $set: { n: 9 } }, options),
  deleteOne: (posts, options) => posts.deleteOne({ _id: 1 }, options),
  deleteMany: (posts, options) => posts.deleteMany({}, options),
  createIndex: (posts, options) => posts.createIndex({ n: -1 }, options),
};

const methods = Object.keys(KNOWN_OPTIONS) as OptionsMethod[];
/** The methods whose table lists `hint`. */
const hinted = methods.filter((method) => (KNOWN_OPTIONS[method] as readonly string[]).includes('hint'));

const notImplemented = (message: string) =>
  expect.objectContaining({ code: 238, codeName: 'NotImplemented', message });

describe('the options of the embedded engine', () => {
  let posts: EmbeddedCollection;
  beforeEach(async () => {
    posts = createEmbeddedDb().collection('posts');
    await posts.insertMany([
      { _id: 1, n: 1, tag: 'a' },
      { _id: 2, n: 2 },
    ]);
    await posts.createIndex({ n: 1 }, { name: 'by_n' });
    await posts.createIndex({ tag: 1 }, { name: 'by_tag', sparse: true });
  });

  it('has a call in this test for every method of the table', () => {
    expect(methods.filter((method) => !Object.hasOwn(CALLS, method))).toEqual([]);
  });

  it.each(methods)(
    '%s refuses an option it does not implement with 238, naming the option',
    async (method) => {
      await expect(CALLS[method](posts, { notAnOption: 1 })).rejects.toEqual(
        notImplemented(`${method} option 'notAnOption' is not supported by the embedded engine`),
      );
    },
  );

  it.each(methods)('%s refuses a session, naming sessions and transactions', async (method) => {
    await expect(CALLS[method](posts, { session: {} })).rejects.toEqual(
      notImplemented(expect.stringContaining('sessions and transactions are not supported')),
    );
  });

  it('refuses before anything is written', async () => {
    await expect(posts.deleteMany({}, { notAnOption: 1 } as Document)).rejects.toMatchObject({ code: 238 });
    await expect(posts.insertOne({ _id: 3 }, { notAnOption: 1 })).rejects.toMatchObject({ code: 238 });
    expect(await posts.countDocuments({})).toBe(2);
  });

  it("answers findOne's sort and skip as find does, and refuses its limit", async () => {
    expect(await posts.findOne({}, { sort: { n: -1 } })).toMatchObject({ _id: 2, n: 2 });
    expect(await posts.findOne({}, { sort: { n: -1 }, skip: 1 })).toMatchObject({ _id: 1, n: 1 });
    await expect(posts.findOne({}, { limit: 5 } as Document)).rejects.toEqual(
      notImplemented("findOne option 'limit' is not supported by the embedded engine"),
    );
  });

  it('takes an option given as undefined as absent', async () => {
    expect(
      await posts.find({}, { collation: undefined, sort: { _id: 1 } } as Document).toArray(),
    ).toHaveLength(2);
  });

  it('answers alike with the options that change no answer', async () => {
    const plain = await posts.find({}, { sort: { _id: 1 } }).toArray();
    const noOps = {
      comment: 'why',
      batchSize: 1,
      noCursorTimeout: true,
      allowPartialResults: true,
      allowDiskUse: false,
      oplogReplay: false,
      readPreference: 'secondaryPreferred',
      bypassDocumentValidation: true,
      readConcern: { level: 'majority' },
    };
    expect(await posts.find({}, { sort: { _id: 1 }, ...noOps } as Document).toArray()).toEqual(plain);
    expect(await posts.countDocuments({}, { readConcern: 'local', comment: 'why' } as Document)).toBe(2);
    await posts.insertOne({ _id: 3 }, { writeConcern: { w: 'majority', j: true, wtimeout: 100 } });
    await posts.updateOne({ _id: 3 }, { $set: { n: 3 } }, {
      writeConcern: { w: 1, journal: true },
    } as Document);
    expect(await posts.findOne({ _id: 3 })).toEqual({ _id: 3, n: 3 });
  });

  it.each([[{ level: 'snapshot' }], [{ level: 'linearizable' }], [{ level: 'local', afterClusterTime: 1 }]])(
    'refuses the read concern %o with 238',
    async (readConcern) => {
      await expect(posts.find({}, { readConcern } as Document).toArray()).rejects.toEqual(
        notImplemented(expect.stringContaining("find option 'readConcern'")),
      );
    },
  );

  it.each([
    [{ w: 2 }, "cannot use 'w' > 1 on a standalone"],
    [{ w: 'dc1' }, "cannot use non-majority 'w' mode dc1 on a standalone"],
  ])(
    'refuses the write concern %o as a standalone does (BadValue), writing nothing',
    async (writeConcern, message) => {
      await expect(posts.insertOne({ _id: 3 }, { writeConcern })).rejects.toMatchObject({
        code: 2,
        codeName: 'BadValue',
        message,
      });
      expect(await posts.countDocuments({})).toBe(2);
    },
  );

  it('refuses an unacknowledged write (w: 0), whose result and errors the driver does not report', async () => {
    await expect(posts.insertOne({ _id: 3 }, { writeConcern: { w: 0 } })).rejects.toEqual(
      notImplemented(expect.stringContaining('w: 0')),
    );
    expect(await posts.countDocuments({})).toBe(2);
  });

  describe('hint', () => {
    it.each(hinted)(
      '%s takes an index by name or by key pattern, and answers as without it',
      async (method) => {
        const other = createEmbeddedDb().collection('posts');
        await other.insertMany([
          { _id: 1, n: 1, tag: 'a' },
          { _id: 2, n: 2 },
        ]);
        await other.createIndex({ n: 1 }, { name: 'by_n' });
        const plain = await CALLS[method](other, {});
        expect(await CALLS[method](posts, { hint: 'by_n' })).toEqual(plain);
        expect(
          await CALLS[method](createEmbeddedDb().collection('empty'), { hint: { _id: 1 } }),
        ).toBeDefined();
      },
    );

    it.each(hinted)('%s refuses a hint naming no index: BadValue, as MongoDB answers', async (method) => {
      for (const hint of ['missing', { missing: 1 }, { n: -1 }]) {
        await expect(CALLS[method](posts, { hint })).rejects.toMatchObject({
          code: 2,
          codeName: 'BadValue',
          message: expect.stringContaining('hint provided does not correspond to an existing index'),
        });
      }
      expect(await posts.countDocuments({})).toBe(2);
    });

    it('refuses a hint of a sparse index, from which MongoDB answers only the documents it holds', async () => {
      await expect(posts.find({}, { hint: 'by_tag' } as Document).toArray()).rejects.toEqual(
        notImplemented(expect.stringContaining("sparse index 'by_tag'")),
      );
    });

    it('takes a forward natural scan, and refuses a reverse one', async () => {
      expect(await posts.find({}, { hint: { $natural: 1 } } as Document).toArray()).toHaveLength(2);
      await expect(posts.find({}, { hint: { $natural: -1 } } as Document).toArray()).rejects.toMatchObject({
        code: 238,
      });
    });

    it('takes an empty hint as no hint, as MongoDB does', async () => {
      expect(await posts.find({}, { hint: {} } as Document).toArray()).toHaveLength(2);
    });
  });

  it('refuses change streams and sessions by name', () => {
    const db = createEmbeddedDb();
    expect(() => db.watch()).toThrow(
      expect.objectContaining({ code: 238, message: expect.stringContaining('change streams') }),
    );
    expect(() => db.collection('posts').watch()).toThrow(expect.objectContaining({ code: 238 }));
    expect(() => db.startSession()).toThrow(
      expect.objectContaining({ code: 238, message: expect.stringContaining('sessions and transactions') }),
    );
  });
});
