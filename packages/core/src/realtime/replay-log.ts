/**
 * The replay window: the last changes of the feed, kept for reconnects with `Last-Event-ID`.
 * Bounded in count (`replayEvents`) and in the bytes of the documents it holds
 * (`replayBytes`): past either, the oldest go first, and an id from before them can no longer
 * resume. A reconnect reads only its own collection's changes, grouped by document
 * ({@link ReplayLog.since}).
 */

import type { Document } from '@store/common';
import { calculateObjectSize } from 'bson';
import { idKeyOf } from '../model/id-key';
import type { NumberedChange } from './change';

/** What happened to one document since a reconnect's id: its first and last change after it. */
export interface DocumentChanges {
  /** Its first change after the id: `before` is the document as the reader last could have seen it. */
  readonly first: NumberedChange;
  /** Its last change: `after` is the document now (`null`: deleted). */
  readonly last: NumberedChange;
}

interface Kept {
  readonly change: NumberedChange;
  readonly bytes: number;
}

/** Bytes a value of a document holds, about as BSON counts them, walked without encoding it. */
function approximateBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 5 + value.length;
    case 'object':
      return value === null ? 0 : objectBytes(value);
    case 'boolean':
      return 1;
    case 'undefined':
      return 0;
    default:
      return 8;
  }
}

function objectBytes(value: object): number {
  if (Array.isArray(value)) {
    let bytes = 5;
    for (const item of value) bytes += 2 + approximateBytes(item);
    return bytes;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    let bytes = 5;
    for (const key in value)
      bytes += 2 + key.length + approximateBytes((value as Record<string, unknown>)[key]);
    return bytes;
  }
  if (ArrayBuffer.isView(value)) return value.byteLength;
  // BSON's own types (Binary, ObjectId, Decimal128...), dates, regular expressions: as BSON weighs them.
  try {
    return calculateObjectSize({ value }) - 12;
  } catch {
    return 16;
  }
}

/** Bytes a document holds, about its BSON size (what it weighs in MongoDB, near what it weighs here). */
function documentBytes(doc: Document | null | undefined): number {
  return doc === null || doc === undefined ? 0 : approximateBytes(doc);
}

export class ReplayLog {
  readonly #kept: Kept[] = [];
  /** Index of the oldest kept change in `#kept` (dropped ones are compacted away in batches). */
  #head = 0;
  #bytes = 0;
  /** The seq of the newest change dropped from the window: an id before it cannot resume. */
  #droppedThrough = 0;

  constructor(
    private readonly maxChanges: number,
    private readonly maxBytes: number,
  ) {}

  /** How many changes, and how many bytes of documents, the window holds now. */
  get usage(): { readonly changes: number; readonly bytes: number } {
    return { changes: this.#kept.length - this.#head, bytes: this.#bytes };
  }

  /** Keeps `change`, dropping the oldest past either bound (`change` itself, when it alone is past the bytes). */
  add(change: NumberedChange): void {
    const bytes = documentBytes(change.before) + documentBytes(change.after);
    this.#kept.push({ change, bytes });
    this.#bytes += bytes;
    while (this.#kept.length - this.#head > this.maxChanges || this.#bytes > this.maxBytes) {
      const oldest = this.#kept[this.#head] as Kept;
      this.#kept[this.#head] = undefined as unknown as Kept;
      this.#head++;
      this.#bytes -= oldest.bytes;
      this.#droppedThrough = oldest.change.seq;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#kept.length) {
      this.#kept.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /**
   * The documents of `collection` changed after `seq`, in the order of their last change; or
   * `undefined` when a change after `seq` has left the window (the reconnect cannot be sure).
   */
  since(seq: number, collection: string): DocumentChanges[] | undefined {
    if (seq < this.#droppedThrough) return undefined;
    const byDocument = new Map<string, { first: NumberedChange; last: NumberedChange }>();
    for (let i = this.#kept.length - 1; i >= this.#head; i--) {
      const { change } = this.#kept[i] as Kept;
      if (change.seq <= seq) break;
      if (change.collection !== collection) continue;
      const key = idKeyOf(change.id);
      const known = byDocument.get(key);
      if (known === undefined) byDocument.set(key, { first: change, last: change });
      else known.first = change;
    }
    return [...byDocument.values()].sort((a, b) => a.last.seq - b.last.seq);
  }
}
