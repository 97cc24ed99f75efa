/**
 * The `$group` accumulators: the ones the engine computes, the ones MongoDB knows, and the
 * engine's own versions of those whose mingo answer differs from MongoDB's.
 */
import type { Document } from '@store/common';
import type { Options } from 'mingo/types';
import { compareValues } from '../bson-order';
import { uniqueBy } from '../collated-expressions';
import type { Collation } from '../collation';
import { evalExpr } from '../mingo';
import { idKey } from '../values';
import { notImplemented } from './pipeline-run';

/** Accumulators of `$group` the engine computes; MongoDB's others are refused by name. */
export const ACCUMULATORS: ReadonlySet<string> = new Set([
  '$sum',
  '$avg',
  '$min',
  '$max',
  '$first',
  '$last',
  '$push',
  '$addToSet',
  '$count',
]);

export const KNOWN_ACCUMULATORS: ReadonlySet<string> = new Set([
  ...ACCUMULATORS,
  '$accumulator',
  '$bottom',
  '$bottomN',
  '$concatArrays',
  '$firstN',
  '$lastN',
  '$maxN',
  '$median',
  '$mergeObjects',
  '$minN',
  '$percentile',
  '$setUnion',
  '$stdDevPop',
  '$stdDevSamp',
  '$top',
  '$topN',
]);

export type Accumulate = (docs: Document[], expr: unknown, options: Options) => unknown;

/**
 * The value of `expr` for each of `docs`, undefined where it is missing. With no expression
 * (null), the items themselves: mingo calls an accumulator so when it serves as an expression
 * over an array (`{ $first: '$tags' }` in `$project`); `$group` never passes null.
 */
function valuesOf(docs: Document[], expr: unknown, options: Options): unknown[] {
  if (expr === null || expr === undefined) return docs.slice();
  const values: unknown[] = new Array(docs.length);
  for (let i = 0; i < docs.length; i++) values[i] = evalExpr(docs[i] as Document, expr as never, options);
  return values;
}

const isBsonNumber = (value: unknown): boolean => {
  const type = (value as { _bsontype?: unknown } | null)?._bsontype;
  return type === 'Decimal128' || type === 'Long' || type === 'Int32' || type === 'Double';
};

/** The numbers among `values` (MongoDB's `$sum` and `$avg` skip anything else); a BSON number object is refused. */
function numbersOf(values: unknown[], operator: string): number[] {
  const numbers: number[] = [];
  for (const value of values) {
    if (typeof value === 'number') numbers.push(value);
    else if (isBsonNumber(value)) throw notImplemented(`${operator} of a Decimal128 or Long value`);
  }
  return numbers;
}

/** The least (or greatest) of the values that are neither null nor missing, in `compare`'s order; null when none. */
function extreme(values: unknown[], sign: 1 | -1, compare: (a: unknown, b: unknown) => number): unknown {
  let best: unknown;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (best === undefined || compare(value, best) * sign < 0) best = value;
  }
  return best === undefined ? null : best;
}

/** `$addToSet`'s values: each once (BSON equality), the first seen kept, in the order seen. */
function uniqueValues(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) {
    if (value === undefined) continue;
    const key = idKey(value);
    if (!seen.has(key)) seen.set(key, value);
  }
  return [...seen.values()];
}

/**
 * The accumulators whose mingo version differs from MongoDB's, the engine's own; under a
 * collation, `$min`, `$max` and `$addToSet` compare strings by it.
 */
export const accumulatorOverrides = (collation: Collation | undefined): Record<string, Accumulate> => ({
  $sum: (docs, expr, options) => numbersOf(valuesOf(docs, expr, options), '$sum').reduce((a, b) => a + b, 0),
  $avg: (docs, expr, options) => {
    const numbers = numbersOf(valuesOf(docs, expr, options), '$avg');
    return numbers.length === 0 ? null : numbers.reduce((a, b) => a + b, 0) / numbers.length;
  },
  $min: (docs, expr, options) =>
    extreme(valuesOf(docs, expr, options), 1, collation?.compare ?? compareValues),
  $max: (docs, expr, options) =>
    extreme(valuesOf(docs, expr, options), -1, collation?.compare ?? compareValues),
  $first: (docs, expr, options) =>
    docs.length === 0 ? null : (valuesOf([docs[0] as Document], expr, options)[0] ?? null),
  $last: (docs, expr, options) =>
    docs.length === 0 ? null : (valuesOf([docs[docs.length - 1] as Document], expr, options)[0] ?? null),
  $count: (docs) => docs.length,
  // A missing value is not pushed (mingo pushes null).
  $push: (docs, expr, options) => valuesOf(docs, expr, options).filter((value) => value !== undefined),
  $addToSet: (docs, expr, options) => {
    const values = valuesOf(docs, expr, options);
    if (!collation) return uniqueValues(values);
    return uniqueBy(
      values.filter((value) => value !== undefined),
      collation.compare,
    );
  },
});
