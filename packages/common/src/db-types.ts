/**
 * The storage interface every part of the store talks to: a small subset of the official
 * `mongodb` driver's `Db` / `Collection`. A driver `Db` satisfies it as is; the embedded
 * engine implements the same subset in memory. Engine-specific code lives only in the engines.
 */

/** A stored document, a filter or an update, as plain data. */
export type Document = Record<string, unknown>;

/** Index key specification: `{ field: 1 }`, `{ title: 'text' }`, `{ location: '2dsphere' }`. */
export type IndexSpec = Record<string, 1 | -1 | 'text' | '2dsphere'>;

/**
 * How strings compare, as MongoDB's collation document: `{ locale: 'en', strength: 2 }` compares
 * them case-insensitively, `numericOrdering: true` puts '10' after '9'. Both engines honour it on
 * finds, sorts, counts, writes by filter and indexes; without it strings compare by their bytes.
 */
export type Collation = {
  locale: string;
  strength?: 1 | 2 | 3 | 4 | 5;
  caseLevel?: boolean;
  caseFirst?: 'upper' | 'lower' | 'off';
  numericOrdering?: boolean;
  alternate?: 'non-ignorable' | 'shifted';
  maxVariable?: 'punct' | 'space';
  backwards?: boolean;
  normalization?: boolean;
};

/** The collation an operation compares strings with. */
interface Collated {
  collation?: Collation;
}

export interface IndexOptions extends Collated {
  name?: string;
  unique?: boolean;
  sparse?: boolean;
  /** TTL: documents whose indexed Date field is older than this many seconds are removed. */
  expireAfterSeconds?: number;
  /** Text indexes: the language of every document (`'english'`, `'none'`, ...). */
  default_language?: string;
  /** Text indexes: the field a document names its own language in (the store sets one nobody writes). */
  language_override?: string;
}

/** An index as `listIndexes` describes it (MongoDB's shape: a text index's key is `{ _fts: 'text', _ftsx: 1 }`). */
export interface IndexDescription {
  name: string;
  key: Record<string, unknown>;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  /** Text indexes: the indexed fields and their weights. */
  weights?: Record<string, number>;
  default_language?: string;
  language_override?: string;
  [option: string]: unknown;
}

/**
 * The server-side time limit every query of the store carries: past it the operation fails with
 * code 50 (MaxTimeMSExpired), on MongoDB and on the embedded engine alike.
 */
export interface TimeLimit {
  maxTimeMS?: number;
}

/**
 * The most documents the embedded engine may examine for one operation (the documents its scan
 * looks at, as MongoDB's `totalDocsExamined` counts them); past it the operation fails with the
 * engine's own code name `ExceededExaminedLimit`. MongoDB has no such limit: core's driver
 * wrapper drops it.
 */
interface ExaminedLimit {
  maxExamined?: number;
}

export interface FindOptions extends TimeLimit, ExaminedLimit, Collated {
  projection?: Document;
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

export interface FindCursor {
  toArray(): Promise<Document[]>;
}

export interface ModifyOptions extends TimeLimit {
  /** Which version of the document to return. */
  returnDocument: 'before' | 'after';
  upsert?: boolean;
  projection?: Document;
}

/** A page, and how many documents its filter matches when the read could tell without more work. */
export interface CountedPage {
  readonly documents: Document[];
  /** What `countDocuments(filter, { collation })` would answer; `undefined` when the read did not count. */
  readonly count: number | undefined;
}

export interface StoreCollection {
  readonly collectionName: string;
  /**
   * Optional (the embedded engine has it, MongoDB cannot): a number that changes whenever what a
   * read of the collection answers may have changed, never reused within the process; `undefined`
   * when it cannot tell. What was derived from a read made while it held a number still holds
   * while it holds that number.
   */
  contentVersion?(): number | undefined;
  find(filter: Document, options?: FindOptions): FindCursor;
  /**
   * Optional: `find(filter, options).toArray()`, with the count of every document `filter`
   * matches when reading the page saw them all (an engine that scans for a sorted page counts as
   * it goes: one scan, not two). Without it, or with `count` undefined, the caller counts.
   */
  findWithCount?(filter: Document, options?: FindOptions): Promise<CountedPage>;
  findOne(
    filter: Document,
    options?: { projection?: Document } & TimeLimit & ExaminedLimit,
  ): Promise<Document | null>;
  countDocuments(filter: Document, options?: TimeLimit & ExaminedLimit & Collated): Promise<number>;
  /** Throws an error whose `code` is 11000 when the `_id` (or a unique key) is taken. */
  insertOne(doc: Document): Promise<{ insertedId: unknown }>;
  /**
   * Inserts in order; the first failure stops the rest, those before it stay (MongoDB's ordered
   * `insertMany`). Its error has `code` 11000 for a taken key and `writeErrors[0].index`.
   */
  insertMany(docs: Document[]): Promise<{ insertedCount: number }>;
  findOneAndReplace(
    filter: Document,
    replacement: Document,
    options: ModifyOptions,
  ): Promise<Document | null>;
  findOneAndUpdate(filter: Document, update: Document, options: ModifyOptions): Promise<Document | null>;
  updateOne(
    filter: Document,
    update: Document,
    options?: { upsert?: boolean } & TimeLimit,
  ): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number }>;
  updateMany(
    filter: Document,
    update: Document,
    options?: TimeLimit & ExaminedLimit & Collated,
  ): Promise<{ matchedCount: number; modifiedCount: number }>;
  deleteOne(filter: Document, options?: TimeLimit): Promise<{ deletedCount: number }>;
  deleteMany(
    filter: Document,
    options?: TimeLimit & ExaminedLimit & Collated,
  ): Promise<{ deletedCount: number }>;
  createIndex(spec: IndexSpec, options?: IndexOptions): Promise<string>;
  listIndexes(): { toArray(): Promise<IndexDescription[]> };
  /** Throws an error whose `code` is 27 when no index has that name. */
  dropIndex(name: string): Promise<unknown>;
}

export interface StoreDb {
  collection(name: string): StoreCollection;
}
