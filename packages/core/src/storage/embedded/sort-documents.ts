/**
 * Sorting without mingo's cursor for the common case: every sort key holds only strings, or
 * only numbers, in the documents sorted. mingo's `$sort` groups equal values, orders the groups
 * natively (code units for strings, numerically for numbers), reverses them for `-1` and keeps
 * each group in its previous order, one key at a time from the last; for such keys that is a
 * stable sort by all keys in turn, which this does in one pass. Any other key (missing values,
 * NaN, mixed types, arrays, dates, ObjectIds) is left to mingo.
 */
import type { ArrayOrObject } from 'mingo/types';
import { resolve } from 'mingo/util';
import type { Document } from '../types';

type Column = string[] | number[];

const isOrderedNumber = (value: unknown): value is number =>
  typeof value === 'number' && !Number.isNaN(value);

/** The values of `field` in `docs` when all strings or all ordered numbers; otherwise undefined. */
function columnOf(docs: readonly Document[], field: string): Column | undefined {
  const column = docs.map((doc) => resolve(doc as ArrayOrObject, field));
  if (column.every((value) => typeof value === 'string')) return column as string[];
  return column.every(isOrderedNumber) ? (column as number[]) : undefined;
}

/** `docs` sorted by `sort` exactly as mingo's cursor would, or undefined when mingo must sort them. */
export function sortSimply(
  docs: readonly Document[],
  sort: Readonly<Record<string, 1 | -1>>,
): Document[] | undefined {
  const keys: Array<{ column: Column; direction: number }> = [];
  for (const [field, direction] of Object.entries(sort)) {
    const column = columnOf(docs, field);
    if (!column) return undefined;
    keys.push({ column, direction });
  }
  const positions = docs.map((_, i) => i);
  positions.sort((a, b) => {
    for (const { column, direction } of keys) {
      const [x, y] = [column[a] as string | number, column[b] as string | number];
      if (x !== y) return x < y ? -direction : direction;
    }
    return a - b;
  });
  return positions.map((i) => docs[i] as Document);
}
