/**
 * A scan of the embedded engine in slices (`work.ts`): documents tested one by one against a
 * compiled filter, each match handed on, a pause whenever a slice is over. A scan that ends
 * within its first slice returns no promise at all (the common, small case pays nothing).
 */
import type { Document } from '@store/common';
import type { CompiledFilter } from './compile-filter';
import type { Work } from './work';

/** A stored document with its key in the collection. */
export type Entry = [key: string, doc: Document];

/** What to do with a match: true to stop the scan there. */
export type Matched = (entry: Entry) => boolean;

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
    work.examine();
    if (compiled.test(step.value[1]) && matched(step.value)) return 'done';
    if (work.tick()) return 'due';
  }
  return 'done';
}

/**
 * Tests the documents of `source` against `compiled` in slices of `work`, handing each match to
 * `matched`; a promise only when the scan pauses. `source` is an array (taken when the operation
 * began) or a collection's own map: then what is left of it is copied (references only) before
 * the first pause, so the scan sees each document once, as it was when the operation began,
 * whatever other callers write meanwhile (documents are never changed in place).
 */
export function scanInSlices(
  source: Iterable<Entry>,
  compiled: CompiledFilter,
  work: Work,
  matched: Matched,
): Promise<void> | undefined {
  const entries = source[Symbol.iterator]();
  if (scanSlice(entries, compiled, work, matched) === 'done') return undefined;
  let rest: Iterator<Entry> = entries;
  if (!Array.isArray(source)) {
    const copy: Entry[] = [];
    for (let next = entries.next(); !next.done; next = entries.next()) copy.push(next.value);
    rest = copy[Symbol.iterator]();
  }
  return (async () => {
    do await work.pause();
    while (scanSlice(rest, compiled, work, matched) === 'due');
  })();
}
