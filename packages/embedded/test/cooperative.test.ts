/**
 * The embedded engine works in slices: a long read, count, sort, updateMany or deleteMany lets
 * other callers' operations run between its slices, so a short one started after it finishes
 * first. Proved by the order in which the promises settle, never by time. Also: `maxTimeMS`
 * (code 50) and `maxExamined` (the engine's own ExceededExaminedLimit), and what a sliced
 * operation sees and does when other callers write in between.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document } from '@store/common';
import { createEmbeddedDb, EMBEDDED_ERROR_CODES, type EmbeddedDb } from '@store/embedded';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeRecords } from '../src/durable/records';

const MANY = 100_000;
const HALF = 50_000;

const idOf = (i: number): string => `p${String(i).padStart(6, '0')}`;
const WORDS = ['river', 'cobalt', 'lantern', 'meadow', 'harbor', 'pepper', 'granite', 'willow'];

/** `count` small posts with increasing ids: `n` cycles through 0..999, `half` through 0 and 1. */
function posts(count: number): Document[] {
  return Array.from({ length: count }, (_, i) => ({
    _id: idOf(i),
    title: `post ${i} ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`,
    body: `${WORDS[(i * 3) % WORDS.length]} ${WORDS[(i * 5) % WORDS.length]}`,
    n: i % 1000,
    half: i % 2,
  }));
}

/** Patterns no post holds: every document is tested against each. */
const absent = (count: number): Document => ({
  $or: Array.from({ length: count }, (_, k) => ({ title: { $regex: `zq${k}x`, $options: 'i' } })),
});

/** The names of `operations` in the order they settled (resolved or rejected). */
async function settleOrder(operations: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  await Promise.allSettled(
    Object.entries(operations).map(([name, operation]) =>
      operation.then(
        () => order.push(name),
        () => order.push(name),
      ),
    ),
  );
  return order;
}

const ids = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

/** The last change of each document in the journals on disk in `dir`, by `_id`. */
function journalOf(dir: string): Map<unknown, Document> {
  const last = new Map<unknown, Document>();
  for (const name of readdirSync(dir).filter((file) => file.startsWith('journal-'))) {
    for (const record of decodeRecords(readFileSync(join(dir, name))).records)
      for (const change of record)
        last.set((change.put as Document | undefined)?._id ?? change.remove, change);
  }
  return last;
}

describe('cooperative work of the embedded engine', () => {
  let db: EmbeddedDb;
  beforeAll(async () => {
    db = createEmbeddedDb();
    await db.collection('posts').insertMany(posts(MANY));
  });

  /** A fresh collection `name` holding the first `count` posts. */
  async function filled(name: string, count: number) {
    const collection = db.collection(name);
    await collection.insertMany(posts(count));
    return collection;
  }

  describe('a short operation started after a long one finishes first', () => {
    it('an _id findOne, after a find with an $or of $regex over 100,000 documents', async () => {
      const collection = db.collection('posts');
      const long = collection.find(absent(4)).toArray();
      const short = collection.findOne({ _id: idOf(42) });
      expect(await settleOrder({ long, short })).toEqual(['short', 'long']);
      expect(await long).toEqual([]);
      expect((await short)?._id).toBe(idOf(42));
    });

    it('an _id findOne, after a sort of 100,000 documents; the sort answers in MongoDB order', async () => {
      const collection = db.collection('posts');
      const long = collection.find({}, { sort: { n: 1, title: -1 }, limit: 2000 }).toArray();
      const short = collection.findOne({ _id: idOf(7) });
      expect(await settleOrder({ long, short })).toEqual(['short', 'long']);
      const expected = posts(MANY)
        .sort(
          (a, b) => (a.n as number) - (b.n as number) || ((a.title as string) < (b.title as string) ? 1 : -1),
        )
        .slice(0, 2000);
      expect(ids(await long)).toEqual(ids(expected));
    });

    it('an _id findOne, after a count over 100,000 documents', async () => {
      const collection = db.collection('posts');
      const long = collection.countDocuments({ $or: [{ title: { $regex: 'river' } }, { n: 3 }] });
      const short = collection.findOne({ _id: idOf(3) });
      expect(await settleOrder({ long, short })).toEqual(['short', 'long']);
      const expected = posts(MANY).filter((post) => String(post.title).includes('river') || post.n === 3);
      expect(await long).toBe(expected.length);
    });

    it('an _id findOne, after an updateMany over 50,000 documents; every one is updated', async () => {
      const collection = await filled('update-many', HALF);
      const long = collection.updateMany({ half: { $in: [0, 1] } }, { $set: { flag: true }, $inc: { n: 1 } });
      const short = collection.findOne({ _id: idOf(HALF - 1) });
      expect(await settleOrder({ long, short })).toEqual(['short', 'long']);
      expect(await long).toMatchObject({ matchedCount: HALF, modifiedCount: HALF });
      expect(await collection.countDocuments({ flag: true })).toBe(HALF);
      expect(await collection.findOne({ _id: idOf(999) })).toMatchObject({ n: 1000, flag: true });
    });

    it('an _id findOne, after a deleteMany over 50,000 documents; every one is removed', async () => {
      const collection = await filled('delete-many', HALF + 10);
      const long = collection.deleteMany({ _id: { $lt: idOf(HALF) } });
      const short = collection.findOne({ _id: idOf(HALF + 3) });
      expect(await settleOrder({ long, short })).toEqual(['short', 'long']);
      expect(await long).toEqual({ deletedCount: HALF });
      expect(ids(await collection.find({}).toArray())).toEqual(
        Array.from({ length: 10 }, (_, i) => idOf(HALF + i)),
      );
    });
  });

  describe('maxTimeMS', () => {
    it.each([
      ['find', (c: ReturnType<EmbeddedDb['collection']>) => c.find(absent(8), { maxTimeMS: 1 }).toArray()],
      [
        'countDocuments',
        (c: ReturnType<EmbeddedDb['collection']>) => c.countDocuments(absent(8), { maxTimeMS: 1 }),
      ],
      ['findOne', (c: ReturnType<EmbeddedDb['collection']>) => c.findOne(absent(8), { maxTimeMS: 1 })],
    ])('refuses a %s scanning past it with code 50 (MaxTimeMSExpired)', async (_name, run) => {
      const collection = db.collection('posts');
      await expect(run(collection)).rejects.toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      expect(EMBEDDED_ERROR_CODES.MaxTimeMSExpired).toBe(50);
      expect(await collection.countDocuments({})).toBe(MANY);
    });

    it('refuses an updateMany past it; each document is left either wholly updated or untouched', async () => {
      const collection = await filled('update-timed-out', HALF);
      await expect(
        collection.updateMany({}, { $set: { a: 1, b: 1 } }, { maxTimeMS: 1 }),
      ).rejects.toMatchObject({
        code: 50,
      });
      const updated = await collection.countDocuments({ a: 1 });
      expect(await collection.countDocuments({ b: 1 })).toBe(updated);
      expect(await collection.countDocuments({ a: 1, b: 1 })).toBe(updated);
      expect(await collection.countDocuments({})).toBe(HALF);
    });

    it('refuses a deleteMany past it; the documents not removed are whole', async () => {
      const collection = await filled('delete-timed-out', HALF);
      await expect(
        collection.deleteMany({ title: { $regex: 'post' } }, { maxTimeMS: 1 }),
      ).rejects.toMatchObject({
        code: 50,
      });
      const left = await collection.find({}).toArray();
      const byId = new Map(posts(HALF).map((post) => [post._id, post]));
      for (const doc of left) expect(doc).toEqual(byId.get(doc._id as string));
    });

    it('takes 0 as no limit and refuses one that is not a non-negative integer (BadValue)', async () => {
      const collection = db.collection('posts');
      expect(await collection.countDocuments({ n: 5 }, { maxTimeMS: 0 })).toBe(MANY / 1000);
      for (const maxTimeMS of [-1, 1.5, '10'] as unknown[]) {
        await expect(collection.countDocuments({}, { maxTimeMS: maxTimeMS as number })).rejects.toMatchObject(
          {
            code: 2,
            message: expect.stringContaining('maxTimeMS'),
          },
        );
      }
    });
  });

  describe('maxExamined', () => {
    it('refuses a scan that examines more documents, naming how many and the limit', async () => {
      const collection = db.collection('posts');
      const error = await collection
        .find({ n: 5 }, { maxExamined: 1000 })
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        codeName: 'ExceededExaminedLimit',
        code: EMBEDDED_ERROR_CODES.ExceededExaminedLimit,
      });
      expect((error as Error).message).toMatch(/examined 1001 documents.* 1000/);
      await expect(collection.countDocuments({ n: 5 }, { maxExamined: 99_999 })).rejects.toMatchObject({
        codeName: 'ExceededExaminedLimit',
      });
      expect(await collection.countDocuments({ n: 5 }, { maxExamined: MANY })).toBe(100);
    });

    it('uses a code of its own, outside MongoDB’s table', () => {
      expect(EMBEDDED_ERROR_CODES.ExceededExaminedLimit).toBeGreaterThan(100_000_000);
    });

    it('counts only what an index leaves to examine: an equality on an indexed field, an _id', async () => {
      const collection = await filled('indexed', 10_000);
      await collection.createIndex({ n: 1 });
      expect(ids(await collection.find({ n: 5 }, { maxExamined: 10 }).toArray())).toHaveLength(10);
      await expect(collection.find({ n: 5 }, { maxExamined: 9 }).toArray()).rejects.toMatchObject({
        codeName: 'ExceededExaminedLimit',
      });
      expect(await collection.countDocuments({ n: { $in: [5, 6] } }, { maxExamined: 20 })).toBe(20);
      expect((await collection.findOne({ _id: idOf(5) }, { maxExamined: 1 }))?._id).toBe(idOf(5));
      expect((await collection.findOne({ _id: idOf(5), half: 1 }, { maxExamined: 1 }))?._id).toBe(idOf(5));
    });

    it('stops counting once a page in natural order is full, and counts nothing for an empty-filter count', async () => {
      const collection = db.collection('posts');
      expect(await collection.find({}, { limit: 10, maxExamined: 10 }).toArray()).toHaveLength(10);
      expect(
        await collection.find({ half: 1 }, { skip: 5, limit: 5, maxExamined: 20 }).toArray(),
      ).toHaveLength(5);
      expect(await collection.countDocuments({}, { maxExamined: 0 })).toBe(MANY);
    });

    it('refuses an updateMany or deleteMany past it before changing anything', async () => {
      const collection = await filled('examined-writes', 5_000);
      await expect(
        collection.updateMany({ half: 0 }, { $set: { x: 1 } }, { maxExamined: 4_999 }),
      ).rejects.toMatchObject({ codeName: 'ExceededExaminedLimit' });
      await expect(collection.deleteMany({ half: 0 }, { maxExamined: 100 })).rejects.toMatchObject({
        codeName: 'ExceededExaminedLimit',
      });
      expect(await collection.countDocuments({})).toBe(5_000);
      expect(await collection.countDocuments({ x: 1 })).toBe(0);
      expect(
        await collection.updateMany({ half: 0 }, { $set: { x: 1 } }, { maxExamined: 5_000 }),
      ).toMatchObject({
        modifiedCount: 2_500,
      });
    });

    it('refuses a limit that is not a non-negative integer (BadValue)', async () => {
      const collection = db.collection('posts');
      for (const maxExamined of [-1, 2.5, '3'] as unknown[]) {
        await expect(
          collection.find({}, { maxExamined: maxExamined as number }).toArray(),
        ).rejects.toMatchObject({
          code: 2,
          message: expect.stringContaining('maxExamined'),
        });
      }
    });
  });

  describe('writes between the slices of another operation', () => {
    it('leave a sliced find answering from the collection as it was when it began: no document twice, none missed', async () => {
      const collection = await filled('moving', HALF);
      const everything = { title: { $regex: 'post' } };
      const listed = collection.find(everything).toArray();
      const sorted = collection.find(everything, { sort: { n: -1, _id: 1 } }).toArray();
      const counted = collection.countDocuments(everything);
      // Between their slices: a removal, a change, an insert, and a document removed then
      // inserted again (now last in insertion order).
      const writes = Promise.all([
        collection.deleteOne({ _id: idOf(0) }),
        collection.updateOne({ _id: idOf(10) }, { $set: { title: 'changed', n: 5000 } }),
        collection.insertOne({ _id: 'zz-new', title: 'post new', n: 1, half: 0 }),
        collection.deleteOne({ _id: idOf(20) }),
        collection.insertOne({ ...posts(21)[20], title: 'post again' }),
      ]);
      expect(await settleOrder({ listed, writes })).toEqual(['writes', 'listed']);
      const original = posts(HALF);
      expect(await listed).toEqual(original);
      expect(ids(await sorted)).toEqual(
        ids(
          original
            .slice()
            .sort(
              (a, b) => (b.n as number) - (a.n as number) || ((a._id as string) < (b._id as string) ? -1 : 1),
            ),
        ),
      );
      expect(await counted).toBe(HALF);
      expect(await collection.countDocuments(everything)).toBe(HALF - 1);
    });

    it.each<[string, (collection: ReturnType<EmbeddedDb['collection']>) => Promise<unknown>]>([
      ['a removal', (collection) => collection.deleteOne({ _id: idOf(HALF - 1) })],
      [
        'a replacement',
        (collection) => collection.replaceOne({ _id: idOf(HALF - 3) }, { title: 'post', n: 999 }),
      ],
      ['an update', (collection) => collection.updateOne({ _id: idOf(HALF - 5) }, { $set: { n: 5000 } })],
      ['an insert', (collection) => collection.insertOne({ _id: 'zz-new', title: 'post new', n: 999 })],
    ])(
      'leave a sliced find answering as it began when %s lands on what it has not read yet',
      async (_, write) => {
        const collection = await filled(`moving-late-${_.replace(/ /g, '-')}`, HALF);
        const everything = { title: { $regex: 'post' } };
        const listed = collection.find(everything).toArray();
        const sorted = collection.find(everything, { sort: { n: -1, _id: 1 }, limit: 30 }).toArray();
        const counted = collection.countDocuments(everything);
        const writing = write(collection);
        expect(await settleOrder({ listed, writing })).toEqual(['writing', 'listed']);
        const original = posts(HALF);
        expect(await listed).toEqual(original);
        const byN = original
          .slice()
          .sort(
            (a, b) => (b.n as number) - (a.n as number) || ((a._id as string) < (b._id as string) ? -1 : 1),
          );
        expect(ids(await sorted)).toEqual(ids(byN.slice(0, 30)));
        expect(await counted).toBe(HALF);
      },
    );

    it('leave a sliced find answering as it began when its collection is renamed away and written under its new name', async () => {
      const collection = await filled('moving-renamed', HALF);
      const listed = collection.find({ title: { $regex: 'post' } }).toArray();
      const writes = (async () => {
        await db.renameCollections([['moving-renamed', 'moved']]);
        await db.collection('moved').deleteOne({ _id: idOf(HALF - 1) });
        await db.collection('moved').insertOne({ _id: 'zz-new', title: 'post new' });
      })();
      expect(await settleOrder({ listed, writes })).toEqual(['writes', 'listed']);
      expect(await listed).toEqual(posts(HALF));
    });

    // The writes reach the last documents the operation decided to change: it stores its
    // changes only after finding and computing them all, so they land before it gets there.
    const late = (back: number): string => idOf(HALF - 2 * back);

    it('leave an updateMany updating each document as it is now, and only if it still matches', async () => {
      const collection = await filled('update-moving', HALF);
      const update = collection.updateMany({ half: 0 }, { $inc: { n: 1 } });
      const writes = Promise.all([
        collection.updateOne({ _id: late(1) }, { $set: { half: 3 } }),
        collection.deleteOne({ _id: late(2) }),
        collection.updateOne({ _id: late(3) }, { $set: { seen: true } }),
        collection.insertOne({ _id: 'zz-new', half: 0, n: 0 }),
      ]);
      expect(await settleOrder({ update, writes })).toEqual(['writes', 'update']);
      expect(await update).toMatchObject({ matchedCount: HALF / 2 - 2, modifiedCount: HALF / 2 - 2 });
      const nOf = (id: string): number => (HALF - 2 * Number(id === late(3) ? 3 : 4)) % 1000;
      expect(await collection.findOne({ _id: late(1) })).toMatchObject({ half: 3, n: (HALF - 2) % 1000 });
      expect(await collection.findOne({ _id: late(2) })).toBeNull();
      expect(await collection.findOne({ _id: late(3) })).toMatchObject({ seen: true, n: nOf(late(3)) + 1 });
      expect(await collection.findOne({ _id: late(4) })).toMatchObject({ n: nOf(late(4)) + 1 });
      // Inserted after the update began: not among the documents it decided to change.
      expect(await collection.findOne({ _id: 'zz-new' })).toMatchObject({ n: 0 });
    });

    it('leave a deleteMany removing a document written meanwhile only if it still matches', async () => {
      const collection = await filled('delete-moving', HALF);
      const removal = collection.deleteMany({ half: 0 });
      const writes = Promise.all([
        collection.updateOne({ _id: late(1) }, { $set: { half: 3 } }),
        collection.updateOne({ _id: late(2) }, { $set: { seen: true } }),
        collection.insertOne({ _id: 'zz-new', half: 0 }),
      ]);
      expect(await settleOrder({ removal, writes })).toEqual(['writes', 'removal']);
      expect(await removal).toEqual({ deletedCount: HALF / 2 - 1 });
      expect(ids(await collection.find({ half: { $ne: 1 } }).toArray())).toEqual([late(1), 'zz-new']);
      expect(await collection.countDocuments({})).toBe(HALF / 2 + 2);
    });

    it('leave every change of a durable updateMany and deleteMany on disk once each resolves', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'store-cooperative-'));
      const durable = createEmbeddedDb({ dir, compactAfterBytes: 1 << 30, warn: () => undefined });
      const collection = durable.collection('posts');
      await collection.insertMany(posts(20_000));
      /** Inserts one document after the other until `done` settles: writes between the slices. */
      const alongside = async (done: Promise<unknown>) => {
        let settled = false;
        done.finally(() => {
          settled = true;
        });
        for (let n = 0; !settled; n++) await collection.insertOne({ _id: `other-${Math.random()}-${n}` });
      };
      const onDisk = () => journalOf(dir);
      const update = collection.updateMany({ half: 0 }, { $set: { flag: true } });
      await Promise.all([update, alongside(update)]);
      let journaled = onDisk();
      for (const post of posts(20_000).filter((each) => each.half === 0)) {
        expect((journaled.get(post._id)?.put as Document | undefined)?.flag, String(post._id)).toBe(true);
      }
      const removal = collection.deleteMany({ half: 1 });
      await Promise.all([removal, alongside(removal)]);
      journaled = onDisk();
      for (const post of posts(20_000).filter((each) => each.half === 1)) {
        expect(journaled.get(post._id), String(post._id)).toEqual({ c: 'posts', remove: post._id });
      }
      await durable.close();
    });

    it('leave a durable deleteMany resolving only once its removals are on disk, whatever write runs between its steps', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'store-cooperative-'));
      const durable = createEmbeddedDb({ dir, warn: () => undefined });
      const collection = durable.collection('groups');
      await collection.insertMany(Array.from({ length: 120 }, (_, i) => ({ _id: i, group: i % 40 })));
      // Another write starts after 0, 1, 2, ... turns of the microtask queue: one lands between
      // any two steps of the deleteMany, however many it takes.
      for (let hops = 0; hops < 40; hops++) {
        const removal = collection.deleteMany({ group: hops });
        const between = (async () => {
          for (let i = 0; i < hops; i++) await null;
          await collection.insertOne({ _id: `between-${hops}` });
        })();
        await removal;
        const journaled = journalOf(dir);
        for (const _id of [hops, hops + 40, hops + 80]) {
          expect(journaled.get(_id), `${_id}, removed at ${hops} hops`).toEqual({ c: 'groups', remove: _id });
        }
        await between;
      }
      await durable.close();
    });

    it('stop a sliced operation when the database closes meanwhile (code 11600)', async () => {
      const closing = createEmbeddedDb();
      const collection = closing.collection('posts');
      await collection.insertMany(posts(HALF));
      const long = collection.find(absent(4)).toArray();
      await closing.close();
      await expect(long).rejects.toMatchObject({ code: 11600 });
    });
  });
});
