import type { Document, StoreCollection } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { ObjectId } from 'bson';
import { beforeEach, expect, it } from 'vitest';

/** A document whose fields cannot hold a sub-field (`tags` can, but only by numeric index). */
const STORED: Document = {
  _id: 'doc',
  count: 3,
  title: 'Hello',
  done: false,
  at: new Date('2024-01-02T03:04:05Z'),
  ref: new ObjectId('0123456789abcdef01234567'),
  tags: ['a', 'b'],
  nested: { depth: 1 },
  empty: null,
  untouched: 'yes',
};

const THROUGH_A_VALUE_THAT_CANNOT_HOLD_A_FIELD: Array<[string, string]> = [
  ['a number', 'count.b'],
  ['a string', 'title.b'],
  ['a boolean', 'done.b'],
  ['a date', 'at.b'],
  ['an ObjectId', 'ref.b'],
  ['a scalar two levels down', 'nested.depth.b'],
  ['a scalar, creating two levels under it', 'count.b.c'],
  ['an array, by a non-numeric segment', 'tags.b'],
  ['null', 'empty.b'],
];

describeEngines('$set through a value that cannot hold a field (PathNotViable)', (engine) => {
  let docs: StoreCollection;
  beforeEach(async () => {
    docs = (await engine.createDb()).collection('docs');
    await docs.insertOne({ ...STORED });
  });

  it.each(THROUGH_A_VALUE_THAT_CANNOT_HOLD_A_FIELD)(
    'updateOne through %s (%s) fails with code 28 and leaves the document unchanged',
    async (_what, path) => {
      const update = { $set: { [path]: 1, untouched: 'changed' } };
      await expect(docs.updateOne({ _id: 'doc' }, update)).rejects.toMatchObject({ code: 28 });
      expect(await docs.findOne({ _id: 'doc' })).toEqual(STORED);
    },
  );

  it.each(THROUGH_A_VALUE_THAT_CANNOT_HOLD_A_FIELD)(
    'findOneAndUpdate through %s (%s) fails with code 28 and leaves the document unchanged',
    async (_what, path) => {
      const update = { $set: { [path]: 1, untouched: 'changed' } };
      const options = { returnDocument: 'after' } as const;
      await expect(docs.findOneAndUpdate({ _id: 'doc' }, update, options)).rejects.toMatchObject({
        code: 28,
      });
      expect(await docs.findOne({ _id: 'doc' })).toEqual(STORED);
    },
  );

  it('still sets a sub-field of a sub-document and an array element by index', async () => {
    await docs.updateOne({ _id: 'doc' }, { $set: { 'nested.b': 2, 'tags.1': 'z' } });
    expect(await docs.findOne({ _id: 'doc' })).toEqual({
      ...STORED,
      nested: { depth: 1, b: 2 },
      tags: ['a', 'z'],
    });
  });
});
