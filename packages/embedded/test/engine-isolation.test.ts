import type { Document, StoreCollection } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { ObjectId } from 'bson';
import { beforeEach, expect, it } from 'vitest';
import { ids } from './fixtures';

describeEngines('ids, copies and concurrency', (engine) => {
  let things: StoreCollection;
  beforeEach(async () => {
    things = (await engine.createDb()).collection('things');
  });

  it('keeps the string "1", the number 1, an ObjectId and its hex string apart', async () => {
    const oid = new ObjectId();
    for (const _id of ['1', 1, oid, oid.toHexString()]) await things.insertOne({ _id, kind: typeof _id });
    expect(await things.countDocuments({})).toBe(4);
    expect((await things.findOne({ _id: '1' }))?.kind).toBe('string');
    expect((await things.findOne({ _id: 1 }))?.kind).toBe('number');
    expect((await things.findOne({ _id: new ObjectId(oid.toHexString()) }))?._id).toBeInstanceOf(ObjectId);
    expect((await things.findOne({ _id: oid.toHexString() }))?._id).toBe(oid.toHexString());
    const both = await things.find({ _id: { $in: ['1', 1] } }).toArray();
    expect(both.map((doc) => doc.kind).sort()).toEqual(['number', 'string']);
    await things.deleteOne({ _id: 1 });
    expect(ids(await things.find({ _id: { $in: ['1', 1] } }).toArray())).toEqual(['1']);
  });

  it('looks _id up by key: other documents are never evaluated', async () => {
    await things.insertOne({ _id: 'poison', n: 0 });
    for (const _id of ['a', 'b']) await things.insertOne({ _id, n: 1 });
    const dividesByN = { $expr: { $gt: [{ $divide: [1, '$n'] }, 0] } };
    await expect(things.find(dividesByN).toArray()).rejects.toThrow();
    const found = await things
      .find({ _id: { $in: ['b', 'a'] }, ...dividesByN }, { sort: { _id: 1 } })
      .toArray();
    expect(ids(found)).toEqual(['a', 'b']);
    expect(
      await things.findOneAndUpdate(
        { $and: [{ _id: 'b' }, dividesByN] },
        { $set: { m: 1 } },
        { returnDocument: 'after' },
      ),
    ).toEqual({ _id: 'b', n: 1, m: 1 });
  });

  it('never lets a caller mutate stored state, on the way in or out', async () => {
    const input: Document = { _id: 'a', list: [1, { deep: true }], when: new Date(0) };
    await things.insertOne(input);
    (input.list as unknown[]).push(2);
    (input.when as Date).setTime(5);
    const out = (await things.findOne({ _id: 'a' })) as Document;
    expect(out).toEqual({ _id: 'a', list: [1, { deep: true }], when: new Date(0) });
    (out.list as Document[]).pop();
    (out.when as Date).setTime(9);
    const listed = await things.find({}).toArray();
    (listed[0] as Document).extra = 1;
    const update = { $set: { obj: { inner: [1] } } };
    const updated = (await things.findOneAndUpdate({ _id: 'a' }, update, {
      returnDocument: 'after',
    })) as Document;
    update.$set.obj.inner.push(2);
    (updated.obj as Document).inner = 'changed';
    expect(await things.findOne({ _id: 'a' })).toEqual({
      _id: 'a',
      list: [1, { deep: true }],
      when: new Date(0),
      obj: { inner: [1] },
    });
  });

  it('does not mutate the filters and updates it is given', async () => {
    await things.insertOne({ _id: 'n', name: 'no id' });
    const update = { $set: { seen: [1] } };
    await things.updateOne({ _id: 'n' }, update);
    expect(update).toEqual({ $set: { seen: [1] } });
    const filter = { name: { $in: ['no id'] } };
    await things.find(filter).toArray();
    expect(filter).toEqual({ name: { $in: ['no id'] } });
  });

  it('lets exactly one of two parallel conditional updates win', async () => {
    await things.insertOne({ _id: 'token', used: false });
    const claim = () =>
      things.findOneAndUpdate(
        { _id: 'token', used: false },
        { $set: { used: true } },
        { returnDocument: 'after' },
      );
    const results = await Promise.all([claim(), claim(), claim()]);
    expect(results.filter((doc) => doc !== null)).toEqual([{ _id: 'token', used: true }]);
  });

  it('lets exactly one of two parallel inserts of one _id succeed', async () => {
    const outcomes = await Promise.allSettled([
      things.insertOne({ _id: 'x' }),
      things.insertOne({ _id: 'x' }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 11000 },
    });
  });

  it('counts every parallel $inc', async () => {
    await things.insertOne({ _id: 'counter', n: 0 });
    await Promise.all(
      Array.from({ length: 20 }, () => things.updateOne({ _id: 'counter' }, { $inc: { n: 1 } })),
    );
    expect((await things.findOne({ _id: 'counter' }))?.n).toBe(20);
  });
});
