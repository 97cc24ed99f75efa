import { describe, expect, it } from 'vitest';
import { StoreIds } from '../src/store-id';

/** The own members of `doc`, in order (a member named __proto__ included). */
const members = (doc: Record<string, unknown>) => Object.keys(doc).map((key) => [key, doc[key]]);

/** The members of `doc` with `id` renamed `_id`, first (as JavaScript orders keys: integer ones first). */
function expected(doc: Record<string, unknown>) {
  const renamed: Record<string, unknown> = { _id: doc.id };
  for (const key of Object.keys(doc)) {
    if (key !== 'id') Object.defineProperty(renamed, key, { value: doc[key], enumerable: true });
  }
  return members(renamed);
}

describe('StoreIds', () => {
  it.each([
    ['plain names', '{"id":1,"title":"t","n":2}'],
    ['id last', '{"title":"t","id":"x"}'],
    ['keys needing escapes in a literal', '{"id":1,"a\\"b":1,"c\\\\d":2,"e\\u2028f":3,"":4,"0":5}'],
    ['a key holding a NUL', '{"id":1,"a\\u0000b":1}'],
    ['a member named __proto__', '{"id":1,"__proto__":{"a":1}}'],
  ])('renames id to _id, first, keeping every other member: %s', (_, text) => {
    const ids = new StoreIds();
    // The same shape three times: the first copies may differ in how they are made from the rest.
    for (let round = 0; round < 3; round++) {
      const doc = JSON.parse(text) as Record<string, unknown>;
      const stored = ids.of(doc);
      expect(members(stored)).toEqual(expected(doc));
      expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    }
  });

  it('tells shapes apart whose keys joined by NULs are the same', () => {
    const ids = new StoreIds();
    const first = JSON.parse('{"id":1,"a\\u0000b":1}') as Record<string, unknown>;
    const second = JSON.parse('{"id":2,"a":1,"b":2}') as Record<string, unknown>;
    for (const doc of [first, second, first, second]) expect(members(ids.of(doc))).toEqual(expected(doc));
  });

  it('copies documents of many shapes, alternating, each as its own', () => {
    const ids = new StoreIds();
    const docs = Array.from({ length: 300 }, (_, i) => ({ id: i, [`k${i % 150}`]: i, [`m${i % 7}`]: 'x' }));
    for (const doc of [...docs, ...docs]) expect(members(ids.of(doc))).toEqual(expected(doc));
  });

  it('keeps a document with an _id, or without an id, itself', () => {
    const ids = new StoreIds();
    const withBoth = { _id: 1, id: 2 };
    const withNeither = { title: 't' };
    expect(ids.of(withBoth)).toBe(withBoth);
    expect(ids.of(withNeither)).toBe(withNeither);
  });
});
