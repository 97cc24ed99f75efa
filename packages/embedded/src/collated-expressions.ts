/**
 * What a pipeline computes under a collation (aggregate.ts) that compares strings: the
 * expressions `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$cmp` and `$in` compare by the
 * collation (collation.ts) when an operand holds a string, and as without it otherwise; the
 * expressions that compare strings in ways not computed here (`$indexOfArray`, the set
 * expressions, `$sortArray`, `$minN`, `$maxN`) are refused by name (238) when an operand holds
 * a string, never answered binary; `$group` keys are grouped by the collation's equality, and
 * `$addToSet` keeps one value of each set of values equal under it.
 */
import type { Document } from '@store/common';
import type { Options } from 'mingo/types';
import { type Collation, holdsString } from './collation';
import { EmbeddedDbError } from './errors';
import { evalExpr } from './mingo';
import { sortInSlices } from './sort-in-slices';
import { idKey } from './values';
import type { Work } from './work';

/** An expression operator as mingo calls it. */
export type ExpressionOperator = (obj: Document, expr: unknown, options: Options) => unknown;

/** The comparison expressions, by the sign of the comparison of their two operands. */
const COMPARISONS: Readonly<Record<string, (sign: number) => unknown>> = {
  $eq: (sign) => sign === 0,
  $ne: (sign) => sign !== 0,
  $gt: (sign) => sign > 0,
  $gte: (sign) => sign >= 0,
  $lt: (sign) => sign < 0,
  $lte: (sign) => sign <= 0,
  $cmp: (sign) => sign,
};

/** Expressions that compare strings otherwise than by `compare`: refused when an operand holds a string. */
const REFUSED_ON_STRINGS = [
  '$indexOfArray',
  '$setDifference',
  '$setEquals',
  '$setIntersection',
  '$setIsSubset',
  '$setUnion',
  '$sortArray',
  '$minN',
  '$maxN',
] as const;

/** Operands as literals: an operator given them computes on the values already evaluated. */
const literals = (values: unknown[]): Document[] => values.map((value) => ({ $literal: value }));

/** Whether the collation can change how `a` and `b` compare: both present, a string in one. */
const collates = (a: unknown, b: unknown): boolean =>
  a !== undefined && b !== undefined && (holdsString(a) || holdsString(b));

/** `$eq` and its kin under `collation`, from mingo's own (which checks the arguments and answers without strings). */
function comparison(
  original: ExpressionOperator,
  answer: (sign: number) => unknown,
  { compare }: Collation,
): ExpressionOperator {
  return (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length !== 2) return original(obj, expr, options);
    const [a, b] = evalExpr(obj, expr as never, options) as unknown[];
    if (!collates(a, b)) return original(obj, literals([a, b]), options);
    return answer(compare(a, b));
  };
}

/** `$in` under `collation`: whether an element of the array equals the value by it. */
function collatedIn(original: ExpressionOperator, { compare }: Collation): ExpressionOperator {
  return (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length !== 2) return original(obj, expr, options);
    const [item, array] = evalExpr(obj, expr as never, options) as unknown[];
    if (!Array.isArray(array) || !collates(item, array))
      return original(obj, literals([item, array]), options);
    return array.some((element) => compare(element, item) === 0);
  };
}

/** An expression refused (238) by name when its operands hold a string. */
function refusedOnStrings(name: string, original: ExpressionOperator): ExpressionOperator {
  return (obj, expr, options) => {
    if (holdsString(evalExpr(obj, expr as never, options))) {
      throw new EmbeddedDbError(
        'NotImplemented',
        `${name} comparing strings under a collation is not supported by the embedded engine`,
      );
    }
    return original(obj, expr, options);
  };
}

/** The expression operators that differ under `collation`, built from mingo's `originals`. */
export function collatedExpressions(
  collation: Collation,
  originals: Readonly<Record<string, unknown>>,
): Record<string, ExpressionOperator> {
  const out: Record<string, ExpressionOperator> = {};
  const original = (name: string) => originals[name] as ExpressionOperator;
  for (const [name, answer] of Object.entries(COMPARISONS))
    out[name] = comparison(original(name), answer, collation);
  out.$in = collatedIn(original('$in'), collation);
  for (const name of REFUSED_ON_STRINGS) out[name] = refusedOnStrings(name, original(name));
  return out;
}

/** `values` (none missing) each once by `compare`'s equality, the first seen of each kept, in the order seen. */
export function uniqueBy(values: unknown[], compare: (a: unknown, b: unknown) => number): unknown[] {
  const order = values.map((_, i) => i).sort((i, j) => compare(values[i], values[j]) || i - j);
  const kept: number[] = [];
  for (const i of order) {
    const last = kept[kept.length - 1];
    if (last === undefined || compare(values[last], values[i]) !== 0) kept.push(i);
  }
  return kept.sort((i, j) => i - j).map((i) => values[i]);
}

/**
 * The group key of each of `ids` under `collation`: ids equal by it share a key (that of the
 * first seen). An id holding no string keeps its own key (`idKey`): the collation cannot make it
 * equal to another. Sorted in slices of `work`.
 */
export async function collatedGroupKeys(
  ids: unknown[],
  { compare }: Collation,
  work: Work,
): Promise<string[]> {
  const keys = ids.map(idKey);
  const collated: number[] = [];
  for (let i = 0; i < ids.length; i++) if (holdsString(ids[i])) collated.push(i);
  // Stable: among equal ids, the first seen comes first.
  const sorted = await sortInSlices(collated, (i, j) => compare(ids[i], ids[j]), work);
  let head: number | undefined;
  for (const i of sorted) {
    if (head === undefined || compare(ids[head], ids[i]) !== 0) head = i;
    keys[i] = `collated:${head}`;
  }
  return keys;
}
