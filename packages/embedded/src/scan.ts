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
  read: { count: number } = { count: 0 },
): 'done' | 'due' {
  for (let step = entries.next(); !step.done; step = entries.next()) {
    read.count++;
    work.examine();
    if (compiled.test(step.value[1]) && matched(step.value)) return 'done';
    if (work.tick()) return 'due';
  }
  return 'done';
}

/**
 * What is left of a collection's map at a scan's first pause: its keys and documents in two
 * arrays (references only), not an entry per document, which a scan of a million documents would
 * keep alive across its pauses (tens of megabytes for the garbage collector to copy, each scan).
 */
interface Rest {
  readonly keys: string[];
  readonly docs: Document[];
  at: number;
}

/** {@link scanSlice} over `rest`: an entry is made only for a document that matches. */
function scanRestSlice(rest: Rest, compiled: CompiledFilter, work: Work, matched: Matched): 'done' | 'due' {
  const { keys, docs } = rest;
  while (rest.at < docs.length) {
    const at = rest.at++;
    const doc = docs[at] as Document;
    work.examine();
    if (compiled.test(doc) && matched([keys[at] as string, doc])) return 'done';
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
  source: readonly Entry[] | Map<string, Document>,
  compiled: CompiledFilter,
  work: Work,
  matched: Matched,
): Promise<void> | undefined {
  const entries = source instanceof Map ? source.entries() : source[Symbol.iterator]();
  const read = { count: 0 };
  if (scanSlice(entries, compiled, work, matched, read) === 'done') return undefined;
  if (!(source instanceof Map)) {
    return resumeInSlices(work, () => scanSlice(entries, compiled, work, matched) === 'done');
  }
  // Copied by the engine's own array builders (no entry per document), the first `read` skipped.
  const rest: Rest = { keys: Array.from(source.keys()), docs: Array.from(source.values()), at: read.count };
  return resumeInSlices(work, () => scanRestSlice(rest, compiled, work, matched) === 'done');
}
