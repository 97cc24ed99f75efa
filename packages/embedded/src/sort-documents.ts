/**
 * Sorting as MongoDB does, stable (equal keys keep their previous order). The common case, every
 * sort key holding only strings (none above the BMP, where UTF-16 units and UTF-8 bytes order
 * differently) or only numbers in the documents sorted, is one pass with native comparisons
 * ({@link sortSimply}); any other key goes through {@link sortByBson}: MongoDB's BSON order,
 * an array keyed by its smallest element ascending and its largest descending.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { resolve } from 'mingo/util';
import { compareValues, RANK, typeRank } from './bson-order';

type Column = string[] | number[];

const isOrderedNumber = (value: unknown): value is number =>
  typeof value === 'number' && !Number.isNaN(value);
/** A UTF-16 surrogate: a string holding one orders differently by code units and by UTF-8 bytes. */
const SURROGATE = /[\uD800-\uDFFF]/;
const isPlainString = (value: unknown): value is string =>
  typeof value === 'string' && !SURROGATE.test(value);

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
    if (isPlainString(value)) strings++;
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

/** Where a sort key is an empty array: below null, as MongoDB keys it (`undefined`). */
const EMPTY_ARRAY_KEY: unique symbol = Symbol('empty array');

/** The BSON order of two sort keys ({@link EMPTY_ARRAY_KEY} included). */
function compareKeys(a: unknown, b: unknown): number {
  if (a !== EMPTY_ARRAY_KEY && b !== EMPTY_ARRAY_KEY) return compareValues(a, b);
  const ra = a === EMPTY_ARRAY_KEY ? RANK.emptyArray : typeRank(a);
  const rb = b === EMPTY_ARRAY_KEY ? RANK.emptyArray : typeRank(b);
  return ra === rb ? 0 : ra < rb ? -1 : 1;
}

/** Every value at `segments` below `value` (a leaf array contributes its elements; a missing branch null). */
function collectKeys(value: unknown, segments: readonly string[], at: number, out: unknown[]): void {
  if (at === segments.length) {
    if (!Array.isArray(value)) out.push(value ?? null);
    else if (value.length === 0) out.push(EMPTY_ARRAY_KEY);
    else out.push(...value);
    return;
  }
  const head = segments[at] as string;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(head) && value.length > Number(head))
      collectKeys(value[Number(head)], segments, at + 1, out);
    for (const element of value) if (isPlainObject(element)) collectKeys(element, segments, at, out);
    if (value.length === 0) out.push(null);
    return;
  }
  collectKeys(isPlainObject(value) && Object.hasOwn(value, head) ? value[head] : null, segments, at + 1, out);
}

/** The key of `doc` for one sort field: the smallest of its values ascending, the largest descending. */
function sortKey(doc: Document, segments: readonly string[], direction: 1 | -1): unknown {
  const values: unknown[] = [];
  collectKeys(doc, segments, 0, values);
  let key: unknown = values[0] ?? null;
  for (let i = 1; i < values.length; i++) {
    const order = compareKeys(values[i], key);
    if (direction === 1 ? order < 0 : order > 0) key = values[i];
  }
  return key;
}

/** `docs` sorted by `sort` in MongoDB's BSON order, stable. */
export function sortByBson(docs: readonly Document[], sort: Readonly<Record<string, 1 | -1>>): Document[] {
  const fields = Object.entries(sort).map(([field, direction]) => ({
    segments: field.split('.'),
    direction,
  }));
  const keys = docs.map((doc) => fields.map(({ segments, direction }) => sortKey(doc, segments, direction)));
  const positions = docs.map((_, i) => i);
  positions.sort((a, b) => {
    for (let k = 0; k < fields.length; k++) {
      const order = compareKeys(keys[a]?.[k], keys[b]?.[k]);
      if (order !== 0) return order * (fields[k]?.direction as number);
    }
    return a - b;
  });
  return positions.map((i) => docs[i] as Document);
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
