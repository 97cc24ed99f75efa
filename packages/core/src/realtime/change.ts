/** One write, as the change feed passes it to subscribers. Types only. */
import type { Document } from '@store/common';

/** What a write did to one document. */
export type ChangeKind = 'insert' | 'update' | 'delete';

/** A write to one document of one collection, before any subscriber's view of it. */
export interface Change {
  readonly collection: string;
  readonly kind: ChangeKind;
  /** The document's `_id`. */
  readonly id: unknown;
  /**
   * The document before the write: `null` when there was none (an insert), `undefined` when it
   * is not known (a change stream without pre-images).
   */
  readonly before: Document | null | undefined;
  /** The document after the write; `null` after a delete. */
  readonly after: Document | null;
}

/** A change with its place in the feed (the event `id:` is `<epoch>-<seq>`). */
export interface NumberedChange extends Change {
  readonly seq: number;
}

/** The event types of the stream: one per kind of write (create, update, delete). */
export type EventType = 'created' | 'updated' | 'deleted';
