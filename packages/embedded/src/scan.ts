/**
 * A scan of the embedded engine in slices (`work.ts`): documents tested one by one against a
 * compiled filter, each match handed on, a pause whenever a slice is over. A scan that ends
 * within its first slice returns no promise at all (the common, small case pays nothing).
 */
import type { Document } from '@store/common';
import type { CompiledFilter } from './compile-filter';
import { resumeInSlices, type Work } from './work';

/** A stored document with its key in the collection. */
export type Entry = [key: string, doc: Document];

/** What to do with a match: true to stop the scan there. (Its key, if needed, is `idKey(doc._id)`.) */
export type Matched = (doc: Document) => boolean;

/**
 * Tests `entries` against `compiled` until they run out or `matched` asks to stop (`done`), or
 * the slice of `work` is over (`due`). A plain function: a loop in an async function resumed
 * after a pause would run unoptimized for a while.
 */
function scanSlice(
  entries: Iterator<Entry>,
  compiled: CompiledFilter,
  work: Work,
  matched: Matched,
): 'done' | 'due' {
  for (let step = entries.next(); !step.done; step = entries.next()) {
    const doc = step.value[1];
    work.examine();
    if (compiled.test(doc) && matched(doc)) return 'done';
    if (work.tick()) return 'due';
  }
  return 'done';
}

/**
 * A scan of a collection's map: its documents, by the map's own iterator while the map stays as
 * it is, then from `rest`, what was left when the map changed under the paused scan
 * ({@link PausedScans}): references only, not an entry per document.
 */
interface MapWalk {
  readonly docs: IterableIterator<Document>;
  rest: { readonly docs: Document[]; at: number } | undefined;
}

/**
 * {@link scanSlice} over a map's documents. A `for...of` over the map's iterator, left by
 * `return` and resumed by the next slice (a map iterator has no `return` to close it): V8
 * allocates nothing per document there, where calling `next()` allocates a result per document,
 * garbage whose collections cost more the larger the heap.
 */
function scanMapSlice(walk: MapWalk, compiled: CompiledFilter, work: Work, matched: Matched): 'done' | 'due' {
  const { rest } = walk;
  if (rest !== undefined) {
    while (rest.at < rest.docs.length) {
      const doc = rest.docs[rest.at++] as Document;
      work.examine();
      if (compiled.test(doc) && matched(doc)) return 'done';
      if (work.tick()) return 'due';
    }
    return 'done';
  }
  for (const doc of walk.docs) {
    work.examine();
    if (compiled.test(doc) && matched(doc)) return 'done';
    if (work.tick()) return 'due';
  }
  return 'done';
}

/**
 * The scans of one collection's map that paused before its end. While the map stays as it is, a
 * scan walks on with its live iterator (no copy: a read-only load copies nothing); just before
 * the collection changes the map in place (an insert, a replacement, a removal), each copies
 * what it has left to read (references only), so it still sees each document once, as it was
 * when its operation began. A map the collection replaces whole (a drop, an open) is never
 * changed again: a scan of it needs no copy.
 */
export class PausedScans {
  readonly #walks = new Set<MapWalk>();

  /** Called by the collection before it changes its map in place, or hands it to another owner. */
  beforeChange(): void {
    if (this.#walks.size === 0) return;
    for (const walk of this.#walks) walk.rest = { docs: Array.from(walk.docs), at: 0 };
    this.#walks.clear();
  }

  add(walk: MapWalk): void {
    this.#walks.add(walk);
  }

  delete(walk: MapWalk): void {
    this.#walks.delete(walk);
  }
}

/**
 * Tests the documents of `source` against `compiled` in slices of `work`, handing each match to
 * `matched`; a promise only when the scan pauses. `source` is an array (taken when the operation
 * began) or a collection's own map, whose `paused` scans copy what they have left before the
 * collection changes it ({@link PausedScans}): either way the scan sees each document once, as
 * it was when the operation began, whatever other callers write meanwhile (documents are never
 * changed in place).
 */
export function scanInSlices(
  source: readonly Entry[] | Map<string, Document>,
  compiled: CompiledFilter,
  work: Work,
  matched: Matched,
  paused?: PausedScans,
): Promise<void> | undefined {
  if (!(source instanceof Map)) {
    const entries = source[Symbol.iterator]();
    if (scanSlice(entries, compiled, work, matched) === 'done') return undefined;
    return resumeInSlices(work, () => scanSlice(entries, compiled, work, matched) === 'done');
  }
  const walk: MapWalk = { docs: source.values(), rest: undefined };
  if (scanMapSlice(walk, compiled, work, matched) === 'done') return undefined;
  if (paused === undefined) throw new Error('a scan of a collection map needs its PausedScans');
  paused.add(walk);
  const step = () => scanMapSlice(walk, compiled, work, matched) === 'done';
  return resumeInSlices(work, step).finally(() => paused.delete(walk));
}
