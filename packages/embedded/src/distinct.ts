/**
 * `distinct` and the page of a count, as MongoDB answers them: the values of a field across the
 * matches (an array unwound one level), each once by BSON equality, in BSON order (MongoDB keeps
 * them in an ordered set); under a collation, each once by its equality (the first seen of equal
 * values kept) in its order; a count's `skip` and `limit` applied to the number of matches.
 */
import type { Document } from '@store/common';
import { compareValues } from './bson-order';
import type { CollationOption } from './collation';
import { EmbeddedDbError } from './errors';
import { valuesAtPath } from './paths';
import { sortInSlices } from './sort-in-slices';
import { cloneValue } from './values';
import type { Work, WorkLimits } from './work';

/** Options of `countDocuments`. */
export interface CountOptions extends WorkLimits {
  /** Matches passed over before counting. @default 0 */
  skip?: number;
  /** The most matches counted; 0 is no limit, a negative limit counts as its absolute value (as the count command). @default 0 */
  limit?: number;
  /** An index (by name or key pattern) that must exist; the answer does not depend on it. */
  hint?: unknown;
}

/** Options of `distinct`. */
export interface DistinctOptions extends WorkLimits, CollationOption {
  hint?: unknown;
}

function wholeNumber(name: string, value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new EmbeddedDbError('BadValue', `${name} must be an integer`);
  }
  return value;
}

/** The checked `skip` and `limit` of a count (`limit` 0: none). */
export function countPage(options: CountOptions): { skip: number; limit: number } {
  const skip = wholeNumber('skip', options.skip);
  if (skip < 0) throw new EmbeddedDbError('BadValue', 'skip value is negative in count query');
  return { skip, limit: Math.abs(wholeNumber('limit', options.limit)) };
}

/** How many of `matched` matches a count with `page` counts. */
export function pagedCount(matched: number, page: { skip: number; limit: number }): number {
  const left = Math.max(0, matched - page.skip);
  return page.limit > 0 ? Math.min(left, page.limit) : left;
}

/** The most matches a count with `page` needs to see (a scan may stop there). */
export const countEnough = (page: { skip: number; limit: number }): number =>
  page.limit > 0 ? page.skip + page.limit : Number.POSITIVE_INFINITY;

/** Checks a `distinct` key: a non-empty string. */
export function checkDistinctKey(key: unknown): asserts key is string {
  if (typeof key !== 'string') throw new EmbeddedDbError('TypeMismatch', 'distinct key must be a string');
  if (key === '') throw new EmbeddedDbError('BadValue', 'distinct key must not be empty');
}

/** The values of `key` in `doc` that `distinct` counts: every value reached, a final array unwound one level. */
export function distinctValuesOf(doc: Document, key: string, into: unknown[]): void {
  for (const value of valuesAtPath(doc, key, true)) into.push(value);
}

/**
 * `values` each once by `compare`'s equality (BSON's, or a collation's), in its order, as fresh
 * copies: the sort is stable, so of equal values the first seen is kept. Sorted in slices of `work`.
 */
export async function distinctSorted(
  values: unknown[],
  work: Work,
  compare: (a: unknown, b: unknown) => number = compareValues,
): Promise<unknown[]> {
  const sorted = await sortInSlices(values, compare, work);
  const out: unknown[] = [];
  for (const value of sorted) {
    if (out.length === 0 || compare(out[out.length - 1], value) !== 0) out.push(value);
  }
  return out.map(cloneValue);
}
