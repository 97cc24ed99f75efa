/**
 * Sorting without mingo's cursor for the common case: every sort key holds only strings, or
 * only numbers, in the documents sorted. mingo's `$sort` groups equal values, orders the groups
 * natively (code units for strings, numerically for numbers), reverses them for `-1` and keeps
 * each group in its previous order, one key at a time from the last; for such keys that is a
 * stable sort by all keys in turn, which this does in one pass. Any other key (missing values,
 * NaN, mixed types, arrays, dates, ObjectIds) is left to mingo.
 */

import type { Document } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { resolve } from 'mingo/util';

type Column = string[] | number[];

const isOrderedNumber = (value: unknown): value is number =>
  typeof value === 'number' && !Number.isNaN(value);

/** The values of `field` in `docs` when all strings or all ordered numbers; otherwise undefined. */
function columnOf(docs: readonly Document[], field: string): Column | undefined {
  // A top-level field the document holds is read directly (mingo's resolve walks a path).
  const dotted = field.includes('.');
  const column: unknown[] = [];
  let strings = 0;
  let numbers = 0;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as Document;
    const value = !dotted && Object.hasOwn(doc, field) ? doc[field] : resolve(doc as ArrayOrObject, field);
    if (typeof value === 'string') strings++;
    else if (isOrderedNumber(value)) numbers++;
    column.push(value);
  }
  if (strings === docs.length) return column as string[];
  return numbers === docs.length ? (column as number[]) : undefined;
}

/** The `count` first positions in `order`, without sorting the rest: a sorted buffer, binary insertion. */
function firstPositions(length: number, count: number, order: (a: number, b: number) => number): number[] {
  const best: number[] = [];
  for (let i = 0; i < length; i++) {
    if (best.length === count && order(i, best[count - 1] as number) > 0) continue;
    let [low, high] = [0, best.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (order(best[middle] as number, i) < 0) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, i);
    if (best.length > count) best.pop();
  }
  return best;
}

/**
 * Positions in the order of a first key whose strings are all distinct (an `_id`): sorted by the
 * engine's native string sort (code units, like `<`), no comparator calls; later keys cannot
 * matter. Undefined when the key is not distinct strings.
 */
function distinctStringOrder(column: Column, direction: number): number[] | undefined {
  if (column.length < 2 || typeof column[0] !== 'string') return undefined;
  const strings = column as string[];
  const at = new Map<string, number>();
  for (let i = 0; i < strings.length; i++) at.set(strings[i] as string, i);
  if (at.size !== strings.length) return undefined;
  const sorted = strings.slice().sort();
  if (direction === -1) sorted.reverse();
  const positions: number[] = [];
  for (const value of sorted) positions.push(at.get(value) as number);
  return positions;
}

/** Below this many documents kept, and under a quarter of them, the first ones are selected, not sorted. */
const SELECT_AT_MOST = 256;

/**
 * `docs` sorted by `sort` exactly as mingo's cursor would (only the first `count` when given),
 * or undefined when mingo must sort them.
 */
export function sortSimply(
  docs: readonly Document[],
  sort: Readonly<Record<string, 1 | -1>>,
  count?: number,
): Document[] | undefined {
  const columns: Column[] = [];
  const directions: number[] = [];
  for (const [field, direction] of Object.entries(sort)) {
    const column = columnOf(docs, field);
    if (!column) return undefined;
    columns.push(column);
    directions.push(direction);
  }
  const order = (a: number, b: number): number => {
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k] as Column;
      const x = column[a] as string | number;
      const y = column[b] as string | number;
      if (x !== y) return x < y ? -(directions[k] as number) : (directions[k] as number);
    }
    return a - b;
  };
  const selects = count !== undefined && count <= SELECT_AT_MOST && count < docs.length / 4;
  const positions = selects
    ? firstPositions(docs.length, count, order)
    : (distinctStringOrder(columns[0] as Column, directions[0] as number) ??
      docs.map((_, i) => i).sort(order));
  const sorted: Document[] = [];
  for (const i of positions) sorted.push(docs[i] as Document);
  return sorted;
}
