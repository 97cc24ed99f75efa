/**
 * `findWithCount` answers the page `find` answers and, when it tells a count, the count
 * `countDocuments` gives for the filter: over generated documents (mixed types, arrays, nulls,
 * missing fields), filters, sorts, skips and limits, with and without an index on the filtered
 * field and under a collation. A sorted page found by a scan always tells it (the scan tested
 * every document); a page walked from an index, or one that stopped once full, leaves it to the
 * caller.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmbeddedDb } from '../src/index';

const value = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('a', 'B', 'b', 'é', ''),
  fc.constant(null),
  fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 3 }),
);
const doc = fc.record({ a: value, b: value }, { requiredKeys: [] });
const filter = fc.oneof(
  fc.constant({}),
  fc.record({ a: value }),
  fc.record({ a: fc.record({ $gte: fc.integer({ min: -3, max: 3 }) }) }),
  fc.record({ b: fc.record({ $in: fc.array(value, { maxLength: 3 }) }) }),
  fc.record({ $or: fc.tuple(fc.record({ a: value }), fc.record({ b: value })) }),
);
const sort = fc.option(
  fc.constantFrom<Record<string, 1 | -1>>({ a: 1 }, { b: -1 }, { a: -1, b: 1 }, { _id: -1 }),
  { nil: undefined },
);

describe('findWithCount', () => {
  it('answers the page of find, and the count of countDocuments when it tells one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(doc, { maxLength: 80 }),
        filter,
        sort,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        fc.boolean(),
        async (docs, query, order, skip, limit, indexed, collated) => {
          const db = createEmbeddedDb();
          const items = db.collection('items');
          if (indexed) await items.createIndex({ a: 1 });
          if (docs.length > 0) await items.insertMany(docs.map((each, i) => ({ _id: i, ...each })));
          const collation = collated ? { collation: { locale: 'en', strength: 2 as const } } : {};
          const options = { ...(order === undefined ? {} : { sort: order }), skip, limit, ...collation };
          const { documents, count } = await items.findWithCount(query, options);
          expect(documents).toEqual(await items.find(query, options).toArray());
          if (count !== undefined) expect(count).toBe(await items.countDocuments(query, collation));
        },
      ),
      { numRuns: 400, seed: 7 },
    );
  });

  it('tells the count of a sorted page found by a scan and of a page that did not fill, not of one walked from an index', async () => {
    const db = createEmbeddedDb();
    const items = db.collection('items');
    await items.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, n: i % 100, tag: i % 3 })));
    const sorted = await items.findWithCount({ tag: 1 }, { sort: { n: -1 }, limit: 20 });
    expect(sorted.documents).toEqual(await items.find({ tag: 1 }, { sort: { n: -1 }, limit: 20 }).toArray());
    expect(sorted.count).toBe(667);
    const short = await items.findWithCount({ n: 5, tag: 2 }, { limit: 50 });
    expect([short.documents.length, short.count]).toEqual([7, 7]);
    const full = await items.findWithCount({ tag: 2 }, { limit: 50 });
    expect([full.documents.length, full.count]).toEqual([50, undefined]);
    await items.createIndex({ n: 1 });
    const walked = await items.findWithCount({}, { sort: { n: -1 }, limit: 20 });
    expect([walked.documents.length, walked.count]).toEqual([20, undefined]);
  });

  it('refuses the options find refuses', async () => {
    const items = createEmbeddedDb().collection('items');
    await expect(items.findWithCount({}, { bogus: 1 } as never)).rejects.toMatchObject({ code: 238 });
  });
});
