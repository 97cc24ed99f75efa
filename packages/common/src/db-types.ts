/**
 * The storage interface every part of the store talks to: a small subset of the official
 * `mongodb` driver's `Db` / `Collection`. A driver `Db` satisfies it as is; the embedded
 * engine implements the same subset in memory. Engine-specific code lives only in the engines.
 */

/** A stored document, a filter or an update, as plain data. */
export type Document = Record<string, unknown>;

/** Index key specification: `{ field: 1 }`, `{ title: 'text' }`, `{ location: '2dsphere' }`. */
export type IndexSpec = Record<string, 1 | -1 | 'text' | '2dsphere'>;

export interface IndexOptions {
  name?: string;
  unique?: boolean;
  sparse?: boolean;
  /** TTL: documents whose indexed Date field is older than this many seconds are removed. */
  expireAfterSeconds?: number;
}

export interface FindOptions {
  projection?: Document;
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

export interface FindCursor {
  toArray(): Promise<Document[]>;
}

export interface ModifyOptions {
  /** Which version of the document to return. */
  returnDocument: 'before' | 'after';
  upsert?: boolean;
  projection?: Document;
}

export interface StoreCollection {
  readonly collectionName: string;
  find(filter: Document, options?: FindOptions): FindCursor;
  findOne(filter: Document, options?: { projection?: Document }): Promise<Document | null>;
  countDocuments(filter: Document): Promise<number>;
  /** Throws an error whose `code` is 11000 when the `_id` (or a unique key) is taken. */
  insertOne(doc: Document): Promise<{ insertedId: unknown }>;
  findOneAndReplace(
    filter: Document,
    replacement: Document,
    options: ModifyOptions,
  ): Promise<Document | null>;
  findOneAndUpdate(filter: Document, update: Document, options: ModifyOptions): Promise<Document | null>;
  updateOne(
    filter: Document,
    update: Document,
    options?: { upsert?: boolean },
  ): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number }>;
  deleteOne(filter: Document): Promise<{ deletedCount: number }>;
  deleteMany(filter: Document): Promise<{ deletedCount: number }>;
  createIndex(spec: IndexSpec, options?: IndexOptions): Promise<string>;
}

export interface StoreDb {
  collection(name: string): StoreCollection;
}
