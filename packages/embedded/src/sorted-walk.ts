/**
 * A sorted page read from an ordered index: the documents of a span in sort order, tested one
 * by one, stopping once the page is full. Ties on the index's field are ordered by the other
 * sort keys, then insertion order (in either direction), as the sort would order them. It runs
 * in slices (`work.ts`): before its first pause it copies what is left of the span (the index's
 * entries move when documents are written), so it reads the collection as it was when it began.
 *
 * A walk pays off when matches come early; for a filter few documents match it tests them all in
 * index order, several times slower than a scan. So it gives up after `trial` entries without a
 * full page (answering `undefined`): the caller scans and sorts instead, having spent at most
 * that trial.
 */
import type { Document } from '@store/common';
import { compareValues } from './bson-order';
import type { OrderedIndex } from './ordered-index';
import { sortDocuments } from './sort-documents';
import { resumeInSlices, type Work } from './work';

/** What a sorted walk reads and keeps. */
export interface SortedWalk {
  index: OrderedIndex;
  /** The positions `[from, to)` of the index that can match. */
  span: [number, number];
  direction: 1 | -1;
  /** How many documents the page needs (skip + limit). */
  need: number;
  /** The sort keys after the index's field, ordering its ties. */
  rest: Record<string, 1 | -1> | undefined;
  /** The collection's documents by key. */
  docs: ReadonlyMap<string, Document>;
  test: (doc: Document) => boolean;
  /** Entries walked without filling the page after which the walk gives up. */
  trial: number;
  /** No two entries hold equal values (`_id`): no ties to group. */
  unique: boolean;
}

/** An entry of the walk, its document read when the walk copied it. */
interface Copied {
  value: unknown;
  doc: Document | undefined;
}

/**
 * The first `need` documents of the walk (see the module comment), sort order; `undefined` once
 * past its trial. A promise only when the walk pauses.
 */
export function walkSorted(
  walk: SortedWalk,
  work: Work,
): Document[] | undefined | Promise<Document[] | undefined> {
  const { index, direction, need, rest, docs, test, trial, unique } = walk;
  const [from, to] = walk.span;
  const count = to - from;
  const { values, keys } = index.columns;
  const at = (k: number): number => (direction === 1 ? from + k : to - 1 - k);
  let copied: Copied[] | undefined;
  let copiedFrom = 0;
  const out: Document[] = [];
  let group: Document[] = [];
  let groupValue: unknown;
  const flush = () => {
    // Walking down, a group of ties arrives last-inserted first.
    if (direction === -1) group.reverse();
    for (const doc of rest !== undefined && group.length > 1 ? sortDocuments(group, rest) : group)
      out.push(doc);
    group = [];
  };
  let k = 0;
  let gaveUp = false;
  /** Walks on until the page is full, the span ends or the trial is over (true), or the slice is over (false). */
  const step = (): boolean => {
    for (; k < count; k++) {
      if (k >= trial && out.length < need) {
        gaveUp = true;
        return true;
      }
      let value: unknown;
      let doc: Document | undefined;
      if (copied === undefined) {
        const position = at(k);
        value = values[position];
        doc = docs.get(keys[position] as string);
      } else {
        ({ value, doc } = copied[k - copiedFrom] as Copied);
      }
      if (unique) {
        // Each entry is a group of its own: no comparison with the one before.
        if (doc !== undefined) {
          work.examine();
          if (test(doc) && out.push(doc) >= need) return true;
        }
      } else {
        if (k === 0) groupValue = value;
        else if (compareValues(value, groupValue) !== 0) {
          flush();
          if (out.length >= need) return true;
          groupValue = value;
        }
        if (doc !== undefined) {
          work.examine();
          if (test(doc)) group.push(doc);
        }
      }
      if (work.tick()) {
        k += 1;
        if (k >= count) break;
        if (copied === undefined) {
          copied = [];
          for (let j = k; j < count; j++) {
            const position = at(j);
            copied.push({ value: values[position], doc: docs.get(keys[position] as string) });
          }
          copiedFrom = k;
        }
        return false;
      }
    }
    flush();
    return true;
  };
  const answer = () => (gaveUp ? undefined : out.slice(0, need));
  return step() ? answer() : resumeInSlices(work, step).then(answer);
}
