/**
 * `readDocuments()` pages without mingo's cursor when it can (no projection; a sort on keys
 * holding only strings or only numbers): the same documents, in the same order, as the
 * cursor gave, and still fresh copies.
 */

import type { Document } from '@store/common';
import { MinKey, ObjectId } from 'bson';
import { find as mingoFind } from 'mingo';
import { describe, expect, it } from 'vitest';
import { compareValues } from '../src/bson-order';
import { readDocuments } from '../src/read-documents';
import { picker, prng } from './support/seeded-random';

const DOCS: Document[] = Array.from({ length: 7 }, (_, i) => ({ _id: `d${i}`, n: i % 3, nested: { i } }));

/** What the cursor answered for the same options (the previous implementation). */
function throughCursor(
  skip: number,
  limit: number,
  projection: Document | undefined,
  sort?: Record<string, 1 | -1>,
  docs: Document[] = DOCS,
): Document[] {
  const cursor = mingoFind(docs, {}, projection ?? {}, { scriptEnabled: false });
  if (sort) cursor.sort(sort);
  if (skip > 0) cursor.skip(skip);
  if (limit !== 0) cursor.limit(Math.abs(limit));
  return cursor.all();
}

describe('readDocuments without sort or projection', () => {
  const skips = [0, 1, 3, 6, 7, 20];
  const limits = [0, 1, 2, 5, 10, -2];
  const cases = skips.flatMap((skip) =>
    limits.flatMap((limit) => [undefined, {}].map((projection) => ({ skip, limit, projection }))),
  );

  it.each(cases)('skip $skip, limit $limit, projection $projection', ({ skip, limit, projection }) => {
    const page = readDocuments(DOCS, undefined, { skip, limit, projection });
    expect(page).toEqual(throughCursor(skip, limit, projection));
  });

  it('returns copies the caller cannot use to reach the stored documents', () => {
    const [first] = readDocuments(DOCS, undefined, { limit: 1 });
    expect(first).toEqual(DOCS[0]);
    expect(first).not.toBe(DOCS[0]);
    expect(first?.nested).not.toBe(DOCS[0]?.nested);
  });

  it.each([
    ['a negative skip', { skip: -1 }],
    ['a fractional limit', { limit: 1.5 }],
  ])('still rejects %s', (_title, options) => {
    expect(() => readDocuments(DOCS, undefined, options)).toThrow(/must be/);
  });
});

describe('readDocuments with a sort', () => {
  const random = prng(7);
  const pick = picker(random);
  const NUMBERS = [3, 1, 2, -0, 0, 1.5, -4];
  const STRINGS = ['b', 'a', 'B', '', 'é', 'a0', '10', '9'];
  const OTHERS = [
    null,
    undefined,
    Number.NaN,
    [1, 2],
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
  const cases = Array.from({ length: 600 }, (_, i) => {
    const [a, b] = [column(), column()];
    const docs = Array.from({ length: 1 + Math.floor(random() * (i % 2 === 0 ? 12 : 80)) }, (_, j) => ({
      _id: `${i}-${j}`,
      a: a(),
      b: b(),
    }));
    const sort = pick<Record<string, 1 | -1>>([
      { a: pick([1, -1]) },
      { a: pick([1, -1]), b: pick([1, -1]) },
      { _id: pick([1, -1]) },
      { _id: pick([1, -1]), a: 1 },
      { a: pick([1, -1]), _id: pick([1, -1]) },
    ]);
    const projection = random() < 0.2 ? { a: 1 } : undefined;
    return { docs, sort, projection, skip: pick([0, 0, 2]), limit: pick([0, 3, -2]) };
  });

  /**
   * A top-level field's sort key as MongoDB defines it, written out plainly: missing is null, an
   * empty array sorts below null (MinKey stands in), any other array by its smallest element
   * ascending and its largest descending.
   */
  const sortKeyOf = (doc: Document, field: string, direction: 1 | -1): unknown => {
    const value = doc[field] ?? null;
    if (!Array.isArray(value)) return value;
    if (value.length === 0) return new MinKey();
    return value.reduce((best, item) => (compareValues(item, best) * direction < 0 ? item : best));
  };

  /** A plain stable sort on those keys in BSON order, then the page: what every fast path must reproduce. */
  const reference = (
    docs: Document[],
    sort: Record<string, 1 | -1>,
    skip: number,
    limit: number,
    projection?: Document,
  ) => {
    const fields = Object.entries(sort) as Array<[string, 1 | -1]>;
    const sorted = docs
      .map((doc, at) => ({ doc, at }))
      .sort((x, y) => {
        for (const [field, direction] of fields) {
          const sign = compareValues(sortKeyOf(x.doc, field, direction), sortKeyOf(y.doc, field, direction));
          if (sign !== 0) return sign * direction;
        }
        return x.at - y.at;
      })
      .map(({ doc }) => doc);
    return throughCursor(skip, limit, projection, undefined, sorted);
  };

  it('orders 600 generated pages as the BSON-order sort does, mixed and odd values included', () => {
    for (const { docs, sort, projection, skip, limit } of cases) {
      const expected = reference(docs, sort, skip, limit, projection);
      expect({ sort, docs, page: readDocuments(docs, undefined, { sort, skip, limit, projection }) }).toEqual(
        {
          sort,
          docs,
          page: expected,
        },
      );
    }
  });
});
