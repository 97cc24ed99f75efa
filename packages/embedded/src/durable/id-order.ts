/**
 * The order of a collection's `_id` index, kept in a snapshot so that opening it does not sort
 * the index again. The snapshot records the insertion sequence of each document in `_id` order
 * (8 bytes each, little-endian doubles); a document's sequence grows with its place in the
 * collection, so the sequences' ranks are the documents' places in the order they are read
 * back. Opening trusts none of it: the places must form a permutation of the documents read,
 * and the index checks that the entries it builds from them are in order (sorting them when
 * they are not).
 */

/** Sequences spread over fewer than this many times their count are ranked by counting (one pass), others by sorting. */
const COUNTED_SPREAD = 8;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The record's bytes for `sequences`, the `_id` index's entries' insertion sequences in its order. */
export function encodeIdOrder(sequences: readonly number[]): Buffer {
  const bytes = Buffer.allocUnsafe(sequences.length * 8);
  for (let i = 0; i < sequences.length; i++) bytes.writeDoubleLE(sequences[i] as number, i * 8);
  return bytes;
}

/** The sequences `bytes` hold (little-endian doubles). */
function sequencesOf(bytes: Uint8Array, size: number): Float64Array {
  if (LITTLE_ENDIAN) return new Float64Array(Uint8Array.from(bytes).buffer, 0, size);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Float64Array.from({ length: size }, (_, i) => view.getFloat64(i * 8, true));
}

/** The ranks of `sequences` when they are distinct integers spread over at most a few times their count (counted); otherwise undefined. */
function countedRanks(sequences: Float64Array): Int32Array | undefined {
  let [low, high] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const sequence of sequences) {
    if (!Number.isInteger(sequence)) return undefined;
    if (sequence < low) low = sequence;
    if (sequence > high) high = sequence;
  }
  if (sequences.length === 0 || high - low >= COUNTED_SPREAD * sequences.length) return undefined;
  const below = new Int32Array(high - low + 2);
  for (const sequence of sequences) below[sequence - low + 1] = (below[sequence - low + 1] as number) + 1;
  for (let i = 1; i < below.length; i++) below[i] = (below[i] as number) + (below[i - 1] as number);
  const ranks = new Int32Array(sequences.length);
  for (let i = 0; i < sequences.length; i++) {
    const at = (sequences[i] as number) - low;
    if ((below[at + 1] as number) - (below[at] as number) !== 1) return undefined; // a repeat
    ranks[i] = below[at] as number;
  }
  return ranks;
}

/** The ranks of `sequences` by sorting a copy; undefined unless they are distinct. */
function sortedRanks(sequences: Float64Array): Int32Array | undefined {
  const sorted = sequences.slice().sort();
  for (let i = 1; i < sorted.length; i++) {
    if (!((sorted[i - 1] as number) < (sorted[i] as number))) return undefined; // a repeat, or NaN
  }
  return Int32Array.from(sequences, (sequence) => rankOf(sorted, sequence));
}

/** Where `value` is in `sorted` (ascending, distinct, holding it). */
function rankOf(sorted: Float64Array, value: number): number {
  let [low, high] = [0, sorted.length - 1];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The places (in the order the collection's `size` documents were read) of its documents in
 * `_id` order, from a record's `bytes`; undefined unless they are `size` distinct sequences.
 */
export function idOrderPlaces(bytes: Uint8Array, size: number): Int32Array | undefined {
  if (bytes.length !== size * 8) return undefined;
  const sequences = sequencesOf(bytes, size);
  return countedRanks(sequences) ?? sortedRanks(sequences);
}
