/**
 * An ordered index built in one go (a durable database's open, a new index) sorts with a
 * comparator chosen for the values when they are all of one kind: it orders them exactly as
 * MongoDB's BSON order does, ties in insertion order, whatever the values.
 */
import type { Document } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { compareValues } from '../src/bson-order';
import { OrderedIndex } from '../src/ordered-index';
import { entriesOf } from './support/index-entries';

/** A small seeded generator (mulberry32): every run tests the same cases. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const next = random(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const STRINGS = ['a', 'b', 'ab', 'B', 'é', '', 'z', '\u{1F600}', '\uE000', '\uFFFD', 'a\u{10000}', 'a\uFFFF'];
const KINDS: Record<string, () => unknown> = {
  'ASCII strings': () => pick(['a', 'b', 'ab', 'B', '', 'item-1', 'item-10', 'item-2']),
  'strings beyond the BMP and above U+E000': () => pick(STRINGS),
  numbers: () => pick([0, -0, 1, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, -1e300, 3]),
  dates: () => new Date(pick([0, 1, -5, 1e12, Number.NaN])),
  ObjectIds: () =>
    new ObjectId(
      pick([
        '65a000000000000000000001',
        '65a0000000000000000000ff',
        '00ff00000000000000000000',
        'ff0000000000000000000000',
      ]),
    ),
  'mixed kinds': () =>
    pick([1, 'a', new Date(3), null, true, new ObjectId('65a000000000000000000001'), '\u{1F600}']),
};

/** The index's entries as (value, insertion sequence), in its order. */
const orderOf = (index: OrderedIndex) => entriesOf(index).map(({ value, seq }) => [value, seq]);

describe('an ordered index built in one go', () => {
  it.each(Object.keys(KINDS))('orders %s as BSON order, ties by insertion', (kind) => {
    const make = KINDS[kind] as () => unknown;
    const docs: Array<[string, Document]> = Array.from({ length: 400 }, (_, i) => [`k${i}`, { v: make() }]);
    const seq = new Map(docs.map(([key], i) => [key, i]));
    const index = new OrderedIndex('v', docs, (key) => seq.get(key) ?? 0);
    const expected = docs
      .map(([key, doc]) => [doc.v, seq.get(key) as number] as const)
      .sort(([a, i], [b, j]) => compareValues(a, b) || i - j);
    expect(orderOf(index)).toEqual(expected);
  });

  it('keeps values already in order as they are', () => {
    const docs: Array<[string, Document]> = Array.from({ length: 100 }, (_, i) => [
      `k${i}`,
      { v: i % 10 === 0 ? i - 1 : i },
    ]);
    const index = new OrderedIndex('v', docs, (key) => Number(key.slice(1)));
    const expected = docs
      .map(([, doc], i) => [doc.v, i])
      .sort(([a, i], [b, j]) => compareValues(a, b) || (i as number) - (j as number));
    expect(orderOf(index)).toEqual(expected);
  });
});
