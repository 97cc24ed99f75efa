/**
 * Sorting in slices gives exactly what sorting in one go gives: the same documents in the same
 * order (ties in input order), whatever the values and wherever the work is cut. The work here
 * pauses at every look at the clock, so every case is cut in many places.
 */
import type { Document } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { readDocuments, readDocumentsInSlices } from '../src/read-documents';
import { sortDocuments } from '../src/sort-documents';
import { SORT_AT_ONCE, sortDocumentsInSlices, sortInSlices } from '../src/sort-in-slices';
import { Work } from '../src/work';
import { picker, prng } from './support/seeded-random';

/** Work that pauses every time it looks at the clock. */
const choppy = (): Work => new Work({}, () => undefined, 0);

describe('sorting in slices', () => {
  const random = prng(11);
  const pick = picker(random);
  const NUMBERS = [3, 1, 2, -0, 0, 1.5, -4, 7, 100];
  const STRINGS = ['b', 'a', 'B', '', 'é', 'a0', '10', '9', 'zz'];
  const OTHERS = [
    null,
    undefined,
    Number.NaN,
    [1, 2],
    [],
    new Date(5),
    new ObjectId('0123456789abcdef01234567'),
    true,
  ];
  const column = (): (() => unknown) => {
    const roll = random();
    if (roll < 0.35) return () => pick(NUMBERS);
    if (roll < 0.7) return () => pick(STRINGS);
    if (roll < 0.85) return () => (random() < 0.8 ? pick(STRINGS) : pick(OTHERS));
    return () => (random() < 0.8 ? pick(NUMBERS) : pick(OTHERS));
  };
  const cases = Array.from({ length: 12 }, (_, i) => {
    const [a, b] = [column(), column()];
    const docs: Document[] = Array.from(
      { length: SORT_AT_ONCE + 1 + Math.floor(random() * 2500) },
      (_, j) => ({
        _id: `${i}-${j}`,
        a: a(),
        nested: { b: b() },
      }),
    );
    const sort = pick<Record<string, 1 | -1>>([
      { a: pick([1, -1]) },
      { a: pick([1, -1]), 'nested.b': pick([1, -1]) },
      { _id: pick([1, -1]) },
      { 'nested.b': pick([1, -1]), _id: pick([1, -1]) },
    ]);
    return { docs, sort, count: pick([undefined, 10, 300, 2000]) };
  });

  it('orders generated documents, mixed and odd values included, as the one-go sort does', async () => {
    for (const { docs, sort, count } of cases) {
      const sliced = await sortDocumentsInSlices(docs, sort, count, choppy());
      expect({ sort, count, ids: sliced.map((doc) => doc._id) }).toEqual({
        sort,
        count,
        ids: sortDocuments(docs, sort, count).map((doc) => doc._id),
      });
    }
  });

  it('answers the same pages (sort, skip, limit, projection) as the one-go read', async () => {
    for (const { docs, sort } of cases.slice(0, 4)) {
      for (const options of [
        { sort, skip: 5, limit: 20 },
        { sort, limit: 0 },
        { sort, skip: 1000, limit: -300, projection: { a: 1 } },
        { skip: 3, limit: 400, projection: { nested: 0 } },
      ]) {
        expect(await readDocumentsInSlices(docs, undefined, options, choppy())).toEqual(
          readDocuments(docs, undefined, options),
        );
      }
    }
  });

  it('keeps equal items in input order, a difference that is not a number (Infinity - Infinity) counting as equal', async () => {
    // As distances: a document without a location is Infinity metres away.
    const items = Array.from({ length: 3000 }, (_, i) => ({
      i,
      metres: random() < 0.2 ? Number.POSITIVE_INFINITY : Math.floor(random() * 40),
    }));
    const nearer = (x: { metres: number }, y: { metres: number }) => x.metres - y.metres;
    const expected = items.slice().sort(nearer);
    expect(await sortInSlices(items.slice(), nearer, choppy())).toEqual(expected);
  });
});
