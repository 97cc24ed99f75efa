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
export interface IndexEntry {
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

type CompareEntries = (a: IndexEntry, b: IndexEntry) => number;

/** {@link compareEntries}, two strings compared at once (`_id`s mostly are). */
const compareByStrings: CompareEntries = (a, b) =>
  typeof a.value === 'string' && typeof b.value === 'string'
    ? compareStrings(a.value, b.value) || a.seq - b.seq
    : compareEntries(a, b);

function inOrder(entries: readonly IndexEntry[], compare: CompareEntries): boolean {
  for (let i = 1; i < entries.length; i++) {
    if (compare(entries[i - 1] as IndexEntry, entries[i] as IndexEntry) > 0) return false;
  }
  return true;
}

/**
 * Entries (of `entries` and `more`) whose values are all strings, all numbers or all dates
 * compared without going through {@link compareValues} (the same order: strings by code point,
 * numbers by value with NaN first), and all ObjectIds by their bytes (the order of their hex
 * strings).
 */
function sameKindComparator(
  entries: readonly IndexEntry[],
  more: readonly IndexEntry[] = [],
): CompareEntries | undefined {
  const first = (entries[0] ?? more[0])?.value;
  const every = (test: (entry: IndexEntry) => boolean) => entries.every(test) && more.every(test);
  if (typeof first === 'string') {
    if (!every(({ value }) => typeof value === 'string')) return undefined;
    // Without a unit from U+D800 up, UTF-16 order (the native one) is code point order.
    if (!every(({ value }) => !HIGH_UNITS.test(value as string))) {
      return (a, b) => compareStrings(a.value as string, b.value as string) || a.seq - b.seq;
    }
    return (a, b) => {
      const [x, y] = [a.value as string, b.value as string];
      return x < y ? -1 : x > y ? 1 : a.seq - b.seq;
    };
  }
  if (typeof first === 'number') {
    if (!every(({ value }) => typeof value === 'number')) return undefined;
    return (a, b) => compareNumbers(a.value as number, b.value as number) || a.seq - b.seq;
  }
  if (first instanceof Date) {
    if (!every(({ value }) => value instanceof Date)) return undefined;
    return (a, b) =>
      compareNumbers((a.value as Date).getTime(), (b.value as Date).getTime()) || a.seq - b.seq;
  }
  if (isObjectId(first)) {
    if (!every(({ value }) => isObjectId(value))) return undefined;
    return (a, b) => Buffer.compare((a.value as ObjectId).id, (b.value as ObjectId).id) || a.seq - b.seq;
  }
  return undefined;
}

/** Sorts `entries` as {@link compareEntries} orders them: at once when they are in order already (increasing ids). */
function sortEntries(entries: IndexEntry[]): void {
  const compare = sameKindComparator(entries) ?? compareEntries;
  if (!inOrder(entries, compare)) entries.sort(compare);
}

/** The first position in `entries` (up to `end`) at which `before` is false (`before` holds for a prefix). */
function firstNotBefore(
  entries: readonly IndexEntry[],
  before: (entry: IndexEntry) => boolean,
  end = entries.length,
): number {
  let [low, high] = [0, end];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(entries[middle] as IndexEntry)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Waiting entries past this many are merged in one linear pass into a new array, not placed one by one. */
const MERGE_IN_PLACE_AT_MOST = 1024;

/** The sorted `entries` and `waiting` as one sorted array; a waiting entry goes before a main one it ties with (as placed one by one). */
function mergedEntries(entries: readonly IndexEntry[], waiting: readonly IndexEntry[]): IndexEntry[] {
  const compare = sameKindComparator(entries, waiting) ?? compareEntries;
  const merged: IndexEntry[] = new Array(entries.length + waiting.length);
  let [i, j, at] = [0, 0, 0];
  while (i < entries.length && j < waiting.length) {
    const [main, next] = [entries[i] as IndexEntry, waiting[j] as IndexEntry];
    if (compare(main, next) < 0) {
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

/**
 * The entries are one sorted array, read by position. An entry that sorts last (increasing ids,
 * counters, timestamps) is appended. In a large index, one that sorts inside waits in a small
 * sorted array of its own, and those are merged into the main one in one pass once they are
 * many, or before the index is next read: inserting random keys one by one would otherwise shift
 * half the array each time (100,000 random string ids took 76 µs each, a million minutes).
 */
export class OrderedIndex {
  readonly field: string;
  #entries: IndexEntry[] = [];
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
    for (const [docKey, doc] of docs) {
      const entry = this.#entryOf(docKey, doc, seqOf(docKey, doc));
      if (entry === undefined) this.#multikey.add(docKey);
      else this.#entries.push(entry);
    }
    sortEntries(this.#entries);
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
    const read: IndexEntry[] = [];
    let seq = first;
    for (const [docKey, doc] of docs) {
      const entry = index.#entryOf(docKey, doc, seq++);
      if (entry === undefined) index.#multikey.add(docKey);
      else read.push(entry);
    }
    // Arrays at the field (never at `_id`) leave the places pointing past the entries: sorted instead.
    const placed = places !== undefined && index.#multikey.size === 0 && read.length === places.length;
    index.#entries = placed ? Array.from(places, (place) => read[place] as IndexEntry) : read;
    // The places are checked, not trusted: one comparison per entry, a sort when they are wrong.
    if (!placed || !inOrder(index.#entries, compareByStrings)) sortEntries(index.#entries);
    return index;
  }

  /** How many documents the index holds (entries, waiting or not, and arrays). */
  get size(): number {
    return this.#entries.length + this.#pending.length + this.#unsorted.length + this.#multikey.size;
  }

  /** Keys of the documents holding an array at the field (always candidates). */
  get multikey(): ReadonlySet<string> {
    return this.#multikey;
  }

  get entries(): readonly IndexEntry[] {
    this.#merge();
    return this.#entries;
  }

  /** `doc`'s entry, or `undefined` (kept in {@link multikey} instead) when it holds an array there. */
  #entryOf(docKey: string, doc: Document, seq: number): IndexEntry | undefined {
    const value = doc[this.field];
    return Array.isArray(value) ? undefined : { value, docKey, seq };
  }

  /** The position of `entry` in `entries` (the main ones by default), or of where it belongs. */
  #positionOf(entry: IndexEntry, entries: IndexEntry[] = this.#entries): number {
    return firstNotBefore(entries, (at) => compareEntries(at, entry) < 0);
  }

  /**
   * Merges the waiting entries into the main array, in place from its end: each waiting entry's
   * place is found by binary search, and the main entries after it move up as one block (no
   * comparison per entry moved).
   */
  #merge(): void {
    this.#sortUnsorted();
    const pending = this.#pending;
    if (pending.length === 0) return;
    if (pending.length > MERGE_IN_PLACE_AT_MOST) {
      this.#entries = mergedEntries(this.#entries, pending);
      this.#pending = [];
      return;
    }
    const entries = this.#entries;
    let end = entries.length;
    // Room at the end, filled with entries (each slot is written again below): no holes.
    for (const waiting of pending) entries.push(waiting);
    for (let j = pending.length - 1; j >= 0; j--) {
      const waiting = pending[j] as IndexEntry;
      const at = firstNotBefore(entries, (entry) => compareEntries(entry, waiting) < 0, end);
      // A plain loop: copyWithin on an array of objects moves them far slower.
      for (let from = end - 1; from >= at; from--) entries[from + j + 1] = entries[from] as IndexEntry;
      entries[at + j] = waiting;
      end = at;
    }
    this.#pending = [];
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
    return this.#pending.length >= Math.max(this.tuning.pendingAtLeast, Math.sqrt(this.#entries.length));
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
      if (waiting >= Math.max(this.tuning.pendingAtLeast, this.#entries.length / 4)) this.#merge();
    }
  }

  /**
   * The insertion sequence of the entry of `docKey`, whose value at the field is `value` (not an
   * array), found by binary search; `undefined` when there is none.
   */
  sequenceOf(docKey: string, value: unknown): number | undefined {
    this.#sortUnsorted();
    for (const entries of [this.#pending, this.#entries]) {
      let at = firstNotBefore(entries, (entry) => compareValues(entry.value, value) < 0);
      for (; at < entries.length; at++) {
        const entry = entries[at] as IndexEntry;
        if (entry.docKey === docKey) return entry.seq;
        if (compareValues(entry.value, value) !== 0) break;
      }
    }
    return undefined;
  }

  /** Where `entry` is kept now, and its position there; `undefined` when it is in neither array. */
  #find(docKey: string, entry: IndexEntry): { entries: IndexEntry[]; at: number } | undefined {
    this.#sortUnsorted();
    if (this.#pendingFull()) this.#merge();
    for (const entries of [this.#pending, this.#entries]) {
      if (entries.length === 0) continue;
      const at = this.#positionOf(entry, entries);
      if (entries[at]?.docKey === docKey) return { entries, at };
    }
    return undefined;
  }

  add(docKey: string, doc: Document, seq: number): void {
    const entry = this.#entryOf(docKey, doc, seq);
    if (entry === undefined) {
      this.#multikey.add(docKey);
      return;
    }
    const last = this.#entries.at(-1);
    // Increasing values (ObjectIds, counters, timestamps) append.
    if (last === undefined || compareEntries(last, entry) < 0) {
      this.#entries.push(entry);
      return;
    }
    if (this.#many) {
      this.#unsorted.push(entry);
      return;
    }
    const pending = this.#pending;
    if (pending.length === 0 && this.#entries.length <= this.tuning.spliceAtMost) {
      this.#entries.splice(this.#positionOf(entry), 0, entry);
      return;
    }
    pending.splice(this.#positionOf(entry, pending), 0, entry);
    if (this.#pendingFull()) this.#merge();
  }

  remove(docKey: string, doc: Document, seq: number): void {
    const entry = this.#entryOf(docKey, doc, seq);
    if (entry === undefined) {
      this.#multikey.delete(docKey);
      return;
    }
    const found = this.#find(docKey, entry);
    found?.entries.splice(found.at, 1);
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
      if (found !== undefined) {
        found.entries[found.at] = next;
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
      if (this.#entries[at]?.docKey === docKey) positions.push(at);
    }
    if (positions.length === 0) return;
    positions.sort((a, b) => a - b);
    const entries = this.#entries;
    let kept = positions[0] as number;
    let next = 0;
    for (let at = kept; at < entries.length; at++) {
      if (at === positions[next]) next++;
      else entries[kept++] = entries[at] as IndexEntry;
    }
    entries.length = kept;
  }

  /** The positions `[from, to)` of the entries within `range`. */
  span(range: Range): [number, number] {
    this.#merge();
    const { rank, lower, upper } = range;
    const from = firstNotBefore(this.#entries, ({ value }) => {
      if (lower === undefined) return typeRank(value) < rank;
      const sign = compareValues(value, lower.value);
      return lower.inclusive ? sign < 0 : sign <= 0;
    });
    const to = firstNotBefore(this.#entries, ({ value }) => {
      if (upper === undefined) return typeRank(value) <= rank;
      const sign = compareValues(value, upper.value);
      return upper.inclusive ? sign <= 0 : sign < 0;
    });
    return [from, Math.max(from, to)];
  }

  /** The positions `[from, to)` of the entries whose type rank lies in `[low, high]`. */
  rankSpan(low: number, high: number): [number, number] {
    this.#merge();
    const from = firstNotBefore(this.#entries, ({ value }) => typeRank(value) < low);
    const to = firstNotBefore(this.#entries, ({ value }) => typeRank(value) <= high);
    return [from, Math.max(from, to)];
  }

  /** Every position: the whole index. */
  all(): [number, number] {
    this.#merge();
    return [0, this.#entries.length];
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
