/**
 * The top-level update path (`$set`, `$unset`, `$inc` of top-level fields, applied without
 * mingo's updater) makes exactly the document mingo's updater makes, field order included, on
 * generated documents and updates; and an update it does not take (a dotted path, another
 * operator, `$inc` of a string) still goes through mingo as before.
 */
import type { Document } from '@store/common';
import fc from 'fast-check';
import { update as mingoUpdate } from 'mingo/updater';
import { describe, expect, it } from 'vitest';
import { applyUpdate, validateUpdate } from '../src/apply-update';
import { compileFilter } from '../src/compile-filter';
import { EmbeddedDbError } from '../src/errors';
import { CollectionIndexes } from '../src/indexes';
import { cloneValue, toStored } from '../src/values';

const FIELDS = ['a', 'b', 'c', 'n', 'zz'];
const value = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('x', 'y'), fc.integer(), { maxKeys: 2 }),
);
const documents = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 5 }).map((fields) => ({
  _id: 1,
  ...fields,
}));
/** An update of distinct top-level fields, each under one operator (as validateUpdate requires). */
const updates = fc
  .uniqueArray(
    fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom('$set', '$unset', '$inc'), value, fc.integer()),
    { selector: ([field]) => field, minLength: 1, maxLength: 4 },
  )
  .map((entries) => {
    const update: Record<string, Document> = {};
    for (const [field, operator, setTo, by] of entries) {
      update[operator] ??= {};
      (update[operator] as Document)[field] = operator === '$set' ? setTo : operator === '$inc' ? by : '';
    }
    return update;
  });

const compiled = compileFilter({}, new CollectionIndexes());

/**
 * What mingo's updater makes of `doc` (its error, if it refuses), each operator's paths given in
 * lexicographic order, the order MongoDB applies them in (as the engine gives them to mingo).
 */
function byMingo(doc: Document, update: Record<string, Document>): Document | Error {
  const target = cloneValue(doc);
  const ordered: Record<string, Document> = {};
  for (const [operator, operand] of Object.entries(update)) {
    ordered[operator] = Object.fromEntries(Object.entries(operand).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  try {
    mingoUpdate(target, ordered, [], {}, { cloneMode: 'deep' });
    return toStored(target);
  } catch (error) {
    return error as Error;
  }
}

describe('the top-level update path', () => {
  it('makes what mingo makes, field order included', () => {
    fc.assert(
      fc.property(documents, updates, (doc, update) => {
        validateUpdate(update);
        const stored = toStored(doc);
        // $inc of a non-number goes through mingo, which (a known difference) leaves it as it is.
        const expected = byMingo(stored, update);
        if (expected instanceof Error) return;
        const made = applyUpdate(stored, update, compiled, false);
        expect(made).toEqual(expected);
        expect(Object.keys(made)).toEqual(Object.keys(expected));
      }),
      { numRuns: 2000, seed: 20261127 },
    );
  });

  it('leaves dotted paths and other operators to mingo', () => {
    const doc = toStored({ _id: 1, sub: { k: 1 }, list: [3, 1] });
    expect(applyUpdate(doc, { $set: { 'sub.k': 2 } }, compiled, false)).toEqual({
      _id: 1,
      sub: { k: 2 },
      list: [3, 1],
    });
    expect(applyUpdate(doc, { $push: { list: 2 } }, compiled, false)).toEqual({
      _id: 1,
      sub: { k: 1 },
      list: [3, 1, 2],
    });
    expect(() => applyUpdate(doc, { $set: { _id: 2 } }, compiled, false)).toThrow(EmbeddedDbError);
  });
});
