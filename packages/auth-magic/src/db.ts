/**
 * The part of the store's database interface this package uses: a structural subset of
 * core's `StoreDb` / `StoreCollection` (itself a subset of the `mongodb` driver's `Db`).
 * A driver `Db` and core's embedded engine both fit it; nothing here imports core at run time.
 */

/** A stored document, a filter or an update, as plain data. */
export type AuthDocument = Record<string, unknown>;

/** Options of the atomic find-and-modify calls. */
interface AuthModifyOptions {
  /** Which version of the document to return. */
  returnDocument: 'before' | 'after';
  upsert?: boolean;
}

/** The collection methods the auth flows call. */
export interface AuthCollection {
  find(
    filter: AuthDocument,
    options?: { sort?: Record<string, 1 | -1>; limit?: number },
  ): { toArray(): Promise<AuthDocument[]> };
  findOne(filter: AuthDocument): Promise<AuthDocument | null>;
  countDocuments(filter: AuthDocument): Promise<number>;
  /** Throws an error whose `code` is 11000 when a unique key is taken. */
  insertOne(doc: AuthDocument): Promise<{ insertedId: unknown }>;
  findOneAndUpdate(
    filter: AuthDocument,
    update: AuthDocument,
    options: AuthModifyOptions,
  ): Promise<AuthDocument | null>;
  updateOne(filter: AuthDocument, update: AuthDocument): Promise<{ matchedCount: number }>;
  deleteOne(filter: AuthDocument): Promise<{ deletedCount: number }>;
  createIndex(
    spec: Record<string, 1 | -1>,
    options?: { name?: string; unique?: boolean; sparse?: boolean; expireAfterSeconds?: number },
  ): Promise<string>;
}

/** A database handle: core's `StoreDb`, a driver `Db`, or anything with this shape. */
export interface AuthDb {
  collection(name: string): AuthCollection;
}

/** True when `error` is a duplicate-key error (code 11000) from either engine. */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
