/**
 * An ordered index of the embedded engine on one top-level field (or `_id`): the documents'
 * keys sorted in MongoDB's BSON order of the field's value, ties in insertion order. It answers
 * the range of a `$gt` / `$gte` / `$lt` / `$lte` (within the bound's type bracket, as the
 * engine's operators compare) by binary search, and walks in sort order for a sort + limit.
 * A document holding an array there is kept apart (`multikey`): it can match a range through
 * any element and sorts by its smallest or largest one, so it is always a candidate and a walk
 * is not used while there is one.
 */
import type { Document } from '@store/common';
import type { ObjectId } from 'bson';
import { compareNumbers, compareStrings, compareValues, RANK, typeRank } from './bson-order';
import { isObjectId } from './values';

/** One document in the index: its value at the field, its key in the collection, its insertion sequence. */
interface IndexEntry {
  readonly value: unknown;
  readonly docKey: string;
  readonly seq: number;
}

/** One end of a range: the bound's value and whether it is included. */
export interface RangeEnd {
  readonly value: unknown;
  readonly inclusive: boolean;
}

/** A range within one type bracket (`rank`); a missing end is the bracket's end. */
export interface Range {
  readonly rank: number;
  readonly lower?: RangeEnd;
  readonly upper?: RangeEnd;
}

/** Removals past this many at once close up the entries in one pass rather than shifting them once each. */
const REMOVE_ONE_BY_ONE_AT_MOST = 16;
/** When entries added out of order wait apart, and how many of them are merged at once. */
export interface OrderedIndexTuning {
  /** Up to this many entries, one added out of order is spliced in at once (shifting them costs less than waiting). */
  readonly spliceAtMost: number;
  /** Entries waiting apart are merged once this many wait (or the square root of the index's size, when larger). */
  readonly pendingAtLeast: number;
}

const TUNING: OrderedIndexTuning = { spliceAtMost: 16_384, pendingAtLeast: 256 };

const compareEntries = (a: IndexEntry, b: IndexEntry): number =>
  compareValues(a.value, b.value) || a.seq - b.seq;

/** UTF-16 units that sort differently by code point (surrogates, and what follows them). */
const HIGH_UNITS = /[\ud800-\uffff]/;

/** Orders two values as {@link compareValues} does. */
type CompareValues = (a: unknown, b: unknown) => number;

/** {@link compareValues}, two strings compared at once (`_id`s mostly are). */
const compareByStrings: CompareValues = (a, b) =>
  typeof a === 'string' && typeof b === 'string' ? compareStrings(a, b) : compareValues(a, b);

/**
 * A comparator for `values` (and `more`) that orders them as {@link compareValues} does without
 * going through it, when they are all strings, all numbers or all dates (strings by code point,
 * numbers by value with NaN first), or all ObjectIds (by their bytes: the order of their hex
 * strings); {@link compareValues} otherwise.
 */
function valueComparator(values: readonly unknown[], more: readonly unknown[] = []): CompareValues {
  const first = values.length > 0 ? values[0] : more[0];
  const every = (test: (value: unknown) => boolean) => values.every(test) && more.every(test);
  if (typeof first === 'string') {
    if (!every((value) => typeof value === 'string')) return compareValues;
    // Without a unit from U+D800 up, UTF-16 order (the native one) is code point order.
    if (!every((value) => !HIGH_UNITS.test(value as string))) {
      return (a, b) => compareStrings(a as string, b as string);
    }
    return (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0);
  }
  if (typeof first === 'number') {
    if (!every((value) => typeof value === 'number')) return compareValues;
    return (a, b) => compareNumbers(a as number, b as number);
  }
  if (first instanceof Date) {
    if (!every((value) => value instanceof Date)) return compareValues;
    return (a, b) => compareNumbers((a as Date).getTime(), (b as Date).getTime());
  }
  if (isObjectId(first)) {
    if (!every(isObjectId)) return compareValues;
    return (a, b) => Buffer.compare((a as ObjectId).id, (b as ObjectId).id);
  }
  return compareValues;
}

/** Sorts `entries` as {@link compareEntries} orders them. */
function sortEntries(entries: IndexEntry[]): void {
  const compare = valueComparator(entries.map(({ value }) => value));
  entries.sort((a, b) => compare(a.value, b.value) || a.seq - b.seq);
}

/** The first position below `end` at which `before` is false (`before` holds for a prefix of positions). */
function firstNotBefore(end: number, before: (at: number) => boolean): number {
  let [low, high] = [0, end];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The position of `entry` in the sorted `entries`, or of where it belongs. */
const positionIn = (entries: readonly IndexEntry[], entry: IndexEntry): number =>
  firstNotBefore(entries.length, (at) => compareEntries(entries[at] as IndexEntry, entry) < 0);

/** The sorted `entries` and `waiting` as one sorted array; a waiting entry goes before an entry it ties with (as placed one by one). */
function mergedEntries(entries: readonly IndexEntry[], waiting: readonly IndexEntry[]): IndexEntry[] {
  const compare = valueComparator(
    entries.map(({ value }) => value),
    waiting.map(({ value }) => value),
  );
  const merged: IndexEntry[] = new Array(entries.length + waiting.length);
  let [i, j, at] = [0, 0, 0];
  while (i < entries.length && j < waiting.length) {
    const [main, next] = [entries[i] as IndexEntry, waiting[j] as IndexEntry];
    if ((compare(main.value, next.value) || main.seq - next.seq) < 0) {
      merged[at++] = main;
      i++;
    } else {
      merged[at++] = next;
      j++;
    }
  }
  while (i < entries.length) merged[at++] = entries[i++] as IndexEntry;
  while (j < waiting.length) merged[at++] = waiting[j++] as IndexEntry;
  return merged;
}

/** Waiting entries past this many are merged in one linear pass into new arrays, not placed one by one. */
const MERGE_IN_PLACE_AT_MOST = 1024;

/**
 * The main entries of an index, sorted, as three columns: at each position a value, the key of
 * its document and its insertion sequence. Columns cost 24 bytes an entry, where an object for
 * each entry costs 56 (a million `_id`s: 32 MB less, and a million fewer objects to collect).
 */
export interface IndexColumns {
  readonly values: readonly unknown[];
  readonly keys: readonly string[];
  readonly seqs: readonly number[];
}

/**
 * The entries are three sorted columns (see {@link IndexColumns}), read by position. An entry
 * that sorts last (increasing ids, counters, timestamps) is appended. In a large index, one that
 * sorts inside waits in a small sorted array of its own, and those are merged into the columns
 * in one pass once they are many, or before the index is next read: inserting random keys one by
 * one would otherwise shift half the columns each time (100,000 random string ids took 76 µs
 * each, a million minutes).
 */
export class OrderedIndex {
  readonly field: string;
  #values: unknown[] = [];
  #keys: string[] = [];
  #seqs: number[] = [];
  /** Entries added out of order since the last merge, sorted. */
  #pending: IndexEntry[] = [];
  /**
   * Entries added out of order while adding many at once ({@link addingMany}), as they came:
   * sorted and merged in one pass once they are many, or before the index is next read.
   */
  #unsorted: IndexEntry[] = [];
  /** Whether {@link addingMany} runs. */
  #many = false;
  readonly #multikey = new Set<string>();

  /** The index of `field` over `docs` (keyed as the collection keys them), built in one sort. */
  constructor(
    field: string,
    docs: Iterable<[docKey: string, doc: Document]> = [],
    seqOf: (docKey: string, doc: Document) => number = () => 0,
    private readonly tuning: OrderedIndexTuning = TUNING,
  ) {
    this.field = field;
    for (const [docKey, doc] of docs) this.#read(docKey, doc, seqOf(docKey, doc));
    this.#sortColumns();
  }

  /**
   * The index of `field` over `docs`, in sequence from `first` in their order, taken at
   * `places` when given (their places in `docs`, in the index's order, as a snapshot recorded
   * them, a permutation of `docs` the caller checked): no sort when they are the index's order
   * (checked in one pass); otherwise sorted.
   */
  static inPlaces(
    field: string,
    docs: Map<string, Document>,
    places: Int32Array | undefined,
    first: number,
  ): OrderedIndex {
    const index = new OrderedIndex(field);
    // Read in the documents' own order (the order they lie in memory), then put in place.
    let seq = first;
    for (const [docKey, doc] of docs) index.#read(docKey, doc, seq++);
    // Arrays at the field (never at `_id`) leave the places pointing past the entries: sorted instead.
    if (places !== undefined && index.#multikey.size === 0 && index.#values.length === places.length) {
      index.#permute(places);
    }
    // The places are checked, not trusted: one comparison per entry, a sort when they are wrong.
    index.#sortColumns();
    return index;
  }

  /** Appends `doc`'s entry to the columns, unsorted (or notes its array in {@link multikey}). */
  #read(docKey: string, doc: Document, seq: number): void {
    const value = doc[this.field];
    if (Array.isArray(value)) {
      this.#multikey.add(docKey);
      return;
    }
    this.#values.push(value);
    this.#keys.push(docKey);
    this.#seqs.push(seq);
  }

  /** Puts the columns in the order of `order` (the position each entry comes from). */
  #permute(order: ArrayLike<number>): void {
    const [values, keys, seqs] = [this.#values, this.#keys, this.#seqs];
    this.#values = Array.from(order, (from) => values[from]);
    this.#keys = Array.from(order, (from) => keys[from] as string);
    this.#seqs = Array.from(order, (from) => seqs[from] as number);
  }

  /** Sorts the columns by value, ties by sequence: at once when they are in order already (increasing ids). */
  #sortColumns(): void {
    const [values, seqs] = [this.#values, this.#seqs];
    const inOrder = (compare: CompareValues) => (i: number, j: number) =>
      compare(values[i], values[j]) || (seqs[i] as number) - (seqs[j] as number);
    const checked = inOrder(compareByStrings);
    let ordered = true;
    for (let i = 1; i < values.length && ordered; i++) ordered = checked(i - 1, i) <= 0;
    if (!ordered) this.#permute(Array.from(values, (_, i) => i).sort(inOrder(valueComparator(values))));
  }

  /** How many documents the index holds (entries, waiting or not, and arrays). */
  get size(): number {
    return this.#values.length + this.#pending.length + this.#unsorted.length + this.#multikey.size;
  }

  /** Keys of the documents holding an array at the field (always candidates). */
  get multikey(): ReadonlySet<string> {
    return this.#multikey;
  }

  /**
   * The entries in order, as columns (entries waiting are merged first). Read them before the
   * next write: a write may replace or move them.
   */
  get columns(): IndexColumns {
    this.#merge();
    return { values: this.#values, keys: this.#keys, seqs: this.#seqs };
  }

  /** `doc`'s entry, or `undefined` (kept in {@link multikey} instead) when it holds an array there. */
  #entryOf(docKey: string, doc: Document, seq: number): IndexEntry | undefined {
    const value = doc[this.field];
    return Array.isArray(value) ? undefined : { value, docKey, seq };
  }

  /** Whether the entry at `at` in the columns sorts before `entry`. */
  #before(at: number, entry: IndexEntry): boolean {
    return (compareValues(this.#values[at], entry.value) || (this.#seqs[at] as number) - entry.seq) < 0;
  }

  /** The position of `entry` in the columns (up to `end`), or of where it belongs. */
  #positionOf(entry: IndexEntry, end = this.#values.length): number {
    return firstNotBefore(end, (at) => this.#before(at, entry));
  }

  #insertAt(at: number, entry: IndexEntry): void {
    this.#values.splice(at, 0, entry.value);
    this.#keys.splice(at, 0, entry.docKey);
    this.#seqs.splice(at, 0, entry.seq);
  }

  #removeAt(at: number): void {
    this.#values.splice(at, 1);
    this.#keys.splice(at, 1);
    this.#seqs.splice(at, 1);
  }

  /**
   * Merges the waiting entries into the columns: in place from their end when they are few (each
   * waiting entry's place found by binary search, the entries after it moved up as one block,
   * with no comparison per entry moved), otherwise in one linear pass into new columns.
   */
  #merge(): void {
    this.#sortUnsorted();
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    if (pending.length > MERGE_IN_PLACE_AT_MOST) {
      this.#mergeInto(pending);
      return;
    }
    const [values, keys, seqs] = [this.#values, this.#keys, this.#seqs];
    let end = values.length;
    // Room at the end, filled with entries (each slot is written again below): no holes.
    for (const waiting of pending) {
      values.push(waiting.value);
      keys.push(waiting.docKey);
      seqs.push(waiting.seq);
    }
    for (let j = pending.length - 1; j >= 0; j--) {
      const waiting = pending[j] as IndexEntry;
      const at = this.#positionOf(waiting, end);
      // Plain loops: copyWithin on arrays of objects moves them far slower.
      for (let from = end - 1; from >= at; from--) {
        values[from + j + 1] = values[from];
        keys[from + j + 1] = keys[from] as string;
        seqs[from + j + 1] = seqs[from] as number;
      }
      values[at + j] = waiting.value;
      keys[at + j] = waiting.docKey;
      seqs[at + j] = waiting.seq;
      end = at;
    }
  }

  /** The columns and the sorted `waiting` as new columns; a waiting entry goes before a main one it ties with (as placed one by one). */
  #mergeInto(waiting: readonly IndexEntry[]): void {
    const [values, keys, seqs] = [this.#values, this.#keys, this.#seqs];
    const compare = valueComparator(
      values,
      waiting.map(({ value }) => value),
    );
    const length = values.length + waiting.length;
    const [mergedValues, mergedKeys, mergedSeqs] = [new Array(length), new Array(length), new Array(length)];
    let [i, j, at] = [0, 0, 0];
    while (i < values.length || j < waiting.length) {
      const next = waiting[j];
      const mainFirst =
        next === undefined ||
        (i < values.length && (compare(values[i], next.value) || (seqs[i] as number) - next.seq) < 0);
      if (mainFirst) {
        mergedValues[at] = values[i];
        mergedKeys[at] = keys[i];
        mergedSeqs[at++] = seqs[i++];
      } else {
        mergedValues[at] = next.value;
        mergedKeys[at] = next.docKey;
        mergedSeqs[at++] = next.seq;
        j++;
      }
    }
    [this.#values, this.#keys, this.#seqs] = [mergedValues, mergedKeys, mergedSeqs];
  }

  /** The entries added out of order while adding many, sorted and merged into the waiting ones. */
  #sortUnsorted(): void {
    const unsorted = this.#unsorted;
    if (unsorted.length === 0) return;
    this.#unsorted = [];
    sortEntries(unsorted);
    this.#pending = this.#pending.length === 0 ? unsorted : mergedEntries(this.#pending, unsorted);
  }

  /** Whether the waiting entries are many enough to merge (see {@link OrderedIndexTuning}). */
  #pendingFull(): boolean {
    return this.#pending.length >= Math.max(this.tuning.pendingAtLeast, Math.sqrt(this.#values.length));
  }

  /**
   * Runs `add`s (`adds`, a batch) in bulk: each entry that sorts inside the index waits as it
   * came, and the waiting ones are sorted and merged in one pass once they number a quarter of
   * the index (or before it is next read), so a large import of keys in random order moves each
   * entry a few times, not once per batch (entries spliced in one by one, or merged every
   * square root of the index's size: a million random string ids took 37 s).
   */
  addingMany<T>(adds: () => T): T {
    if (this.#many) return adds();
    this.#many = true;
    try {
      return adds();
    } finally {
      this.#many = false;
      const waiting = this.#unsorted.length + this.#pending.length;
      if (waiting >= Math.max(this.tuning.pendingAtLeast, this.#values.length / 4)) this.#merge();
    }
  }

  /**
   * The insertion sequence of the entry of `docKey`, whose value at the field is `value` (not an
   * array), found by binary search; `undefined` when there is none.
   */
  sequenceOf(docKey: string, value: unknown): number | undefined {
    this.#sortUnsorted();
    const pending = this.#pending;
    for (
      let at = firstNotBefore(
        pending.length,
        (i) => compareValues((pending[i] as IndexEntry).value, value) < 0,
      );
      at < pending.length;
      at++
    ) {
      const entry = pending[at] as IndexEntry;
      if (entry.docKey === docKey) return entry.seq;
      if (compareValues(entry.value, value) !== 0) break;
    }
    const values = this.#values;
    for (
      let at = firstNotBefore(values.length, (i) => compareValues(values[i], value) < 0);
      at < values.length;
      at++
    ) {
      if (this.#keys[at] === docKey) return this.#seqs[at];
      if (compareValues(values[at], value) !== 0) break;
    }
    return undefined;
  }

  /** Where `entry` of `docKey` is kept now (waiting, or in the columns) and its position there; `undefined` when in neither. */
  #find(docKey: string, entry: IndexEntry): { waiting: boolean; at: number } | undefined {
    this.#sortUnsorted();
    if (this.#pendingFull()) this.#merge();
    const pending = this.#pending;
    if (pending.length > 0) {
      const at = positionIn(pending, entry);
      if (pending[at]?.docKey === docKey) return { waiting: true, at };
    }
    const at = this.#positionOf(entry);
    return this.#keys[at] === docKey ? { waiting: false, at } : undefined;
  }

  add(docKey: string, doc: Document, seq: number): void {
    const entry = this.#entryOf(docKey, doc, seq);
    if (entry === undefined) {
      this.#multikey.add(docKey);
      return;
    }
    const last = this.#values.length - 1;
    // Increasing values (ObjectIds, counters, timestamps) append.
    if (last < 0 || this.#before(last, entry)) {
      this.#values.push(entry.value);
      this.#keys.push(docKey);
      this.#seqs.push(seq);
      return;
    }
    if (this.#many) {
      this.#unsorted.push(entry);
      return;
    }
    const pending = this.#pending;
    if (pending.length === 0 && this.#values.length <= this.tuning.spliceAtMost) {
      this.#insertAt(this.#positionOf(entry), entry);
      return;
    }
    pending.splice(positionIn(pending, entry), 0, entry);
    if (this.#pendingFull()) this.#merge();
  }

  remove(docKey: string, doc: Document, seq: number): void {
    const entry = this.#entryOf(docKey, doc, seq);
    if (entry === undefined) {
      this.#multikey.delete(docKey);
      return;
    }
    const found = this.#find(docKey, entry);
    if (found?.waiting) this.#pending.splice(found.at, 1);
    else if (found) this.#removeAt(found.at);
  }

  /**
   * Moves `docKey` from its entry for `before` to one for `after`: in place when the value sorts
   * the same (an update that leaves the field alone), so no entry shifts.
   */
  move(docKey: string, before: Document, after: Document, seq: number): void {
    const old = this.#entryOf(docKey, before, seq);
    const next = this.#entryOf(docKey, after, seq);
    if (old !== undefined && next !== undefined && compareValues(old.value, next.value) === 0) {
      const found = this.#find(docKey, old);
      if (found?.waiting) {
        this.#pending[found.at] = next;
        return;
      }
      if (found) {
        this.#values[found.at] = next.value;
        return;
      }
    }
    this.remove(docKey, before, seq);
    this.add(docKey, after, seq);
  }

  /**
   * Removes the documents of `removed`: one by one when they are few, otherwise found by binary
   * search and closed up in one pass from the first of them, so no entry shifts twice.
   */
  removeAll(removed: ReadonlyArray<[docKey: string, doc: Document, seq: number]>): void {
    this.#merge();
    if (removed.length <= REMOVE_ONE_BY_ONE_AT_MOST) {
      for (const [docKey, doc, seq] of removed) this.remove(docKey, doc, seq);
      return;
    }
    const positions: number[] = [];
    for (const [docKey, doc, seq] of removed) {
      const entry = this.#entryOf(docKey, doc, seq);
      if (entry === undefined) {
        this.#multikey.delete(docKey);
        continue;
      }
      const at = this.#positionOf(entry);
      if (this.#keys[at] === docKey) positions.push(at);
    }
    if (positions.length === 0) return;
    positions.sort((a, b) => a - b);
    const [values, keys, seqs] = [this.#values, this.#keys, this.#seqs];
    let kept = positions[0] as number;
    let next = 0;
    for (let at = kept; at < values.length; at++) {
      if (at === positions[next]) {
        next++;
        continue;
      }
      values[kept] = values[at];
      keys[kept] = keys[at] as string;
      seqs[kept++] = seqs[at] as number;
    }
    values.length = kept;
    keys.length = kept;
    seqs.length = kept;
  }

  /** The positions `[from, to)` of the entries within `range`. */
  span(range: Range): [number, number] {
    this.#merge();
    const { rank, lower, upper } = range;
    const values = this.#values;
    const from = firstNotBefore(values.length, (at) => {
      const value = values[at];
      if (lower === undefined) return typeRank(value) < rank;
      const sign = compareValues(value, lower.value);
      return lower.inclusive ? sign < 0 : sign <= 0;
    });
    const to = firstNotBefore(values.length, (at) => {
      const value = values[at];
      if (upper === undefined) return typeRank(value) <= rank;
      const sign = compareValues(value, upper.value);
      return upper.inclusive ? sign <= 0 : sign < 0;
    });
    return [from, Math.max(from, to)];
  }

  /** The positions `[from, to)` of the entries whose type rank lies in `[low, high]`. */
  rankSpan(low: number, high: number): [number, number] {
    this.#merge();
    const values = this.#values;
    const from = firstNotBefore(values.length, (at) => typeRank(values[at]) < low);
    const to = firstNotBefore(values.length, (at) => typeRank(values[at]) <= high);
    return [from, Math.max(from, to)];
  }

  /** Every position: the whole index. */
  all(): [number, number] {
    this.#merge();
    return [0, this.#values.length];
  }
}

/** Type brackets a range may be answered in: ones whose values the index orders as the operators compare. */
export const RANGE_RANKS: ReadonlySet<number> = new Set([
  RANK.number,
  RANK.string,
  RANK.objectId,
  RANK.boolean,
  RANK.date,
]);
