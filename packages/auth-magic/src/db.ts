/**
 * The database the flows use: `@store/common`'s storage interface (a subset of the `mongodb`
 * driver's `Db` / `Collection`), which a driver `Db` and the embedded engine both satisfy.
 * The `Auth*` names stay as aliases for the flows' public signatures.
 */
import type { Document, StoreCollection, StoreDb } from '@store/common';

/** A stored document, a filter or an update, as plain data. */
export type AuthDocument = Document;

/** A collection the flows read and write. */
export type AuthCollection = StoreCollection;

/** A database handle: a driver `Db`, an embedded database, or anything with this shape. */
export type AuthDb = StoreDb;

/** True when `error` is a duplicate-key error (code 11000) from either engine. */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
