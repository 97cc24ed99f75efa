/**
 * Sorting as MongoDB does, stable (equal keys keep their previous order). A sort key holding only
 * strings (none above the BMP, where UTF-16 units and UTF-8 bytes order differently) or only
 * numbers in the documents sorted compares natively; any other key in MongoDB's BSON order, an
 * array keyed by its smallest element ascending and its largest descending. A page (`count`)
 * is selected, not sorted whole (top-k).
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { compareValues, RANK, typeRank } from './bson-order';
import { resolve } from './mingo';

/** The values of one sort field, all plain strings or all ordered numbers: compared natively. */
export type Column = string[] | number[];

const isOrderedNumber = (value: unknown): value is number =>
  typeof value === 'number' && !Number.isNaN(value);
/** A UTF-16 surrogate: a string holding one orders differently by code units and by UTF-8 bytes. */
const SURROGATE = /[\uD800-\uDFFF]/;
const isPlainString = (value: unknown): value is string =>
  typeof value === 'string' && !SURROGATE.test(value);

/** The value a sort on `field` reads in `doc`: a top-level field it holds directly (mingo's resolve walks a path). */
const fieldValue = (doc: Document, field: string, dotted: boolean): unknown =>
  !dotted && Object.hasOwn(doc, field) ? doc[field] : resolve(doc as ArrayOrObject, field);

/**
 * The values of `field` in `docs` from position `from` on (at most `count` of them) appended to
 * `column`, with how many of them are plain strings and ordered numbers added to `kinds`.
 */
export function readColumn(
  docs: readonly Document[],
  field: string,
  from: number,
  count: number,
  column: unknown[],
  kinds: { strings: number; numbers: number },
): void {
  const dotted = field.includes('.');
  const end = Math.min(docs.length, from + count);
  for (let i = from; i < end; i++) {
    const value = fieldValue(docs[i] as Document, field, dotted);
    if (isPlainString(value)) kinds.strings++;
    else if (isOrderedNumber(value)) kinds.numbers++;
    column.push(value);
  }
}

/** `column` (the values of a field in `length` documents) when all plain strings or all ordered numbers. */
export function nativeColumn(
  column: unknown[],
  length: number,
  kinds: { strings: number; numbers: number },
): Column | undefined {
  if (kinds.strings === length) return column as string[];
  return kinds.numbers === length ? (column as number[]) : undefined;
}

/** The values of `field` in `docs` when all strings or all ordered numbers; otherwise undefined. */
function columnOf(docs: readonly Document[], field: string): Column | undefined {
  const column: unknown[] = [];
  const kinds = { strings: 0, numbers: 0 };
  readColumn(docs, field, 0, docs.length, column, kinds);
  return nativeColumn(column, docs.length, kinds);
}

/** How two positions of the documents sorted compare (never 0 for two positions: ties keep their order). */
export type PositionOrder = (a: number, b: number) => number;

/** Adds position `i` to `best`, the `count` first positions in `order` so far (a sorted buffer, binary insertion). */
export function keepIfAmongFirst(best: number[], i: number, count: number, order: PositionOrder): void {
  if (best.length === count && order(i, best[count - 1] as number) > 0) return;
  let [low, high] = [0, best.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (order(best[middle] as number, i) < 0) low = middle + 1;
    else high = middle;
  }
  best.splice(low, 0, i);
  if (best.length > count) best.pop();
}

/** The `count` first positions in `order`, without sorting the rest. */
function firstPositions(length: number, count: number, order: PositionOrder): number[] {
  const best: number[] = [];
  for (let i = 0; i < length; i++) keepIfAmongFirst(best, i, count, order);
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
  if (strings.length <= FEW_STRINGS) return fewDistinctStringsOrder(strings, direction);
  const at = new Map<string, number>();
  for (let i = 0; i < strings.length; i++) at.set(strings[i] as string, i);
  if (at.size !== strings.length) return undefined;
  const sorted = strings.slice().sort();
  if (direction === -1) sorted.reverse();
  const positions: number[] = [];
  for (const value of sorted) positions.push(at.get(value) as number);
  return positions;
}

/** Up to this many strings, {@link distinctStringOrder} inserts positions one by one (no map, no copy). */
const FEW_STRINGS = 16;

/**
 * {@link distinctStringOrder} for a few strings (the ties of an index walk broken by `_id`): an
 * insertion sort of positions, undefined at the first repeated string.
 */
function fewDistinctStringsOrder(strings: readonly string[], direction: number): number[] | undefined {
  const positions = [0];
  for (let i = 1; i < strings.length; i++) {
    const value = strings[i] as string;
    let at = positions.length;
    for (; at > 0; at--) {
      // Positions are in order, so a repeat is the first string not after `value` met going back.
      const before = strings[positions[at - 1] as number] as string;
      if (before === value) return undefined;
      if (direction === 1 ? before < value : before > value) break;
    }
    positions.splice(at, 0, i);
  }
  return positions;
}

/** Where a sort key is an empty array: below null, as MongoDB keys it (`undefined`). */
const EMPTY_ARRAY_KEY: unique symbol = Symbol('empty array');

/** An order of two values (MongoDB's BSON order, or the same with strings collated: collation.ts). */
export type ValueOrder = (a: unknown, b: unknown) => number;

/** The order of two sort keys when one is {@link EMPTY_ARRAY_KEY}. */
function compareEmptyArrayKey(a: unknown, b: unknown): number {
  const ra = a === EMPTY_ARRAY_KEY ? RANK.emptyArray : typeRank(a);
  const rb = b === EMPTY_ARRAY_KEY ? RANK.emptyArray : typeRank(b);
  return ra === rb ? 0 : ra < rb ? -1 : 1;
}

/** The BSON order of two sort keys ({@link EMPTY_ARRAY_KEY} included). */
function compareKeys(a: unknown, b: unknown): number {
  if (a !== EMPTY_ARRAY_KEY && b !== EMPTY_ARRAY_KEY) return compareValues(a, b);
  return compareEmptyArrayKey(a, b);
}

/** {@link compareKeys} by `order` (strings collated), or in BSON order without one. */
function keyOrder(order: ValueOrder | undefined): (a: unknown, b: unknown) => number {
  if (!order) return compareKeys;
  return (a, b) =>
    a !== EMPTY_ARRAY_KEY && b !== EMPTY_ARRAY_KEY ? order(a, b) : compareEmptyArrayKey(a, b);
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
function sortKey(
  doc: Document,
  segments: readonly string[],
  direction: 1 | -1,
  compare: (a: unknown, b: unknown) => number,
): unknown {
  const values: unknown[] = [];
  collectKeys(doc, segments, 0, values);
  let key: unknown = values[0] ?? null;
  for (let i = 1; i < values.length; i++) {
    const order = compare(values[i], key);
    if (direction === 1 ? order < 0 : order > 0) key = values[i];
  }
  return key;
}

/** Below this many documents kept, and under a quarter of them, the first ones are selected, not sorted. */
export const SELECT_AT_MOST = 256;

/** Whether the first `count` of `length` documents are selected (top-k) rather than all sorted. */
export const selectsFirst = (length: number, count: number | undefined): count is number =>
  count !== undefined && count <= SELECT_AT_MOST && count < length / 4;

/**
 * The sort key of `doc` for one field: the value itself for a top-level field holding no array
 * (most), else {@link sortKey}'s smallest or largest value.
 */
function fieldKey(
  doc: Document,
  field: string,
  segments: readonly string[],
  direction: 1 | -1,
  compare: (a: unknown, b: unknown) => number,
): unknown {
  if (segments.length === 1) {
    const value = doc[field];
    if (!Array.isArray(value)) return value ?? null;
  }
  return sortKey(doc, segments, direction, compare);
}

/** One field of a sort: its path and its direction. */
interface SortField {
  readonly field: string;
  readonly segments: readonly string[];
  readonly direction: 1 | -1;
}

/** One document a {@link FirstDocuments} keeps, with the sort keys computed so far. */
interface Kept {
  readonly doc: Document;
  readonly keys: unknown[];
}

/**
 * The first `count` documents in `sort` order among those offered one by one, holding only
 * those: a scan for a sorted page keeps at most a page of documents instead of every match.
 * Stable: of equal documents, those offered first come first (as {@link sortDocuments} keeps
 * positions). Keys are computed as comparisons reach them.
 */
export class FirstDocuments {
  readonly #fields: readonly SortField[];
  readonly #compare: (a: unknown, b: unknown) => number;
  readonly #kept: Kept[] = [];

  constructor(
    sort: Readonly<Record<string, 1 | -1>>,
    readonly count: number,
    by?: ValueOrder,
  ) {
    this.#fields = Object.entries(sort).map(([field, direction]) => ({
      field,
      segments: field.split('.'),
      direction,
    }));
    this.#compare = keyOrder(by);
  }

  #key(kept: Kept, at: number): unknown {
    if (at >= kept.keys.length) {
      const { field, segments, direction } = this.#fields[at] as SortField;
      kept.keys.push(fieldKey(kept.doc, field, segments, direction, this.#compare));
    }
    return kept.keys[at];
  }

  /** The order of two kept documents (0 when equal on every key). */
  #order(a: Kept, b: Kept): number {
    for (let at = 0; at < this.#fields.length; at++) {
      const sign =
        this.#compare(this.#key(a, at), this.#key(b, at)) * (this.#fields[at] as SortField).direction;
      if (sign !== 0) return sign;
    }
    return 0;
  }

  offer(doc: Document): void {
    const kept = this.#kept;
    const full = kept.length === this.count;
    // Most documents of a large scan come after the last one kept on the first key alone:
    // refused before anything is allocated for them (the collector's work grows with the heap).
    if (full && this.#afterLastOnFirstKey(doc)) return;
    const offered: Kept = { doc, keys: [] };
    // Not before the last one kept (ties included: that one came first): not among the first.
    if (full && this.#order(offered, kept[this.count - 1] as Kept) >= 0) return;
    let [low, high] = [0, kept.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#order(kept[middle] as Kept, offered) <= 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, offered);
    if (kept.length > this.count) kept.pop();
  }

  /** Whether `doc` comes after the last document kept by the first sort key alone (ties: not after). */
  #afterLastOnFirstKey(doc: Document): boolean {
    const last = this.#kept[this.count - 1] as Kept;
    const { field, segments, direction } = this.#fields[0] as SortField;
    const key = fieldKey(doc, field, segments, direction, this.#compare);
    return this.#compare(key, this.#key(last, 0)) * direction > 0;
  }

  /** The documents kept, in order. */
  get documents(): Document[] {
    return this.#kept.map(({ doc }) => doc);
  }
}

/**
 * The keys of one sort field for `docs`, computed when first compared: a field whose values are
 * not all plain strings or all ordered numbers is compared in BSON order, and in a top-k most
 * documents never reach a later key (an ObjectId `_id` breaking ties).
 */
function lazyKeys(
  docs: readonly Document[],
  field: string,
  direction: 1 | -1,
  compare: (a: unknown, b: unknown) => number,
): (i: number) => unknown {
  const segments = field.split('.');
  const keys: unknown[] = new Array(docs.length);
  const known: boolean[] = new Array(docs.length).fill(false);
  return (i) => {
    if (!known[i]) {
      keys[i] = sortKey(docs[i] as Document, segments, direction, compare);
      known[i] = true;
    }
    return keys[i];
  };
}

/**
 * `docs` sorted by `sort` exactly as MongoDB orders them, stable (only the first `count` when
 * given: those are selected, not the whole input sorted). A key whose values are all plain
 * strings or all ordered numbers compares natively; any other in BSON order. Under a collation,
 * every key compares by `by` (strings collated).
 */
export function sortDocuments(
  docs: readonly Document[],
  sort: Readonly<Record<string, 1 | -1>>,
  count?: number,
  by?: ValueOrder,
): Document[] {
  const columns = Object.keys(sort).map((field) => (by ? undefined : columnOf(docs, field)));
  const first = columns[0];
  // The comparator is built only when needed: distinct strings first (an `_id`) sort without one.
  const positions = selectsFirst(docs.length, count)
    ? firstPositions(docs.length, count, positionOrder(docs, sort, columns, by))
    : ((first && distinctStringOrder(first, Object.values(sort)[0] as number)) ??
      docs.map((_, i) => i).sort(positionOrder(docs, sort, columns, by)));
  const sorted: Document[] = [];
  for (const i of positions) sorted.push(docs[i] as Document);
  return sorted;
}

/**
 * How two positions of `docs` compare under `sort`, given each sort field's native column
 * (`undefined` where the field is compared in BSON order, or by `by`): ties broken by position.
 */
export function positionOrder(
  docs: readonly Document[],
  sort: Readonly<Record<string, 1 | -1>>,
  columns: ReadonlyArray<Column | undefined>,
  by?: ValueOrder,
): PositionOrder {
  const compares: PositionOrder[] = [];
  for (const [at, [field, direction]] of Object.entries(sort).entries()) {
    const column = columns[at];
    if (column) {
      compares.push((a, b) => {
        const x = column[a] as string | number;
        const y = column[b] as string | number;
        return x === y ? 0 : x < y ? -direction : direction;
      });
    } else {
      const compare = keyOrder(by);
      const key = lazyKeys(docs, field, direction, compare);
      compares.push((a, b) => compare(key(a), key(b)) * direction);
    }
  }
  return (a, b) => {
    for (const compare of compares) {
      const sign = compare(a, b);
      if (sign !== 0) return sign;
    }
    return a - b;
  };
}
