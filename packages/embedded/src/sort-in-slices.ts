/**
 * Sorting that never holds the event loop for much more than a slice (`work.ts`): runs of a few
 * hundred items are sorted at once, then merged pairwise (bottom-up merge sort), pausing between
 * slices. Stable, and in exactly the order the one-go sorts give (`sortDocuments`), so a page
 * does not depend on how the work was cut.
 */
import type { Document } from '@store/common';
import {
  type Column,
  keepIfAmongFirst,
  nativeColumn,
  positionOrder,
  readColumn,
  selectsFirst,
  sortDocuments,
  type ValueOrder,
} from './sort-documents';
import { runInSlices, type Work } from './work';

/** Items sorted in one go: a run of the merge sort, or the whole input when it is this small. */
const RUN = 512;
/** Documents sorted in one go by `sortDocuments` (well within a slice). */
export const SORT_AT_ONCE = 1024;
/** Documents whose first few are selected (top-k, one comparison for most) in one go. */
const SELECT_AT_ONCE = 4096;

/** A bottom-up merge under way: runs of `width` in `from` merged pairwise into `to`, the pair at `low` up to `k`. */
interface Merge<T> {
  from: T[];
  to: T[];
  width: number;
  low: number;
  /** Whether the pair at `low` is yet to start. */
  fresh: boolean;
  k: number;
  left: number;
  right: number;
}

/** Goes on with merge `m` until it is done (true) or the slice of `work` is over (false). */
function mergeSome<T>(m: Merge<T>, compare: (a: T, b: T) => number, work: Work): boolean {
  const length = m.from.length;
  while (m.width < length) {
    for (; m.low < length; m.low += 2 * m.width, m.fresh = true) {
      const middle = Math.min(m.low + m.width, length);
      const high = Math.min(m.low + 2 * m.width, length);
      if (m.fresh) {
        [m.k, m.left, m.right, m.fresh] = [m.low, m.low, middle, false];
      }
      const { from, to } = m;
      let { k, left, right } = m;
      while (k < high) {
        // The right item goes first only when strictly before the left one: stable.
        const takeRight = left >= middle || (right < high && compare(from[right] as T, from[left] as T) < 0);
        to[k++] = (takeRight ? from[right++] : from[left++]) as T;
        if (work.tick()) {
          [m.k, m.left, m.right] = [k, left, right];
          return false;
        }
      }
    }
    [m.from, m.to] = [m.to, m.from];
    m.width *= 2;
    m.low = 0;
    m.fresh = true;
  }
  return true;
}

/**
 * `items` sorted by `compare`, stable (equal items keep their order, a comparison that is not
 * a number counting as equal). Sorts `items` itself when it is one run, a copy otherwise.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, work: Work): Promise<T[]> {
  const length = items.length;
  if (length <= RUN) return items.sort(compare);
  for (let low = 0; low < length; low += RUN) {
    const run = items.slice(low, low + RUN).sort(compare);
    for (let k = 0; k < run.length; k++) items[low + k] = run[k] as T;
    if (work.due()) await work.pause();
  }
  const m: Merge<T> = {
    from: items,
    to: new Array(length),
    width: RUN,
    low: 0,
    fresh: true,
    k: 0,
    left: 0,
    right: 0,
  };
  await runInSlices(work, () => mergeSome(m, compare, work));
  return m.from;
}

/** The native column of `field` in `docs` (see `sortDocuments`), read in slices. */
async function columnInSlices(
  docs: readonly Document[],
  field: string,
  work: Work,
): Promise<Column | undefined> {
  const column: unknown[] = [];
  const kinds = { strings: 0, numbers: 0 };
  for (let from = 0; from < docs.length; from += RUN) {
    readColumn(docs, field, from, RUN, column, kinds);
    if (work.due()) await work.pause();
  }
  return nativeColumn(column, docs.length, kinds);
}

/** `docs` sorted as `sortDocuments` sorts them (only the first `count` when given; by `by` under a collation), in slices. */
export async function sortDocumentsInSlices(
  docs: readonly Document[],
  sort: Readonly<Record<string, 1 | -1>>,
  count: number | undefined,
  work: Work,
  by?: ValueOrder,
): Promise<Document[]> {
  const selects = selectsFirst(docs.length, count);
  if (docs.length <= (selects ? SELECT_AT_ONCE : SORT_AT_ONCE)) return sortDocuments(docs, sort, count, by);
  const columns: Array<Column | undefined> = [];
  for (const field of Object.keys(sort))
    columns.push(by ? undefined : await columnInSlices(docs, field, work));
  const order = positionOrder(docs, sort, columns, by);
  let positions: number[];
  if (selects) {
    const best: number[] = [];
    let i = 0;
    await runInSlices(work, () => {
      while (i < docs.length) {
        keepIfAmongFirst(best, i++, count as number, order);
        if (work.tick()) return i >= docs.length;
      }
      return true;
    });
    positions = best;
  } else {
    positions = await sortInSlices(
      Array.from({ length: docs.length }, (_, i) => i),
      order,
      work,
    );
  }
  return positions.map((i) => docs[i] as Document);
}
