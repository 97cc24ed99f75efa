import type { OrderedIndex } from '../../src/ordered-index';

/** The entries of `index` in its order, one `{ value, docKey, seq }` each, read from its columns. */
export function entriesOf(index: OrderedIndex) {
  const { values, keys, seqs } = index.columns;
  return values.map((value, at) => ({ value, docKey: keys[at] as string, seq: seqs[at] as number }));
}
