/**
 * A sorted page found by a scan that keeps only the first documents as it goes is the page the
 * whole sort gives: over generated documents with arrays, empty arrays, nulls, missing and nested
 * fields, mixed types and ties, any sort of one to three keys (dotted too), any skip and limit,
 * and under a collation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmbeddedDb } from '../src/index';

const value = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('a', 'B', 'b', 'é', ''),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 3 }),
  fc.record({ x: fc.integer({ min: -2, max: 2 }) }),
  fc.array(fc.record({ x: fc.integer({ min: -2, max: 2 }) }), { maxLength: 2 }),
);
const doc = fc.record({ a: value, b: value, c: value }, { requiredKeys: [] });
const field = fc.constantFrom('a', 'b', 'c', 'a.x', 'b.x', '_id');
const sort = fc
  .uniqueArray(fc.tuple(field, fc.constantFrom(1 as const, -1 as const)), {
    minLength: 1,
    maxLength: 3,
    selector: ([name]) => name,
  })
  .map((keys) => Object.fromEntries(keys));

describe('a sorted page kept as the scan goes', () => {
  it('is the page of the whole sort', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(doc, { minLength: 0, maxLength: 60 }),
        sort,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        async (docs, order, skip, limit, collated) => {
          const db = createEmbeddedDb();
          const items = db.collection('items');
          if (docs.length > 0) await items.insertMany(docs.map((each, i) => ({ _id: i, ...each })));
          const collation = collated ? { collation: { locale: 'en', strength: 2 as const } } : {};
          const whole = await items.find({}, { sort: order, ...collation }).toArray();
          const page = await items.find({}, { sort: order, skip, limit, ...collation }).toArray();
          expect(page).toEqual(whole.slice(skip, skip + limit));
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
