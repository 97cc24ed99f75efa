/**
 * Filters compiled into predicates (fast-filter.ts) answer exactly as mingo's `Query` with the
 * engine's operators (`compileWithMingo`, the path every filter took before): on generated
 * documents and filters (fast-check), on each fidelity case's documents, and when a filter or
 * a document is one mingo refuses (the same error). Runs are bounded to keep the file fast.
 */
import type { Document } from '@store/common';
import { ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, compileWithMingo } from '../src/compile-filter';
import { fastFilter } from '../src/fast-filter';
import { CollectionIndexes } from '../src/indexes';
import { toStored } from '../src/values';
import { FIDELITY_CASES } from './fidelity/cases';
import { doc, filter } from './support/filter-arbitraries';

const NUM_RUNS = 5000;

type Outcome = { matched: boolean } | { error: string };

function outcome(run: () => boolean): Outcome {
  try {
    return { matched: run() };
  } catch (error) {
    return { error: `${(error as { codeName?: string }).codeName}: ${(error as Error).message}` };
  }
}

/** Each document's answer (or the compile error) by `compile`. */
function answersBy(
  compile: typeof compileFilter,
  f: Document,
  docs: readonly Document[],
  indexes: CollectionIndexes,
): Outcome | Outcome[] {
  let test: (doc: Document) => boolean;
  const compiled = outcome(() => {
    test = compile(f, indexes).test;
    return true;
  });
  return 'error' in compiled ? compiled : docs.map((d) => outcome(() => test(d)));
}

function expectSameAnswers(f: Document, docs: readonly Document[], indexes: CollectionIndexes): void {
  expect(answersBy(compileFilter, f, docs, indexes)).toEqual(answersBy(compileWithMingo, f, docs, indexes));
}

const indexes = new CollectionIndexes();
const { context } = compileFilter({}, indexes);
const takesCompiledPath = (f: Document): boolean => fastFilter(f, { context }) !== undefined;

describe('compiled filters', () => {
  it(`answer as mingo with the engine's operators on ${NUM_RUNS} generated filters (and their prototype-free copies), each over raw and stored documents`, () => {
    let compiledPath = 0;
    fc.assert(
      fc.property(filter, fc.array(doc, { minLength: 1, maxLength: 12 }), (f, docs) => {
        if (takesCompiledPath(f)) compiledPath += 1;
        expectSameAnswers(f, [...docs, ...docs.map(safeStored)], indexes);
        expectSameAnswers(prototypeFree(f) as Document, docs, indexes);
      }),
      { numRuns: NUM_RUNS },
    );
    // Nearly every generated filter is compiled; the rest are left to mingo on purpose.
    expect(compiledPath).toBeGreaterThan(NUM_RUNS * 0.9);
  });

  const finds = Object.values(FIDELITY_CASES)
    .flat()
    .flatMap((entry) => {
      const op = entry.op as { find?: Document; count?: Document; filter?: Document };
      const f = op.find ?? op.count ?? op.filter;
      return f ? [{ name: entry.name, f, docs: entry.docs.map(safeStored) }] : [];
    });

  it.each(finds)('answer as mingo on the fidelity case "$name"', ({ f, docs }) => {
    expectSameAnswers(f, docs, new CollectionIndexes());
  });

  const OID = new ObjectId('0123456789abcdef01234567');

  it.each([
    [
      '$populate children',
      { $or: [{ company_id: { $in: ['1', OID] } }, { company_ids: { $in: ['1', OID] } }] },
    ],
    [
      'an id lookup ANDed with an access filter',
      { $and: [{ _id: { $in: ['x', OID] } }, { owner: 'u1' }, {}] },
    ],
    ['scalar equality', { a: 1, b: null, c: OID, d: new Date(0) }],
    ['a range and a list', { n: { $gt: 500 }, tags: { $in: ['red', 'blue'] } }],
    ['a range', { n: { $gte: 5001 } }],
    ['a dotted regex', { 'a.b': { $regex: '^x', $options: 'i' } }],
    ['a keyset page', { $or: [{ n: { $gt: 3 } }, { n: 3, _id: { $gt: 7 } }, { n: { $type: ['string'] } }] }],
    ['$nor of $exists and $size', { $nor: [{ a: { $exists: false } }, { tags: { $size: 0 } }] }],
    ['$not of a regex', { name: { $not: /^a/i } }],
    [
      'a geo condition beside a range',
      { n: { $lt: 3 }, loc: { $geoWithin: { $centerSphere: [[0, 0], 1] } } },
    ],
  ])('compiles %s without mingo', (_name, f) => {
    expect(takesCompiledPath(f)).toBe(true);
  });

  it.each([
    ['$text', { $text: { $search: 'x' } }],
    ['$expr', { $expr: { $gt: ['$n', 1] } }],
    ['$where', { $where: 'true' }],
    ['$nearSphere', { loc: { $nearSphere: { $geometry: { type: 'Point', coordinates: [0, 0] } } } }],
    ['$near under $not', { loc: { $not: { $near: [0, 0] } } }],
    ['a non-array $or', { $or: { a: 1 } }],
    ['an unknown operator', { a: { $bogus: 1 } }],
    ['operators mixed with fields', { a: { $gt: 1, b: 2 } }],
    ['an invalid regex', { a: { $regex: '(' } }],
    ['an own __proto__ key', JSON.parse('{"__proto__": {"a": 1}}') as Document],
  ])('leaves %s to mingo', (_name, f) => {
    expect(takesCompiledPath(f)).toBe(false);
  });

  it('answers documents it does not walk itself (an array, a Map, a null prototype, an own __proto__) as mingo does', () => {
    const f = { length: 2, a: { $exists: false } };
    const odd = [
      [1, 2],
      new Map(),
      Object.create(null),
      JSON.parse('{"__proto__": {"length": 2}}'),
    ] as Document[];
    for (const d of odd) {
      expect(compileFilter(f, indexes).test(d)).toBe(compileWithMingo(f, indexes).test(d));
    }
  });
});

/** A copy of `value` with every plain object prototype-free, as `@store/query` builds filters. */
function prototypeFree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prototypeFree);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  const copy: Document = Object.create(null);
  for (const [key, inner] of Object.entries(value)) copy[key] = prototypeFree(inner);
  return copy;
}

/** `d` as the engine stores it, or `d` itself when it cannot be stored. */
function safeStored(d: Document): Document {
  try {
    return toStored(d);
  } catch {
    return d;
  }
}
