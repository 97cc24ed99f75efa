/**
 * The embedded engine's `$in` / `$nin` (lookup sets built once per compiled filter) against
 * mingo's own operators, which they replace: the same answer for every document, on
 * generated documents and operands mixing every value kind the two compare differently.
 */

import type { Document } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../src/compile-filter';
import { inLookup } from '../src/in-operator';
import { CollectionIndexes } from '../src/indexes';
import { picker, prng } from './support/seeded-random';
import { stockTest } from './support/stock-mingo';

const HEX = '0123456789abcdef01234567';
const SCALARS: readonly unknown[] = [
  'a',
  'b',
  '1',
  HEX,
  '',
  1,
  2,
  0,
  -0,
  Number.NaN,
  1.5,
  true,
  false,
  null,
  new ObjectId(HEX),
  new ObjectId('ffffffffffffffffffffffff'),
  new Date(0),
  new Date(1000),
  new Date(Number.NaN),
  /^a/,
];
const COMPOSITES: readonly unknown[] = [{ b: 1 }, { b: 'a' }, ['a'], [1, 'b']];
const PATTERNS: readonly unknown[] = [/^a/, /A/i, /^a/g, /b$/];
const FIELDS = ['a', 'a.b', 'a.0', 'c'] as const;

function generators(random: () => number) {
  const pick = picker(random);
  const value = (depth: number): unknown => {
    const roll = random();
    if (depth > 1 || roll < 0.55) return pick(SCALARS);
    if (roll < 0.75) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
    if (roll < 0.9) return { b: value(depth + 1) };
    return [{ b: value(depth + 1) }, { b: value(depth + 1) }];
  };
  const doc = (): Document => (random() < 0.15 ? {} : { a: value(0) });
  const member = (): unknown => {
    const roll = random();
    if (roll < 0.8) return pick(SCALARS);
    return roll < 0.9 ? pick(PATTERNS) : pick(COMPOSITES);
  };
  const operand = (): unknown[] => Array.from({ length: Math.floor(random() * 5) }, member);
  return { pick, doc, operand };
}

describe('$in and $nin answer exactly as mingo did', () => {
  it('on 6,000 generated filters and documents, alone, under $or, $not and $elemMatch', () => {
    const random = prng(20261122);
    const { pick, doc, operand } = generators(random);
    const shapes = [
      (field: string, op: string, list: unknown[]) => ({ [field]: { [op]: list } }),
      (field: string, op: string, list: unknown[]) => ({ $or: [{ [field]: { [op]: list } }, { z: 1 }] }),
      (field: string, op: string, list: unknown[]) => ({ [field]: { $not: { [op]: list } } }),
      (_field: string, op: string, list: unknown[]) => ({ a: { $elemMatch: { b: { [op]: list } } } }),
    ];
    const indexes = new CollectionIndexes();
    let checked = 0;
    for (let i = 0; i < 6000; i++) {
      const filter = pick(shapes)(pick(FIELDS), pick(['$in', '$nin']), operand());
      const sample = doc();
      const expected = stockTest(filter, sample);
      const actual = compileFilter(filter, indexes).test(sample);
      if (actual !== expected)
        expect({ filter, sample, actual }).toEqual({ filter, sample, actual: expected });
      checked += 1;
    }
    expect(checked).toBe(6000);
  });

  it.each([
    ['strings, numbers, booleans, null', ['a', 1, true, null], true],
    ['ObjectIds and Dates', [new ObjectId(HEX), new Date(0)], true],
    ['stateless patterns', [/^a/, /b/i], true],
    ['a sub-document member', ['a', { b: 1 }], false],
    ['an array member', [['a']], false],
    ['a global pattern', [/a/g], false],
    ['an invalid Date', [new Date(Number.NaN)], false],
    ['undefined', [undefined], false],
    ['a non-array operand', 'a', false],
  ])('uses its own lookup for %s: %s', (_name, operand, fast) => {
    expect(inLookup(operand) !== undefined).toBe(fast);
  });

  it('matches ObjectIds by hex before and after they are filed, document after document', () => {
    const { test } = compileFilter({ a: { $in: ['x', new ObjectId(HEX)] } }, new CollectionIndexes());
    const other = new ObjectId('ffffffffffffffffffffffff');
    const answers = [
      { a: 'x' },
      { a: other },
      { a: new ObjectId(HEX) },
      { a: [other, new ObjectId(HEX)] },
      { a: HEX },
    ].map((doc) => test(doc));
    expect(answers).toEqual([true, false, true, true, false]);
  });
});
