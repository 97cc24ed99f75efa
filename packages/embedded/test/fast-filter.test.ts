/**
 * Filters compiled without mingo (`$and` / `$or` of `$in`, `$nin` and scalar equality) answer
 * exactly as mingo's `Query` did, on generated filters and documents; other shapes are left
 * to mingo.
 */

import type { Document } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../src/compile-filter';
import { fastFilter } from '../src/fast-filter';
import { CollectionIndexes } from '../src/indexes';
import { picker, prng } from './support/seeded-random';
import { stockTest } from './support/stock-mingo';

const OID = new ObjectId('0123456789abcdef01234567');
const SCALARS: readonly unknown[] = ['a', '1', '', 1, 0, -0, Number.NaN, true, false, null, OID, new Date(0)];
const FIELDS = ['a', 'b', 'a.b', 'a.0'] as const;

function generators(random: () => number) {
  const pick = picker(random);
  const list = () => Array.from({ length: Math.floor(random() * 4) }, () => pick(SCALARS));
  const value = (depth: number): unknown => {
    const roll = random();
    if (depth > 1 || roll < 0.5) return pick(SCALARS);
    if (roll < 0.7) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
    if (roll < 0.9) return { b: value(depth + 1) };
    return [{ b: value(depth + 1) }, { b: value(depth + 1) }];
  };
  const condition = (): unknown => {
    const roll = random();
    if (roll < 0.3) return pick(SCALARS);
    if (roll < 0.45) return { $eq: pick(SCALARS) };
    if (roll < 0.7) return { $in: list() };
    if (roll < 0.85) return { $nin: list() };
    return { $in: list(), $nin: list() };
  };
  const filter = (depth: number): Document => {
    const out: Document = {};
    for (let i = Math.floor(random() * 3); i > 0; i--) {
      const roll = random();
      if (depth < 2 && roll < 0.15)
        out.$and = Array.from({ length: Math.floor(random() * 3) }, () => filter(depth + 1));
      else if (depth < 2 && roll < 0.3)
        out.$or = Array.from({ length: Math.floor(random() * 3) }, () => filter(depth + 1));
      else out[pick(FIELDS)] = condition();
    }
    return out;
  };
  const doc = (): Document => {
    const out: Document = { _id: 1 };
    if (random() < 0.8) out.a = value(0);
    if (random() < 0.5) out.b = value(0);
    return out;
  };
  return { filter, doc };
}

describe('filters compiled without mingo', () => {
  it('answer like mingo on 8,000 generated filters and documents', () => {
    const { filter, doc } = generators(prng(99));
    const indexes = new CollectionIndexes();
    let fast = 0;
    for (let i = 0; i < 8000; i++) {
      const [f, d] = [filter(0), doc()];
      // Only the filters the fast path takes: others go through the engine's own comparison
      // operators, which leave mingo where it answers unlike MongoDB (fidelity/ pins those).
      if (!fastFilter(f)) continue;
      fast += 1;
      const expected = stockTest(f, d);
      const actual = compileFilter(f, indexes).test(d);
      if (actual !== expected) expect({ f, d, actual }).toEqual({ f, d, actual: expected });
    }
    expect(fast).toBeGreaterThan(4000);
  });

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
  ])('handles %s', (_title, filter) => {
    expect(fastFilter(filter)).toBeTypeOf('function');
  });

  it.each([
    ['a range', { a: { $gt: 1 } }],
    ['a dotted equality', { 'a.b': 1 }],
    ['a regex', { a: /x/ }],
    ['sub-document equality', { a: { b: 1 } }],
    ['$nor', { $nor: [{ a: 1 }] }],
    ['$text', { $text: { $search: 'x' } }],
    ['a non-array $or', { $or: { a: 1 } }],
    ['an $in of sub-documents', { a: { $in: [{ b: 1 }] } }],
  ])('leaves %s to mingo', (_title, filter) => {
    expect(fastFilter(filter)).toBeUndefined();
  });
});
