/**
 * `idKey` keys a document by its `_id`'s type and value: a string is its own key unless it
 * could be read as another type's key, and two `_id`s share a key exactly when MongoDB holds
 * them equal.
 */
import { createEmbeddedDb } from '@store/embedded';
import { ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idKey } from '../src/values';

const PREFIXES = ['n:', 'b:', 'o:', 'd:', 'x:', 's:', 's:s:', 'null', 'nul', 'n', ':'];

const anId = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.tuple(fc.constantFrom(...PREFIXES), fc.string({ maxLength: 4 })).map(([prefix, rest]) => prefix + rest),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, -0, 1.5, true, false, null, new ObjectId('64b7f0c2a1b2c3d4e5f60718'), new Date(0)),
  fc.record({ a: fc.integer({ min: 0, max: 2 }) }, { noNullPrototype: true }),
);

/** Equal as `_id`s: the same type and value (-0 and 0 alike). */
const sameId = (a: unknown, b: unknown): boolean =>
  typeof a === typeof b &&
  (a instanceof ObjectId ||
  b instanceof ObjectId ||
  a instanceof Date ||
  b instanceof Date ||
  typeof a === 'object'
    ? JSON.stringify(a) === JSON.stringify(b) && a?.constructor === b?.constructor
    : a === b);

describe('idKey', () => {
  it('gives two _ids one key exactly when they are equal', () => {
    fc.assert(
      fc.property(anId, anId, (a, b) => {
        expect(idKey(a) === idKey(b)).toBe(sameId(a, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('is the string itself for a string that reads as no other key', () => {
    expect(idKey('post-1')).toBe('post-1');
    expect(idKey('n:1')).not.toBe(idKey(1));
    expect(idKey('null')).not.toBe(idKey(null));
  });

  it('keeps documents whose string _ids look like other keys apart in a collection', async () => {
    const db = createEmbeddedDb();
    const items = db.collection('items');
    const ids = [
      'n:1',
      1,
      'null',
      null,
      's:n:1',
      'b:true',
      true,
      'o:64b7f0c2a1b2c3d4e5f60718',
      new ObjectId('64b7f0c2a1b2c3d4e5f60718'),
    ];
    await items.insertMany(ids.map((_id, n) => ({ _id, n })));
    for (const [n, _id] of ids.entries()) expect(await items.findOne({ _id })).toEqual({ _id, n });
    expect(await items.countDocuments({})).toBe(ids.length);
  });
});
