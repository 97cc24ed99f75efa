/**
 * `applyUpdateToAll` (updateMany's batches: one call of mingo's updater for many documents)
 * makes exactly the documents `applyUpdate` makes one at a time, and refuses what it refuses.
 */
import type { Document } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { applyUpdate, applyUpdateToAll, validateUpdate } from '../src/apply-update';
import { compileFilter } from '../src/compile-filter';
import { CollectionIndexes } from '../src/indexes';

const DOCS: Document[] = [
  { _id: 'a', n: 1, s: 'x', list: [1, 2, 3], sub: { k: 1 }, when: new Date(0) },
  { _id: 'b', n: 2.5, list: [], sub: { k: 2, j: [{ q: 1 }] } },
  { _id: new ObjectId('0123456789abcdef01234567'), s: 'y', list: [3, 3, 1], flags: 5 },
  { _id: 4, n: -3, sub: {}, tags: ['red', 'blue'] },
];

describe('applyUpdateToAll', () => {
  it.each<[string, Document]>([
    [
      '$set of new and existing fields, dotted paths included',
      { $set: { z: 1, n: 0, 'sub.k': 9, 'deep.er': true } },
    ],
    ['$unset', { $unset: { n: '', 'sub.k': '' } }],
    ['$inc and $mul', { $inc: { n: 2, m: 1 }, $mul: { flags: 3 } }],
    ['$min and $max', { $min: { n: 0 }, $max: { s: 'm' } }],
    ['$rename', { $rename: { s: 'renamed' } }],
    ['$push with $each, $sort and $slice', { $push: { list: { $each: [5, 0], $sort: 1, $slice: 3 } } }],
    ['$addToSet, $pull and $pop', { $addToSet: { tags: 'green' }, $pull: { list: 3 }, $pop: { 'sub.j': 1 } }],
    ['$setOnInsert (ignored on an update)', { $setOnInsert: { born: 1 }, $set: { x: 1 } }],
    ['$set of _id to itself (one document at a time)', { $set: { _id: 'a', y: 2 } }],
  ])('makes what applyUpdate makes, one by one: %s', (_name, update) => {
    validateUpdate(update);
    const compiled = compileFilter({}, new CollectionIndexes());
    const docs =
      update.$set && '_id' in (update.$set as Document) ? DOCS.slice(0, 1).concat(DOCS[0] as Document) : DOCS;
    const each = docs.map((doc) => applyUpdate(doc, update, compiled, false));
    expect(applyUpdateToAll(docs, update, compiled)).toEqual(each);
  });

  it('refuses, as one at a time does, a path no document of the batch can hold (PathNotViable)', () => {
    const update = { $set: { 's.inner': 1 } };
    const compiled = compileFilter({}, new CollectionIndexes());
    expect(() => applyUpdate(DOCS[0] as Document, update, compiled, false)).toThrow(
      expect.objectContaining({ codeName: 'PathNotViable' }),
    );
    expect(() => applyUpdateToAll(DOCS, update, compiled)).toThrow(
      expect.objectContaining({ codeName: 'PathNotViable' }),
    );
  });

  it('leaves the documents it is given unchanged', () => {
    const docs = structuredClone(DOCS);
    applyUpdateToAll(
      docs,
      { $set: { n: 0 }, $push: { list: 9 } },
      compileFilter({}, new CollectionIndexes()),
    );
    expect(docs).toEqual(DOCS);
  });
});
