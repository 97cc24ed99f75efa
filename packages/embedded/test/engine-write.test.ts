import type { Document, StoreCollection } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { ObjectId } from 'bson';
import { beforeEach, describe, expect, it } from 'vitest';
import { ids, seedPeople } from './fixtures';

const after = { returnDocument: 'after' } as const;
const before = { returnDocument: 'before' } as const;

describeEngines('writes', (engine) => {
  let people: StoreCollection;
  beforeEach(async () => {
    people = await seedPeople(await engine.createDb());
  });

  describe('insertOne', () => {
    it('generates an ObjectId _id when none is given, stored first', async () => {
      const { insertedId } = await people.insertOne({ name: 'Eve', _id: undefined });
      expect(insertedId).toBeInstanceOf(ObjectId);
      const stored = await people.findOne({ _id: insertedId });
      expect(stored).toEqual({ _id: insertedId, name: 'Eve' });
      expect(Object.keys(stored ?? {})[0]).toBe('_id');
    });

    it('keeps a given string or number _id and moves it first', async () => {
      expect(await people.insertOne({ name: 'Num', _id: 7 })).toMatchObject({ insertedId: 7 });
      expect(Object.keys((await people.findOne({ _id: 7 })) ?? {})).toEqual(['_id', 'name']);
    });

    it('stores undefined as null, as the driver does by default', async () => {
      await people.insertOne({ _id: 'u', kept: null, gone: undefined, nested: { gone: undefined } });
      const stored = await people.findOne({ _id: 'u' });
      expect(stored).toStrictEqual({ _id: 'u', kept: null, gone: null, nested: { gone: null } });
    });

    it('rejects a taken _id with code 11000 and keeps the original', async () => {
      await expect(people.insertOne({ _id: 'ann', name: 'Impostor' })).rejects.toMatchObject({ code: 11000 });
      expect((await people.findOne({ _id: 'ann' }))?.name).toBe('Ann');
    });

    it('enforces a unique index with code 11000, and frees the key when the holder changes', async () => {
      await people.createIndex({ email: 1 }, { unique: true, sparse: true });
      await people.insertOne({ _id: 'e1', email: 'a@x.io' });
      await expect(people.insertOne({ _id: 'e2', email: 'a@x.io' })).rejects.toMatchObject({ code: 11000 });
      await expect(people.updateOne({ _id: 'ann' }, { $set: { email: 'a@x.io' } })).rejects.toMatchObject({
        code: 11000,
      });
      await people.updateOne({ _id: 'e1' }, { $set: { email: 'b@x.io' } });
      await people.insertOne({ _id: 'e2', email: 'a@x.io' });
      await people.deleteOne({ _id: 'e2' });
      await people.insertOne({ _id: 'e3', email: 'a@x.io' });
      expect(await people.countDocuments({ email: { $exists: true } })).toBe(2);
    });

    it('refuses to build a unique index over existing duplicates (code 11000)', async () => {
      await expect(people.createIndex({ 'address.city': 1 }, { unique: true })).rejects.toMatchObject({
        code: 11000,
      });
    });
  });

  describe('insertMany and updateMany', () => {
    it('inserts in order and stops at the first taken _id, reporting its index; those before it stay', async () => {
      const error = await people
        .insertMany([{ _id: 'x1' }, { _id: 'x2' }, { _id: 'ann' }, { _id: 'x3' }])
        .catch((e) => e);
      expect(error).toMatchObject({ code: 11000 });
      const writeErrors = (error as { writeErrors: unknown }).writeErrors;
      const first = Array.isArray(writeErrors) ? writeErrors[0] : writeErrors;
      expect(first).toMatchObject({ index: 2 });
      expect(await people.countDocuments({ _id: { $in: ['x1', 'x2', 'x3'] } })).toBe(2);
    });

    it('counts what updateMany matched and what it changed', async () => {
      const total = await people.countDocuments({});
      const result = await people.updateMany({}, { $set: { age: 25 } });
      expect(result).toMatchObject({ matchedCount: total });
      const already = ids(await people.find({ age: 25 }).toArray()).length;
      const again = await people.updateMany({}, { $set: { age: 25 } });
      expect(again).toMatchObject({ matchedCount: total, modifiedCount: 0 });
      expect(already).toBe(total);
    });

    it('matches documents whose value differs from a literal with $expr and $literal', async () => {
      await people.insertOne({ _id: 'lit', note: '$name', when: new Date(0) });
      const differs = (value: unknown) => ({ _id: 'lit', $expr: { $ne: ['$note', { $literal: value }] } });
      expect(await people.countDocuments(differs('$name'))).toBe(0);
      expect(await people.countDocuments(differs('other'))).toBe(1);
      const sameDate = { _id: 'lit', $expr: { $ne: ['$when', { $literal: new Date(0) }] } };
      expect(await people.countDocuments(sameDate)).toBe(0);
    });
  });

  describe('update operators', () => {
    it.each<[string, Document, Document]>([
      [
        '$set (dotted)',
        { $set: { 'address.city': 'Nice', n: 1 } },
        { address: { city: 'Nice', zip: '75001' }, n: 1 },
      ],
      ['$unset', { $unset: { address: '' } }, { address: undefined }],
      ['$inc', { $inc: { age: 2, visits: 1 } }, { age: 33, visits: 1 }],
      ['$mul', { $mul: { age: 2 } }, { age: 62 }],
      ['$min / $max', { $min: { age: 20 }, $max: { top: 5 } }, { age: 20, top: 5 }],
      ['$push', { $push: { tags: 'z' } }, { tags: ['a', 'b', 'z'] }],
      ['$push $each', { $push: { tags: { $each: ['y', 'z'] } } }, { tags: ['a', 'b', 'y', 'z'] }],
      ['$pull', { $pull: { tags: 'a' } }, { tags: ['b'] }],
      ['$pullAll', { $pullAll: { tags: ['a', 'b'] } }, { tags: [] }],
      ['$addToSet (present)', { $addToSet: { tags: 'a' } }, { tags: ['a', 'b'] }],
      ['$addToSet (new)', { $addToSet: { tags: 'c' } }, { tags: ['a', 'b', 'c'] }],
      ['$pop', { $pop: { tags: 1 } }, { tags: ['a'] }],
      ['$rename', { $rename: { name: 'fullName' } }, { name: undefined, fullName: 'Ann' }],
      ['$set of _id to the value it has', { $set: { _id: 'ann', n: 1 } }, { n: 1 }],
      [
        '$setOnInsert (ignored on update)',
        { $set: { x: 1 }, $setOnInsert: { created: true } },
        { x: 1, created: undefined },
      ],
    ])('%s', async (_title, update, changes) => {
      const original = (await people.findOne({ _id: 'ann' })) as Document;
      const updated = await people.findOneAndUpdate({ _id: 'ann' }, update, after);
      const expected = Object.fromEntries(
        Object.entries({ ...original, ...changes }).filter(([, value]) => value !== undefined),
      );
      expect(updated).toEqual(expected);
      expect(await people.findOne({ _id: 'ann' })).toEqual(expected);
    });

    it('$currentDate stores a Date', async () => {
      const updated = await people.findOneAndUpdate({ _id: 'bob' }, { $currentDate: { seen: true } }, after);
      expect(updated?.seen).toBeInstanceOf(Date);
    });

    it('returns the document before or after, with a projection', async () => {
      const old = await people.findOneAndUpdate(
        { _id: 'bob' },
        { $inc: { age: 1 } },
        { ...before, projection: { age: 1 } },
      );
      expect(old).toEqual({ _id: 'bob', age: 25 });
      const next = await people.findOneAndUpdate(
        { _id: 'bob' },
        { $inc: { age: 1 } },
        { ...after, projection: { age: 1, _id: 0 } },
      );
      expect(next).toEqual({ age: 27 });
    });

    it('returns null and changes nothing when no document matches', async () => {
      expect(await people.findOneAndUpdate({ _id: 'nobody' }, { $set: { a: 1 } }, after)).toBeNull();
      expect(await people.countDocuments({})).toBe(4);
    });

    it.each<[string, Document]>([
      ['an update without operators', { name: 'x' }],
      ['an unknown operator', { $frobnicate: { a: 1 } }],
      ['two operators on one path', { $set: { age: 1 }, $inc: { age: 1 } }],
      ['a change of _id', { $set: { _id: 'other' } }],
    ])('rejects %s and leaves the document as it was', async (_title, update) => {
      await expect(people.findOneAndUpdate({ _id: 'ann' }, update, after)).rejects.toThrow();
      expect((await people.findOne({ _id: 'ann' }))?.age).toBe(31);
    });
  });

  describe('upserts', () => {
    it('findOneAndUpdate inserts from the equality fields, $set and $setOnInsert', async () => {
      const doc = await people.findOneAndUpdate(
        { _id: 'new', kind: 'x', age: { $gt: 1 } },
        { $set: { n: 1 }, $setOnInsert: { created: true } },
        { ...after, upsert: true },
      );
      expect(doc).toEqual({ _id: 'new', kind: 'x', n: 1, created: true });
      expect(
        await people.findOneAndUpdate({ _id: 'new2' }, { $set: { n: 1 } }, { ...before, upsert: true }),
      ).toBeNull();
      expect(await people.findOne({ _id: 'new2' })).toEqual({ _id: 'new2', n: 1 });
    });

    it('generates an ObjectId when the filter does not pin _id', async () => {
      const doc = await people.findOneAndUpdate(
        { email: 'z@x.io' },
        { $inc: { count: 1 } },
        { ...after, upsert: true },
      );
      expect(doc?._id).toBeInstanceOf(ObjectId);
      expect(doc).toMatchObject({ email: 'z@x.io', count: 1 });
    });

    it('updateOne reports matched, modified and upserted counts', async () => {
      expect(await people.updateOne({ _id: 'ann' }, { $set: { age: 32 } })).toMatchObject({
        matchedCount: 1,
        modifiedCount: 1,
        upsertedCount: 0,
      });
      expect(await people.updateOne({ _id: 'ann' }, { $set: { age: 32 } })).toMatchObject({
        matchedCount: 1,
        modifiedCount: 0,
        upsertedCount: 0,
      });
      expect(await people.updateOne({ _id: 'zed' }, { $set: { age: 1 } })).toMatchObject({
        matchedCount: 0,
        modifiedCount: 0,
        upsertedCount: 0,
      });
      expect(await people.updateOne({ _id: 'zed' }, { $set: { age: 1 } }, { upsert: true })).toMatchObject({
        matchedCount: 0,
        modifiedCount: 0,
        upsertedCount: 1,
      });
      expect(await people.findOne({ _id: 'zed' })).toEqual({ _id: 'zed', age: 1 });
    });
  });

  describe('findOneAndReplace', () => {
    it('replaces the whole document and keeps its _id', async () => {
      const old = await people.findOneAndReplace({ _id: 'bob' }, { name: 'Robert' }, before);
      expect(old?.name).toBe('Bob');
      expect(await people.findOne({ _id: 'bob' })).toEqual({ _id: 'bob', name: 'Robert' });
      const same = await people.findOneAndReplace({ name: 'Robert' }, { _id: 'bob', name: 'Bobby' }, after);
      expect(same).toEqual({ _id: 'bob', name: 'Bobby' });
    });

    it('rejects a replacement that changes _id or holds operators', async () => {
      await expect(
        people.findOneAndReplace({ _id: 'bob' }, { _id: 'rob', name: 'x' }, after),
      ).rejects.toHaveProperty('code');
      await expect(
        people.findOneAndReplace({ _id: 'bob' }, { $set: { name: 'x' } }, after),
      ).rejects.toThrow();
      expect((await people.findOne({ _id: 'bob' }))?.name).toBe('Bob');
    });

    it('upserts with the _id of the filter', async () => {
      const doc = await people.findOneAndReplace({ _id: 'neo' }, { name: 'Neo' }, { ...after, upsert: true });
      expect(doc).toEqual({ _id: 'neo', name: 'Neo' });
      expect(await people.findOneAndReplace({ _id: 'nope' }, { a: 1 }, after)).toBeNull();
      expect(await people.findOne({ _id: 'nope' })).toBeNull();
    });
  });

  describe('deletes', () => {
    it('deleteOne removes one matching document', async () => {
      expect(await people.deleteOne({ tags: 'b' })).toMatchObject({ deletedCount: 1 });
      expect(await people.countDocuments({ tags: 'b' })).toBe(2);
      expect(await people.deleteOne({ _id: 'nobody' })).toMatchObject({ deletedCount: 0 });
    });

    it('deleteMany removes every matching document', async () => {
      expect(await people.deleteMany({ 'address.city': 'Paris' })).toMatchObject({ deletedCount: 2 });
      expect(ids(await people.find({}, { sort: { _id: 1 } }).toArray())).toEqual(['bob', 'dee']);
      expect(await people.deleteMany({})).toMatchObject({ deletedCount: 2 });
      expect(await people.countDocuments({})).toBe(0);
    });
  });
});
