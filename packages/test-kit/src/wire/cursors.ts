/**
 * Server-side cursors of the wire front: the documents a `find` or `aggregate` did not return in
 * its first batch, handed out by `getMore` in batches of `batchSize` until none are left (then
 * the cursor id is 0), or dropped by `killCursors`.
 */
import type { Document } from '@store/common';
import { calculateObjectSize, Long } from 'bson';
import { CommandError } from './errors';

/** MongoDB's first batch when no batchSize is given. */
const DEFAULT_FIRST_BATCH = 101;
const CURSOR_NOT_FOUND = 43;

interface OpenCursor {
  ns: string;
  rest: Document[];
}

/** What `find`, `aggregate` and `getMore` answer under `cursor`. */
export interface CursorReply {
  id: Long;
  ns: string;
  firstBatch?: Document[];
  nextBatch?: Document[];
}

/** A non-negative integer option, or `fallback` when absent. */
export function countOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' && !(value instanceof Long)) {
    throw new CommandError(14, `${name} must be a number`);
  }
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0)
    throw new CommandError(2, `${name} must be a non-negative integer`);
  return count;
}

/** A batch stops before its documents pass this many bytes (MongoDB's 16 MiB reply, less room for the envelope). */
const BATCH_BYTES = 16 * 1024 * 1024 - 16 * 1024;

/** The first documents of `docs`, at most `count`, within a reply's size (at least one). */
function takeBatch(docs: Document[], count: number): Document[] {
  let bytes = 0;
  let taken = 0;
  while (taken < Math.min(count, docs.length)) {
    bytes += calculateObjectSize(docs[taken] as Document);
    if (taken > 0 && bytes > BATCH_BYTES) break;
    taken += 1;
  }
  return docs.splice(0, taken);
}

const idKey = (id: unknown): string => (id instanceof Long ? id.toString() : String(id));

/** The open cursors of one front (shared by its connections, as a server's are). */
export class Cursors {
  readonly #open = new Map<string, OpenCursor>();
  #lastId = 0;

  /** The first batch of `docs`, keeping the rest open unless `singleBatch`. */
  open(ns: string, docs: Document[], options: { batchSize?: unknown; singleBatch?: unknown }): CursorReply {
    const batchSize = countOption(options.batchSize, 'batchSize', DEFAULT_FIRST_BATCH) || DEFAULT_FIRST_BATCH;
    const rest = docs.slice();
    const firstBatch = takeBatch(rest, batchSize);
    if (rest.length === 0 || options.singleBatch === true) return { id: Long.ZERO, ns, firstBatch };
    this.#lastId += 1;
    this.#open.set(String(this.#lastId), { ns, rest });
    return { id: Long.fromNumber(this.#lastId), ns, firstBatch };
  }

  /** The next batch of cursor `id` (all that is left without a batchSize). */
  more(id: unknown, ns: string, batchSize: unknown): CursorReply {
    const key = idKey(id);
    const cursor = this.#open.get(key);
    if (!cursor || cursor.ns !== ns) throw new CommandError(CURSOR_NOT_FOUND, `cursor id ${key} not found`);
    const size = countOption(batchSize, 'batchSize', 0) || cursor.rest.length;
    const nextBatch = takeBatch(cursor.rest, size);
    if (cursor.rest.length > 0) return { id: Long.fromString(key), ns, nextBatch };
    this.#open.delete(key);
    return { id: Long.ZERO, ns, nextBatch };
  }

  /** Closes the cursors `ids`; answers as `killCursors` does. */
  kill(ids: unknown[]): Document {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const id of ids) {
      const key = idKey(id);
      (this.#open.delete(key) ? killed : notFound).push(Long.fromString(key));
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  }
}
