/**
 * One collection of the embedded engine: documents in a `Map` keyed by the canonical `_id`
 * key, in insertion order. Documents are never changed in place: a write stores a new object.
 *
 * Single-document operations (insertOne, findOneAndUpdate / Replace / Delete, updateOne,
 * replaceOne, deleteOne) and insertMany run synchronously from start to finish inside their async
 * method, so each one is atomic with respect to concurrent callers (a bulkWrite is a sequence of
 * them, each atomic, not the batch). Reads and counts, and updateMany / deleteMany, run
 * in slices (`work.ts`) that let other callers in between: a read answers from the collection
 * as it was when it began (what its scan has left to see is copied, cheaply, by reference,
 * before its first pause); a multi-document write decides what to change from that same state,
 * then applies each document's change whole, re-checking a document written meanwhile against
 * the filter as it is now. Other callers may see such a write half done, as on MongoDB.
 */
import type {
  CountedPage,
  Document,
  FindCursor,
  FindOptions,
  IndexDescription,
  IndexOptions,
  IndexSpec,
  StoreCollection,
} from '@store/common';
import { isPlainObject } from '@store/common';
import { type AggregateOptions, type PipelineSource, runPipeline } from './aggregate';
import {
  applyReplacement,
  applyUpdate,
  applyUpdateToAll,
  type Update,
  type UpdateExtras,
  upsertSeed,
  validateUpdate,
  withIdFirst,
} from './apply-update';
import { type BulkWriteOptions, type BulkWriteResult, runBulkWrite } from './bulk-write';
import { checkCollatedUpdate } from './collated-update';
import { type CollationOption, parseCollation } from './collation';
import { type CompiledFilter, compileFilter } from './compile-filter';
import {
  type CountOptions,
  checkDistinctKey,
  countEnough,
  countPage,
  type DistinctOptions,
  distinctSorted,
  distinctValuesOf,
  pagedCount,
} from './distinct';
import type { Change } from './durable/records';
import { EmbeddedDbError } from './errors';
import { candidateKeys, exactIdKeys } from './id-lookup';
import { CollectionIndexes, type KeyMemo } from './indexes';
import { checkOptions, refuseChangeStreams } from './known-options';
import { valuesAtPath } from './paths';
import { naturalPageEnd, readDocuments, readDocumentsInSlices, sortedPageEnd } from './read-documents';
import { type Entry, type Matched, PausedScans, scanInSlices } from './scan';
import { FirstDocuments } from './sort-documents';
import { sortInSlices } from './sort-in-slices';
import { walkSorted } from './sorted-walk';
import { bsonBytes, cloneValue, handedOverAsStored, idKey, isObjectId, toStored } from './values';
import { walkSpan } from './walk-span';
import { checkLimits, forEachInSlices, Work, type WorkLimits } from './work';
import {
  batchError,
  checkReplacementArgument,
  checkStorableId,
  checkUpdateArgument,
  type DeleteOptions,
  type FindOneAndDeleteOptions,
  type FindOneAndModifyOptions,
  type InsertManyOptions,
  letVariables,
  type ReplaceOptions,
  type UpdateOptions,
  type UpdateResult,
  updateResult,
  type WriteErrorEntry,
  type WriteOptions,
  writeErrorOf,
} from './write-options';

/** Shared by a database and its collections. */
export interface EngineState {
  closed: boolean;
  /** Why the database stopped serving, when not by `close()` (a journal that cannot be written). */
  failure?: string;
  /** A durable database's journal: the changes of one operation (or slice), on disk once the promise resolves. */
  journal?: {
    record(changes: Change[]): Promise<void>;
    /** Throws (a full disk) when a write must be refused before it changes anything. */
    ready(): void;
  };
  /** The database's collection `name` (created on first use): what a pipeline's `$lookup` reads. */
  collection?: (name: string) => EmbeddedCollection;
}

/** An index as created, by name: what a durable database stores to create it again on open. */
export interface IndexDefinition {
  name: string;
  spec: IndexSpec;
  options: IndexOptions;
}

/** What `find` and `findOne` take. */
type ReadOptions = FindOptions & CollationOption & LetOption;

/** How candidates found by key must be ordered (see `#candidates`). */
type CandidateOrder = 'insertion' | 'sortedById' | 'any';

/** Candidates pinned to at most this many (or 4x the page) are sorted outright rather than walked from an index. */
const SORT_OUTRIGHT_AT_MOST = 1000;
/**
 * A sorted walk gives up, for a scan and a sort, after this many entries without a full page
 * (or this many per document of the page, when more): past it, matches are too rare for the walk.
 */
const WALK_TRIAL_AT_LEAST = 1024;
const WALK_TRIAL_PER_DOCUMENT = 16;
/** Documents deleteMany removes at once: one pass over each ordered index, one journal record. */
const REMOVE_AT_ONCE = 512;
/** Documents an `_id` lookup reads in one go. */
const READ_AT_ONCE = 256;
/** Documents updateMany computes the new versions of at once (one call of mingo's updater). */
const UPDATE_AT_ONCE = 64;

/** What a single-document write did: the document before (none: nothing matched) and after (none: not inserted). */
interface WriteOutcome {
  before?: Document;
  after?: Document;
  changed: boolean;
  /** A delete: its metadata carries no `updatedExisting`. */
  deleted?: boolean;
}

/** The `let` option of a read: variables `$expr` reads as `$$name` (their values are expressions, evaluated once). */
interface LetOption {
  let?: Document;
}

/** How the first match of a single-document write is found. */
interface FirstOptions {
  maxTimeMS?: unknown;
  sort?: unknown;
  variables?: Document;
  /** The operation's collation document (collation.ts), as given. */
  collation?: unknown;
}

/** A document an updateMany decided to change, as it was then and as it becomes. */
interface PlannedUpdate {
  key: string;
  before: Document;
  after: Document;
}

/** Whether an update changed a document (byte for byte, as MongoDB decides `modifiedCount`). */
const changedBy = (before: Document, after: Document): boolean =>
  !Buffer.from(bsonBytes(before)).equals(bsonBytes(after));

/** `_id` kinds no two distinct values of which compare equal in mingo's sort. */
const isTotalId = (id: unknown): boolean =>
  typeof id === 'string' || typeof id === 'number' || id instanceof Date || isObjectId(id);

function namespaceProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name === '' || name.length > 200) return 'must be 1 to 200 characters';
  if (name.includes('$') || name.includes('\0')) return 'must not contain $ or NUL';
  return name.startsWith('system.') ? 'must not start with system.' : undefined;
}

/** When `doc` expires under the TTL indexes `ttl` (ms; `Infinity` when it never does). */
function expiryOf(doc: Document, ttl: ReadonlyArray<{ field: string; seconds: number }>): number {
  let expiry = Number.POSITIVE_INFINITY;
  for (const { field, seconds } of ttl) {
    for (const value of valuesAtPath(doc, field, true)) {
      if (value instanceof Date) expiry = Math.min(expiry, value.getTime() + seconds * 1000);
    }
  }
  return expiry;
}

function checkModifyOptions(options: FindOneAndModifyOptions): void {
  const returned = options?.returnDocument;
  if (returned !== undefined && returned !== 'before' && returned !== 'after') {
    throw new EmbeddedDbError('BadValue', "returnDocument must be 'before' or 'after'");
  }
}

/**
 * The database's whole-collection operations (a rename, a drop), by symbol: kept off the public
 * surface, since they are not journaled themselves (the database journals them).
 */
export const TAKE_OVER = Symbol('takeOver');
export const EMPTY = Symbol('empty');
/** What a pipeline reads of a collection (by symbol: kept off the public surface). */
export const PIPELINE_SOURCE = Symbol('pipelineSource');

/** The last content version handed out, by any collection of any database of this process. */
let lastVersion = 0;

/** Where a read tells how many documents its filter matched, when it saw them all. */
interface Tally {
  matched: number | undefined;
}

/** An embedded collection; see {@link StoreCollection} for each method. */
export class EmbeddedCollection implements StoreCollection {
  readonly collectionName: string;
  #docs = new Map<string, Document>();
  /** Scans of `#docs` paused between slices: they copy what they have left before it changes in place. */
  readonly #pausedScans = new PausedScans();
  /**
   * The indexes; a document's insertion sequence, which keeps candidates found by key in the
   * order of a scan, is kept in its `_id` index entry.
   */
  #indexes = new CollectionIndexes();
  /** The insertion sequence the next document takes. */
  #inserted = 0;
  /** See {@link contentVersion}: a new number at every change of the documents or indexes. */
  #version = ++lastVersion;
  readonly #state: EngineState;
  readonly #nameProblem: string | undefined;
  /**
   * The earliest time (ms) a stored document expires under a TTL index: until then no
   * operation scans for expired documents (so cost does not grow with, say, live sessions).
   * `-Infinity` when unknown (a new TTL index), `Infinity` when nothing expires.
   */
  #nextExpiry = Number.POSITIVE_INFINITY;
  /** Indexes as created (key specification and options as given), by name. */
  #indexDefinitions = new Map<string, IndexDefinition>();
  /** Changes of the operation (or slice) under way, for a durable database's journal: sent before any pause. */
  #changes: Change[] = [];
  /**
   * The last record this collection sent to the journal: on disk once it resolves, and so is
   * every record sent before it (the journal writes them in order).
   */
  #lastRecord: Promise<void> | undefined;

  constructor(name: string, state: EngineState) {
    this.collectionName = name;
    this.#state = state;
    this.#nameProblem = namespaceProblem(name);
  }

  /**
   * Checks the engine is usable and removes expired documents (TTL) before every operation;
   * the scan runs only once the earliest known expiry has passed.
   */
  #begin(): void {
    this.#checkOpen();
    if (this.#nameProblem) {
      throw new EmbeddedDbError('InvalidNamespace', `collection name ${this.#nameProblem}`);
    }
    const now = Date.now();
    if (now < this.#nextExpiry) return;
    const ttl = this.#indexes.ttl();
    let next = Number.POSITIVE_INFINITY;
    for (const [key, doc] of [...this.#docs]) {
      const expiry = expiryOf(doc, ttl);
      if (expiry <= now) this.#remove(key, doc);
      else if (expiry < next) next = expiry;
    }
    this.#nextExpiry = next;
    // Removals by the sweep are journaled without waiting: nothing was acknowledged, and the
    // next write's sync covers them (an expired document found again on open is swept again).
    this.#commit()?.catch(() => undefined);
  }

  /** Throws (code 11600, as a server shutting down) once the database is closed. */
  #checkOpen(): void {
    if (this.#state.closed) {
      throw new EmbeddedDbError(
        'InterruptedAtShutdown',
        this.#state.failure ?? 'the embedded database is closed',
      );
    }
  }

  /** The slices and budgets of one operation (see `work.ts`): it stops if the database closes meanwhile. */
  #work(limits: WorkLimits | undefined): Work {
    return new Work(limits ?? {}, () => this.#checkOpen());
  }

  /** Sends the changes of the operation to the journal (a durable database), if any. */
  #commit(): Promise<void> | undefined {
    if (this.#changes.length === 0) return undefined;
    const changes = this.#changes;
    this.#changes = [];
    const written = this.#state.journal?.record(changes);
    if (written) this.#lastRecord = written;
    return written;
  }

  /**
   * Runs a write: its changes are applied at once (the operation stays atomic for concurrent
   * callers) and, on a durable database, it resolves only once they are on disk; a write that
   * fails part-way (a duplicate key) still journals what it changed before failing. While the
   * journal cannot write (a full disk) it is refused before it changes anything.
   */
  async #durably<T>(write: () => T): Promise<T> {
    this.#state.journal?.ready();
    let result: T;
    try {
      result = write();
    } finally {
      const synced = this.#commit();
      if (synced) await synced;
    }
    return result;
  }

  /**
   * Runs a write that works in slices (updateMany, deleteMany): the changes of each slice go to
   * the journal before it pauses, and it resolves once all of them are on disk; one that fails
   * part-way (a time limit, a duplicate key) still journals what it changed before failing. Its
   * last changes may have gone out with another operation's record (that one sent them while
   * this one awaited between two steps), so it waits for the collection's last record, which
   * is on disk only once every earlier one is.
   */
  async #durablyInSlices<T>(limits: WorkLimits | undefined, write: (work: Work) => Promise<T>): Promise<T> {
    this.#state.journal?.ready();
    const synced: Array<Promise<void>> = [];
    const send = () => {
      const written = this.#commit();
      if (written) synced.push(written);
    };
    try {
      this.#begin();
      const work = this.#work(limits);
      work.beforePause = send;
      return await write(work);
    } finally {
      send();
      if (this.#lastRecord) synced.push(this.#lastRecord);
      await Promise.all(synced);
    }
  }

  /** Notes one change of the documents or indexes: a new content version, and a record for the journal. */
  #journal(change: Change): void {
    this.#version = ++lastVersion;
    if (this.#state.journal) this.#changes.push(change);
  }

  /**
   * A number that changes whenever what a read of this collection answers may have changed: at
   * every write, drop, rename, restore, index change and TTL expiry (documents are never changed
   * in place, so no change escapes it). Numbers are never reused, not even by another collection
   * or database of the process: two reads that each saw the same number saw the same documents,
   * so what was derived from the first still holds. It first does what every operation does
   * before reading: throws once the database is closed, and removes expired documents.
   */
  contentVersion(): number {
    this.#begin();
    return this.#version;
  }

  /** Brings the next expiry forward when a written document expires earlier. */
  #noteExpiry(doc: Document): void {
    const ttl = this.#indexes.ttl();
    if (ttl.length > 0) this.#nextExpiry = Math.min(this.#nextExpiry, expiryOf(doc, ttl));
  }

  /**
   * The documents that can match `filter` (by `_id` or an index when it pins one), in insertion
   * order unless `order` says it does not matter: `any` (a count), or `sortedById` (a sort
   * with an `_id` key orders them anyway, unless an `_id` is a sub-document or other value two
   * of which can tie in mingo's sort). A filter compiled under a collation is scanned for whole.
   */
  #candidates(filter: Document, order: CandidateOrder, compiled: CompiledFilter): Iterable<Entry> {
    const keys = compiled.collated ? undefined : this.#candidateKeys(filter);
    return keys ? this.#byKeys(keys, order) : this.#docs.entries();
  }

  /**
   * Scans the candidates of `filter` (see {@link #candidates}) in slices of `work`, handing each
   * match to `matched` (`scan.ts`; a promise only when it pauses). What it reads is taken at
   * once, before anything can pause it.
   */
  #scanFilter(
    filter: Document,
    order: CandidateOrder,
    compiled: CompiledFilter,
    work: Work,
    matched: Matched,
  ): Promise<void> | undefined {
    const keys = compiled.collated ? undefined : this.#candidateKeys(filter);
    const found = keys ? this.#byKeysInSlices(keys, order, work) : this.#docs;
    if (!(found instanceof Promise)) return scanInSlices(found, compiled, work, matched, this.#pausedScans);
    return found.then((sorted) => scanInSlices(sorted, compiled, work, matched));
  }

  /** Every document `filter` matches, with its key (what a write by filter changes), scanned in slices of `work`. */
  async #matchingEntries(
    filter: Document,
    order: CandidateOrder,
    compiled: CompiledFilter,
    work: Work,
  ): Promise<Entry[]> {
    const found: Entry[] = [];
    await this.#scanFilter(filter, order, compiled, work, (doc) => found.push([idKey(doc._id), doc]) === 0);
    return found;
  }

  /** The keys of the only documents `filter` can match (by `_id`, an index, a range of one), if it pins any. */
  #candidateKeys(filter: Document): Iterable<string> | undefined {
    const memo: KeyMemo = new Map();
    return (
      candidateKeys(filter, (field, values) => this.#indexes.lookup(field, values, memo)) ??
      this.#rangeKeys(filter)
    );
  }

  /** The documents stored under `keys`, and whether `order` asks to sort them by insertion (see `#candidates`). */
  #found(keys: Iterable<string>, order: CandidateOrder): { found: Entry[]; sorts: boolean } {
    const found: Entry[] = [];
    for (const key of keys) {
      const doc = this.#docs.get(key);
      if (doc) found.push([key, doc]);
    }
    const sorts = !(
      found.length <= 1 ||
      order === 'any' ||
      (order === 'sortedById' && found.every(([, doc]) => isTotalId(doc._id)))
    );
    return { found, sorts };
  }

  /** `found` with the insertion sequence of each, to sort by. */
  #sequenced(found: Entry[]): Array<{ entry: Entry; at: number }> {
    return found.map((entry) => ({ entry, at: this.#indexes.sequenceOf(entry[0], entry[1]) }));
  }

  /** The documents stored under `keys`, ordered as `order` asks (see `#candidates`). */
  #byKeys(keys: Iterable<string>, order: CandidateOrder): Entry[] {
    const { found, sorts } = this.#found(keys, order);
    if (!sorts) return found;
    return this.#sequenced(found)
      .sort((a, b) => a.at - b.at)
      .map(({ entry }) => entry);
  }

  /** {@link #byKeys}, sorting in slices (the documents are read at once, the promise only when they need sorting). */
  #byKeysInSlices(keys: Iterable<string>, order: CandidateOrder, work: Work): Entry[] | Promise<Entry[]> {
    const { found, sorts } = this.#found(keys, order);
    return sorts ? this.#inInsertionOrder(found, work) : found;
  }

  /** `found` in insertion order, sorted in slices. */
  async #inInsertionOrder(found: Entry[], work: Work): Promise<Entry[]> {
    const sorted = await sortInSlices(this.#sequenced(found), (a, b) => a.at - b.at, work);
    return sorted.map(({ entry }) => entry);
  }

  /** The keys in the narrowest range `filter` pins on an ordered index, when it leaves out most documents. */
  #rangeKeys(filter: Document): Iterable<string> | undefined {
    const narrowest = this.#indexes.narrowestRange(filter);
    if (narrowest === undefined) return undefined;
    const { index, span } = narrowest;
    const [from, to] = span;
    if ((to - from + index.multikey.size) * 2 > this.#docs.size) return undefined;
    const keys: string[] = [...index.multikey];
    const inIndex = index.columns.keys;
    for (let i = from; i < to; i++) keys.push(inIndex[i] as string);
    return keys;
  }

  /**
   * The first document `filter` matches, found in one go (a single-document write stays
   * atomic): past `maxTimeMS` of `limits`, throws MaxTimeMSExpired before anything changes.
   */
  #first(filter: Document, options: FirstOptions): { compiled: CompiledFilter; found: Entry | undefined } {
    const { maxTimeMS, sort, variables } = options;
    const work = maxTimeMS === undefined ? undefined : this.#work({ maxTimeMS });
    const collation = parseCollation(options.collation);
    const compiled = compileFilter(filter, this.#indexes, variables, collation);
    const sorted =
      sort !== undefined && sort !== null && !(isPlainObject(sort) && Object.keys(sort).length === 0);
    const matches: Document[] = [];
    for (const entry of this.#candidates(filter, 'insertion', compiled)) {
      if (compiled.test(entry[1])) {
        if (!sorted) return { compiled, found: entry };
        matches.push(entry[1]);
      }
      if (work?.tick()) work.overrun();
    }
    if (matches.length === 0) return { compiled, found: undefined };
    // The first by `sort` (checked as a find checks it), found again by its `_id`.
    const [first] = readDocuments(
      matches,
      undefined,
      { sort, limit: 1, projection: { _id: 1 } } as FindOptions,
      collation?.compare,
    );
    const key = idKey(first?._id);
    const doc = this.#docs.get(key);
    return { compiled, found: doc ? [key, doc] : undefined };
  }

  /** Inserts `doc`, stored as `asStored` makes it (a copy by default). */
  #insert(doc: Document, asStored: (doc: Document) => Document = toStored): Document {
    const stored = asStored(withIdFirst(doc));
    if (Array.isArray(stored._id) || stored._id instanceof RegExp) {
      throw new EmbeddedDbError('InvalidIdField', "The '_id' value cannot be of type array or regex");
    }
    checkStorableId(stored._id);
    const key = idKey(stored._id);
    if (this.#docs.has(key)) {
      const keyValue = { _id: stored._id };
      throw new EmbeddedDbError('DuplicateKey', 'E11000 duplicate key error index: _id_', {
        keyPattern: { _id: 1 },
        keyValue,
      });
    }
    this.#indexes.move(key, undefined, stored, this.#inserted);
    this.#inserted++;
    this.#pausedScans.beforeChange();
    this.#docs.set(key, stored);
    this.#noteExpiry(stored);
    this.#journal({ c: this.collectionName, put: stored });
    return stored;
  }

  #replace(key: string, before: Document, after: Document): void {
    this.#indexes.move(key, before, after);
    this.#pausedScans.beforeChange();
    this.#docs.set(key, after);
    this.#noteExpiry(after);
    this.#journal({ c: this.collectionName, put: after });
  }

  #remove(key: string, doc: Document): void {
    this.#indexes.move(key, doc, undefined);
    this.#forget(key, doc);
  }

  /** Removes the documents of `removed`, each from every index in one pass. */
  #removeAll(removed: Entry[]): void {
    this.#indexes.removeAll(removed);
    for (const [key, doc] of removed) this.#forget(key, doc);
  }

  /**
   * Removes the documents of `doomed` (matches as the operation found them) that are stored as
   * they were, or that another caller wrote since and still match; returns how many.
   */
  #removeStill(doomed: Entry[], compiled: CompiledFilter): number {
    const removed: Entry[] = [];
    for (const [key, doc] of doomed) {
      const current = this.#docs.get(key);
      if (current === doc || (current !== undefined && compiled.test(current))) removed.push([key, current]);
    }
    this.#removeAll(removed);
    return removed.length;
  }

  #forget(key: string, doc: Document): void {
    this.#pausedScans.beforeChange();
    this.#docs.delete(key);
    this.#journal({ c: this.collectionName, remove: doc._id });
  }

  #returned(doc: Document | undefined, projection: Document | undefined): Document | null {
    return doc ? (readDocuments([doc], undefined, { projection })[0] ?? null) : null;
  }

  /**
   * The first `skip + limit` matches of a sorted find, walked from the ordered index of its first
   * sort key (`sorted-walk.ts`): no full scan, no full sort. Undefined when no walk applies: no
   * such index, a document holding an array there, no limit, a pinned set of candidates small
   * enough to sort outright, or a walk that gave up (its trial). A promise only when it pauses.
   */
  #walk(
    filter: Document,
    compiled: CompiledFilter,
    options: FindOptions,
    work: Work,
  ): Document[] | undefined | Promise<Document[] | undefined> {
    const { sort, limit } = options;
    const skip = options.skip ?? 0;
    if (!isPlainObject(sort) || compiled.near || typeof limit !== 'number' || limit <= 0) return undefined;
    if (!Number.isSafeInteger(skip) || skip < 0) return undefined;
    const [first, ...others] = Object.entries(sort);
    if (first === undefined || (first[1] !== 1 && first[1] !== -1)) return undefined;
    const [field, direction] = first;
    const index = this.#indexes.ordered(field);
    if (index === undefined || index.multikey.size > 0) return undefined;
    const need = skip + limit;
    const memo: KeyMemo = new Map();
    const pinned = candidateKeys(filter, (f, values) => this.#indexes.lookup(f, values, memo));
    const narrowest = this.#indexes.narrowestRange(filter);
    const onField = narrowest?.index === index ? narrowest : undefined;
    const fewest = Math.min(
      pinned?.size ?? Number.POSITIVE_INFINITY,
      onField || narrowest === undefined
        ? Number.POSITIVE_INFINITY
        : narrowest.span[1] - narrowest.span[0] + narrowest.index.multikey.size,
    );
    if (fewest <= Math.max(SORT_OUTRIGHT_AT_MOST, 4 * need)) return undefined;
    const walk = {
      index,
      span: walkSpan(index, filter),
      direction,
      need,
      rest: others.length > 0 ? Object.fromEntries(others) : undefined,
      docs: this.#docs,
      test: (doc: Document) => compiled.test(doc),
      trial: Math.max(WALK_TRIAL_AT_LEAST, WALK_TRIAL_PER_DOCUMENT * need),
      unique: field === '_id',
    };
    return walkSorted(walk, work);
  }

  find(filter: Document, options: ReadOptions = {}): FindCursor {
    return {
      // Not an async function around the async read: one promise per read, not two.
      toArray: () => {
        try {
          checkOptions('find', options, () => this.#indexes.describe());
        } catch (error) {
          return Promise.reject(error);
        }
        return this.#read(filter, options);
      },
    };
  }

  /**
   * `find(filter, options).toArray()`, with the number of documents `filter` matches when the
   * read tested them all anyway: a sorted page found by a scan (which keeps the first documents
   * as it goes), or a read in natural order that found fewer than its page. A read by `_id`, an
   * index walk or a full page leaves `count` undefined, for the caller to count.
   */
  findWithCount(filter: Document, options: ReadOptions = {}): Promise<CountedPage> {
    try {
      checkOptions('find', options, () => this.#indexes.describe());
    } catch (error) {
      return Promise.reject(error);
    }
    const tally: Tally = { matched: undefined };
    return this.#read(filter, options, tally).then((documents) => ({ documents, count: tally.matched }));
  }

  /**
   * The documents `filter` matches, read as `options` (already checked) ask; with `tally`, how
   * many it matches, when the read tested every document ({@link findWithCount}).
   */
  async #read(filter: Document, options: ReadOptions, tally?: Tally): Promise<Document[]> {
    this.#begin();
    // Under a collation, matches are scanned for and sorted with strings collated (no index order).
    const collation = parseCollation(options.collation);
    // `let`: the variables `$expr` reads, evaluated once.
    const variables = letVariables(options.let);
    const byId = isPlainObject(options.sort) && Object.hasOwn(options.sort, '_id');
    const order = byId ? 'sortedById' : 'insertion';
    const exact = collation ? undefined : exactIdKeys(filter);
    if (exact !== undefined) return this.#readByIds(exact, order, options);
    const work = this.#work(options);
    const compiled = compileFilter(filter, this.#indexes, variables, collation);
    const walking = collation ? undefined : this.#walk(filter, compiled, options, work);
    const walked = walking instanceof Promise ? await walking : walking;
    if (walked !== undefined) {
      return readDocumentsInSlices(walked, undefined, { ...options, sort: undefined }, work);
    }
    // A sorted page: the scan keeps only the documents that are among the first so far.
    const sortedNeed = sortedPageEnd(options, compiled.near);
    if (sortedNeed !== undefined) {
      const first = new FirstDocuments(
        options.sort as Record<string, 1 | -1>,
        sortedNeed,
        collation?.compare,
      );
      let matched = 0;
      const scanning = this.#scanFilter(filter, order, compiled, work, (doc) => {
        matched += 1;
        first.offer(doc);
        return false;
      });
      if (scanning) await scanning;
      if (tally !== undefined) tally.matched = matched;
      return readDocumentsInSlices(first.documents, undefined, options, work, collation?.compare);
    }
    // In natural order, a page ends the scan once it is full.
    const enough = naturalPageEnd(options, compiled.near) ?? Number.POSITIVE_INFINITY;
    const matches: Document[] = [];
    const scanning = this.#scanFilter(filter, order, compiled, work, (doc) => matches.push(doc) >= enough);
    if (scanning) await scanning;
    // Fewer than the page: the scan saw every match (near a point, the count is not a plain test's).
    if (tally !== undefined && matches.length < enough && !compiled.near) tally.matched = matches.length;
    return readDocumentsInSlices(matches, compiled.near, options, work, collation?.compare);
  }

  /** The documents of the `_id`s `keys` (every one found matches), read as `options` ask. */
  #readByIds(
    keys: Set<string>,
    order: CandidateOrder,
    options: FindOptions,
  ): Document[] | Promise<Document[]> {
    const { found, sorts } = this.#found(keys, order);
    if (!sorts && found.length <= READ_AT_ONCE) {
      checkLimits(options, found.length);
      return readDocuments(
        found.map(([, doc]) => doc),
        undefined,
        options,
      );
    }
    const work = this.#work(options);
    work.examine(found.length);
    const inOrder = sorts ? this.#inInsertionOrder(found, work) : found;
    const read = (entries: Entry[]) =>
      readDocumentsInSlices(
        entries.map(([, doc]) => doc),
        undefined,
        options,
        work,
      );
    return inOrder instanceof Promise ? inOrder.then(read) : read(inOrder);
  }

  /** The first document `find` would answer with the same options (`sort`, `skip`, ...), or null. */
  async findOne(filter: Document, options: Omit<ReadOptions, 'limit'> = {}): Promise<Document | null> {
    checkOptions('findOne', options, () => this.#indexes.describe());
    // One shape for every call: the read's option checks stay monomorphic (and fast) in V8.
    const read: ReadOptions = {
      projection: options.projection,
      sort: options.sort,
      skip: options.skip,
      limit: 1,
      maxTimeMS: options.maxTimeMS,
      maxExamined: options.maxExamined,
      collation: options.collation,
      let: options.let,
    };
    const [doc] = await this.#read(filter, read);
    return doc ?? null;
  }

  /**
   * Counts the documents `filter` matches, past `skip` and at most `limit` of them. An empty
   * filter is answered from the collection's size: it examines no document.
   */
  async countDocuments(filter: Document, options: CountOptions & CollationOption = {}): Promise<number> {
    checkOptions('countDocuments', options, () => this.#indexes.describe());
    this.#begin();
    const page = countPage(options);
    const work = this.#work(options);
    const compiled = compileFilter(filter, this.#indexes, undefined, parseCollation(options.collation));
    if (compiled.near) {
      throw new EmbeddedDbError(
        'BadValue',
        '$geoNear, $near, and $nearSphere are not allowed in this context',
      );
    }
    // An empty filter counts every document (the sweep above has removed the expired ones).
    if (Object.keys(filter).length === 0) return pagedCount(this.#docs.size, page);
    const enough = countEnough(page);
    let count = 0;
    const scanning = this.#scanFilter(filter, 'any', compiled, work, () => {
      count += 1;
      return count >= enough;
    });
    if (scanning) await scanning;
    return pagedCount(count, page);
  }

  /** The number of documents in the collection, from its size (no filter, nothing examined). */
  async estimatedDocumentCount(options: WorkLimits = {}): Promise<number> {
    checkOptions('estimatedDocumentCount', options);
    this.#begin();
    checkLimits(options, 0);
    return this.#docs.size;
  }

  /**
   * The distinct values of `key` among the documents `filter` matches (an array unwound one
   * level), each once by BSON equality, in BSON order (see `distinct.ts`); under a collation,
   * the filter and the equality and order of the values compare strings by it.
   */
  async distinct(key: string, filter: Document = {}, options: DistinctOptions = {}): Promise<unknown[]> {
    checkOptions('distinct', options, () => this.#indexes.describe());
    checkDistinctKey(key);
    this.#begin();
    const work = this.#work(options);
    const collation = parseCollation(options.collation);
    const compiled = compileFilter(filter ?? {}, this.#indexes, undefined, collation);
    if (compiled.near) {
      throw new EmbeddedDbError(
        'BadValue',
        '$geoNear, $near, and $nearSphere are not allowed in this context',
      );
    }
    const values: unknown[] = [];
    const scanning = this.#scanFilter(filter ?? {}, 'insertion', compiled, work, (doc) => {
      distinctValuesOf(doc, key, values);
      return false;
    });
    if (scanning) await scanning;
    return distinctSorted(values, work, collation?.compare);
  }

  /**
   * Runs an aggregation pipeline over the collection (see `aggregate.ts`: the stages it runs,
   * and the refusal, by name, of the others): a leading `$match` is the collection's own scan,
   * and `$lookup` reads the other collections of the database.
   */
  aggregate(pipeline: Document[], options: AggregateOptions = {}): FindCursor {
    return {
      toArray: async () => {
        checkOptions('aggregate', options, () => this.#indexes.describe());
        const source = this[PIPELINE_SOURCE]();
        const collection = this.#state.collection;
        const input = {
          source,
          collection: (name: string) => {
            if (!collection) throw new EmbeddedDbError('NotImplemented', '$lookup outside a database');
            return collection(name)[PIPELINE_SOURCE]();
          },
        };
        return runPipeline(pipeline, options, input, this.#work(options));
      },
    };
  }

  /** What a pipeline reads of this collection: its scan (indexes, budgets) and its filter compiler. */
  [PIPELINE_SOURCE](): PipelineSource {
    this.#begin();
    return {
      scan: async (filter, work, enough, collation) => {
        const compiled = compileFilter(filter, this.#indexes, undefined, collation);
        const matches: Document[] = [];
        const scanning = this.#scanFilter(
          filter,
          'insertion',
          compiled,
          work,
          (doc) => matches.push(doc) >= enough,
        );
        if (scanning) await scanning;
        return matches;
      },
      count: async (filter, work, enough, collation) => {
        if (Object.keys(filter).length === 0) return this.#docs.size;
        const compiled = compileFilter(filter, this.#indexes, undefined, collation);
        let count = 0;
        const scanning = this.#scanFilter(filter, 'any', compiled, work, () => {
          count += 1;
          return count >= enough;
        });
        if (scanning) await scanning;
        return count;
      },
      compile: (filter, collation) => compileFilter(filter, this.#indexes, undefined, collation),
    };
  }

  insertOne(doc: Document, options: object = {}): Promise<{ insertedId: unknown }> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('insertOne', options);
      if (!isPlainObject(doc)) throw new EmbeddedDbError('BadValue', 'document must be an object');
      return { insertedId: cloneValue(this.#insert(doc)._id) };
    });
  }

  /**
   * Inserts `docs` in order, as MongoDB's `insertMany`: when `ordered` (the default) the first
   * that fails stops the rest (those before it stay inserted); unordered, every document is
   * tried. A failure throws the first error, carrying every failure in `writeErrors` and what
   * was done in `result` (`insertedCount`, `insertedIds` and the other counts, 0), as the
   * driver's bulk write error does.
   */
  insertMany(
    docs: Document[],
    options: InsertManyOptions = {},
  ): Promise<{ insertedCount: number; insertedIds: Record<number, unknown> }> {
    return this.#insertMany(docs, options, toStored);
  }

  /**
   * {@link insertMany} of documents the caller hands over and never touches again (a file just
   * parsed, as `store import` and `store serve --seed` load one): a document already as the
   * engine stores it (plain JSON values, ObjectIds, valid dates) is kept itself, not copied.
   * The same results and errors as insertMany.
   */
  insertHandedOver(
    docs: Document[],
    options: InsertManyOptions = {},
  ): Promise<{ insertedCount: number; insertedIds: Record<number, unknown> }> {
    return this.#insertMany(docs, options, handedOverAsStored);
  }

  #insertMany(
    docs: Document[],
    options: InsertManyOptions,
    asStored: (doc: Document) => Document,
  ): Promise<{ insertedCount: number; insertedIds: Record<number, unknown> }> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('insertMany', options);
      if (!Array.isArray(docs)) throw new EmbeddedDbError('BadValue', 'documents must be an array');
      const ordered = options.ordered !== false;
      const insertedIds: Record<number, unknown> = {};
      const writeErrors: WriteErrorEntry[] = [];
      let first: unknown;
      let insertedCount = 0;
      // The ordered indexes take the batch at once: sorted and merged once, not entry by entry.
      this.#indexes.addingMany(() => {
        for (const [index, doc] of docs.entries()) {
          try {
            if (!isPlainObject(doc)) throw new EmbeddedDbError('BadValue', 'document must be an object');
            insertedIds[index] = cloneValue(this.#insert(doc, asStored)._id);
            insertedCount += 1;
          } catch (error) {
            writeErrors.push(writeErrorOf(error, index));
            first ??= error;
            if (ordered) break;
          }
        }
      });
      if (first !== undefined) {
        // What was done, as the driver's bulk write error has it for an insertMany.
        const done = { insertedCount, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0 };
        throw batchError(writeErrors, { ...done, insertedIds, upsertedIds: {} }, first);
      }
      return { insertedCount, insertedIds };
    });
  }

  /** Runs `operations` (the driver's write models) as the driver's `bulkWrite` does; see `bulk-write.ts`. */
  async bulkWrite(operations: Document[], options: BulkWriteOptions = {}): Promise<BulkWriteResult> {
    checkOptions('bulkWrite', options);
    return runBulkWrite(this, operations, options);
  }

  findOneAndReplace(
    filter: Document,
    replacement: Document,
    options: FindOneAndModifyOptions = {},
  ): Promise<Document | null> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('findOneAndReplace', options, () => this.#indexes.describe());
      checkReplacementArgument(replacement);
      checkModifyOptions(options);
      const outcome = this.#replaceFirst(filter, replacement, options);
      return this.#modifyResult(outcome, options);
    });
  }

  /** Replaces the first document `filter` matches (by `options.sort`), or inserts it on upsert. */
  #replaceFirst(filter: Document, replacement: Document, options: FindOneAndModifyOptions): WriteOutcome {
    const variables = this.#prepare(options);
    const { found } = this.#first(filter, { ...options, variables });
    if (!found) {
      if (!options.upsert) return { changed: false };
      const seedId = upsertSeed(filter)._id;
      const id = seedId !== undefined ? seedId : replacement?._id;
      const inserted = this.#insert(applyReplacement(withIdFirst({ _id: id }), replacement));
      return { after: inserted, changed: true };
    }
    const [key, before] = found;
    const after = applyReplacement(before, replacement);
    const changed = changedBy(before, after);
    if (changed) this.#replace(key, before, after);
    return { before, after: changed ? after : before, changed };
  }

  findOneAndUpdate(
    filter: Document,
    update: Document | Document[],
    options: FindOneAndModifyOptions = {},
  ): Promise<Document | null> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('findOneAndUpdate', options, () => this.#indexes.describe());
      checkCollatedUpdate(update, options);
      checkUpdateArgument(update);
      checkModifyOptions(options);
      return this.#modifyResult(this.#update(filter, update, options), options);
    });
  }

  /** Removes the first document `filter` matches (by `options.sort`) and returns it, projected. */
  findOneAndDelete(filter: Document, options: FindOneAndDeleteOptions = {}): Promise<Document | null> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('findOneAndDelete', options, () => this.#indexes.describe());
      const variables = this.#prepare(options);
      const { found } = this.#first(filter, { ...options, variables });
      if (found) this.#remove(...found);
      return this.#modifyResult({ before: found?.[1], changed: false, deleted: true }, options);
    });
  }

  /** What a findOneAnd* method returns: the document (before or after, projected), or with `includeResultMetadata` the command's reply. */
  #modifyResult(outcome: WriteOutcome, options: FindOneAndModifyOptions): Document | null {
    const doc = options.returnDocument === 'after' ? outcome.after : outcome.before;
    const value = this.#returned(doc, options.projection);
    if (options.includeResultMetadata !== true) return value;
    const { before, after } = outcome;
    const lastErrorObject: Document = { n: before || after ? 1 : 0 };
    // Updates and replacements say whether an existing document was updated, and what an upsert inserted.
    if (!outcome.deleted) lastErrorObject.updatedExisting = before !== undefined;
    if (!before && after) lastErrorObject.upserted = cloneValue(after._id);
    return { lastErrorObject, value, ok: 1 };
  }

  updateOne(
    filter: Document,
    update: Document | Document[],
    options: UpdateOptions = {},
  ): Promise<UpdateResult> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('updateOne', options, () => this.#indexes.describe());
      checkCollatedUpdate(update, options);
      checkUpdateArgument(update);
      const { before, after, changed } = this.#update(filter, update, options);
      if (!before) return updateResult(0, 0, after ? cloneValue(after._id) : undefined);
      return updateResult(1, changed ? 1 : 0);
    });
  }

  /** Replaces the first document `filter` matches, or inserts `replacement` on upsert (with the filter's `_id`, if it pins one). */
  replaceOne(filter: Document, replacement: Document, options: ReplaceOptions = {}): Promise<UpdateResult> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('replaceOne', options, () => this.#indexes.describe());
      checkReplacementArgument(replacement);
      const { before, after, changed } = this.#replaceFirst(filter, replacement, options);
      if (!before) return updateResult(0, 0, after ? cloneValue(after._id) : undefined);
      return updateResult(1, changed ? 1 : 0);
    });
  }

  /**
   * Applies `update` to every document `filter` matches, in slices, or inserts one on `upsert`
   * when none does. Every new version is made (from the documents as they were when the
   * operation began) before any is stored, so an update that fails on one of them (`$inc` of a
   * string) changes none; then each is stored whole. A document another caller wrote meanwhile
   * is updated as it is now if it still matches (left out if not, or if it is gone). Past
   * `maxTimeMS` while storing, or on a duplicate key, the documents already stored stay changed.
   */
  updateMany(
    filter: Document,
    update: Document | Document[],
    options: UpdateOptions = {},
  ): Promise<UpdateResult> {
    return this.#durablyInSlices(options, async (work) => {
      checkOptions('updateMany', options, () => this.#indexes.describe());
      checkCollatedUpdate(update, options);
      checkUpdateArgument(update);
      const extras = { arrayFilters: options.arrayFilters, variables: this.#prepare(options) };
      validateUpdate(update, extras);
      const collation = parseCollation(options.collation);
      const compiled = compileFilter(filter, this.#indexes, extras.variables, collation);
      const matched = await this.#matchingEntries(filter, 'insertion', compiled, work);
      if (matched.length === 0 && options.upsert === true) {
        return updateResult(0, 0, cloneValue(this.#upsert(filter, update, compiled, extras)._id));
      }
      // Updating documents costs far more than testing them: the clock is read after each batch.
      const batches: Entry[][] = [];
      for (let from = 0; from < matched.length; from += UPDATE_AT_ONCE) {
        batches.push(matched.slice(from, from + UPDATE_AT_ONCE));
      }
      const planned: PlannedUpdate[] = [];
      const plan = (batch: Entry[]) => {
        const afters = applyUpdateToAll(
          batch.map(([, before]) => before),
          update,
          compiled,
          extras,
        );
        for (const [i, [key, before]] of batch.entries())
          planned.push({ key, before, after: afters[i] as Document });
      };
      await forEachInSlices(batches, work, plan, true);
      let matchedCount = 0;
      let modifiedCount = 0;
      const store = (each: PlannedUpdate) => {
        const outcome = this.#updateAsPlanned(each, update, compiled, extras);
        if (outcome !== 'gone') matchedCount += 1;
        if (outcome === 'changed') modifiedCount += 1;
      };
      await forEachInSlices(planned, work, store, true);
      return updateResult(matchedCount, modifiedCount);
    });
  }

  /** Stores one planned update: as planned, or redone on the document as it is now if another caller wrote it. */
  #updateAsPlanned(
    plan: PlannedUpdate,
    update: Update,
    compiled: CompiledFilter,
    extras: UpdateExtras,
  ): 'changed' | 'unchanged' | 'gone' {
    let { before, after } = plan;
    const current = this.#docs.get(plan.key);
    if (current !== before) {
      if (current === undefined || !compiled.test(current)) return 'gone';
      before = current;
      after = applyUpdate(current, update, compiled, false, extras);
    }
    if (!changedBy(before, after)) return 'unchanged';
    this.#replace(plan.key, before, after);
    return 'changed';
  }

  /** The `let` variables of a write, evaluated once. */
  #prepare(options: WriteOptions): Document | undefined {
    return letVariables(options.let);
  }

  /** Inserts the document an upsert of `update` makes from `filter`'s equality conditions. */
  #upsert(filter: Document, update: Update, compiled: CompiledFilter, extras: UpdateExtras): Document {
    const seed = upsertSeed(filter);
    // A pipeline may set an `_id` the filter does not pin; operator updates keep one made first.
    const start = Array.isArray(update) ? seed : withIdFirst(seed);
    return this.#insert(applyUpdate(start, update, compiled, true, extras));
  }

  #update(filter: Document, update: Document | Document[], options: FindOneAndModifyOptions): WriteOutcome {
    const extras = { arrayFilters: options.arrayFilters, variables: this.#prepare(options) };
    validateUpdate(update, extras);
    const { compiled, found } = this.#first(filter, { ...options, variables: extras.variables });
    if (!found) {
      if (options.upsert !== true) return { changed: false };
      return { after: this.#upsert(filter, update, compiled, extras), changed: true };
    }
    const [key, before] = found;
    const after = applyUpdate(before, update, compiled, false, extras);
    const changed = changedBy(before, after);
    if (changed) this.#replace(key, before, after);
    return { before, after: changed ? after : before, changed };
  }

  deleteOne(filter: Document, options: DeleteOptions = {}): Promise<{ deletedCount: number }> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('deleteOne', options, () => this.#indexes.describe());
      const variables = this.#prepare(options);
      const { found } = this.#first(filter, { ...options, variables });
      if (found) this.#remove(...found);
      return { deletedCount: found ? 1 : 0 };
    });
  }

  /**
   * Removes every document `filter` matches, in slices: the matches are found first (as the
   * collection was when the operation began), then removed {@link REMOVE_AT_ONCE} at a time, each
   * batch whole (one journal record); a document another caller wrote meanwhile is removed only if
   * it still matches. Past `maxTimeMS` while removing, the batches already removed stay removed.
   */
  deleteMany(filter: Document, options: DeleteOptions = {}): Promise<{ deletedCount: number }> {
    return this.#durablyInSlices(options, async (work) => {
      checkOptions('deleteMany', options, () => this.#indexes.describe());
      const variables = this.#prepare(options);
      const compiled = compileFilter(filter, this.#indexes, variables, parseCollation(options.collation));
      const doomed = await this.#matchingEntries(filter, 'any', compiled, work);
      const batches: Entry[][] = [];
      for (let from = 0; from < doomed.length; from += REMOVE_AT_ONCE) {
        batches.push(doomed.slice(from, from + REMOVE_AT_ONCE));
      }
      let deletedCount = 0;
      const remove = (batch: Entry[]) => {
        deletedCount += this.#removeStill(batch, compiled);
      };
      await forEachInSlices(batches, work, remove, true);
      return { deletedCount };
    });
  }

  createIndex(spec: IndexSpec, options: IndexOptions = {}): Promise<string> {
    return this.#durably(() => {
      this.#begin();
      checkOptions('createIndex', options);
      const name = this.#indexes.create(spec, options, this.#docs);
      if (options.expireAfterSeconds !== undefined) this.#nextExpiry = Number.NEGATIVE_INFINITY;
      if (!this.#indexDefinitions.has(name)) {
        const definition = { name, spec: cloneValue(spec), options: cloneValue(options) };
        this.#indexDefinitions.set(name, definition);
        this.#journal({ c: this.collectionName, index: definition });
      }
      return name;
    });
  }

  /** Change streams: refused (NotImplemented, 238), the engine has none. */
  watch(): never {
    return refuseChangeStreams();
  }

  listIndexes(): { toArray(): Promise<IndexDescription[]> } {
    return {
      toArray: async () => {
        this.#begin();
        return this.#indexes.describe();
      },
    };
  }

  dropIndex(name: string): Promise<{ ok: 1 }> {
    return this.#durably(() => {
      this.#begin();
      this.#indexes.drop(name);
      this.#indexDefinitions.delete(name);
      this.#journal({ c: this.collectionName, dropIndex: name });
      return { ok: 1 as const };
    });
  }

  /** Whether the collection exists as MongoDB would list it: it holds documents or indexes. */
  exists(): boolean {
    return this.#docs.size > 0 || this.#indexDefinitions.size > 0;
  }

  /**
   * Fills an empty collection with documents read from disk, keyed by their `_id` key (see
   * `idKey`) in their stored order, and creates its indexes over them. The collection takes
   * `docs` as its own (the documents were just decoded: nothing else holds them). For a durable
   * database's open only: nothing is journaled.
   */
  restore(docs: Map<string, Document>, indexes: Iterable<IndexDefinition>, idOrder?: Int32Array): void {
    this.#version = ++lastVersion;
    this.#docs = docs;
    const first = this.#inserted;
    this.#inserted += docs.size;
    this.#indexes.rebuild(docs, first, idOrder);
    for (const definition of indexes) {
      this.#indexes.create(definition.spec, definition.options, this.#docs);
      this.#indexDefinitions.set(definition.name, definition);
    }
    this.#nextExpiry = Number.NEGATIVE_INFINITY;
  }

  /**
   * Takes the documents and indexes of `source`, without copying (what this collection held is
   * dropped), and leaves `source` empty: a rename. Nothing is journaled (the database records
   * the rename). Not while a sliced operation (updateMany, deleteMany) runs on either collection.
   */
  [TAKE_OVER](source: EmbeddedCollection): void {
    this.#version = ++lastVersion;
    // The map changes owner, who will change it in place: scans paused on it copy their rest now.
    source.#pausedScans.beforeChange();
    this.#docs = source.#docs;
    this.#indexes = source.#indexes;
    this.#inserted = source.#inserted;
    this.#nextExpiry = source.#nextExpiry;
    this.#indexDefinitions = source.#indexDefinitions;
    source[EMPTY]();
  }

  /** Drops every document and index, without journaling (the database records the drop). */
  [EMPTY](): void {
    this.#version = ++lastVersion;
    this.#docs = new Map();
    this.#indexes = new CollectionIndexes();
    this.#inserted = 0;
    this.#nextExpiry = Number.POSITIVE_INFINITY;
    this.#indexDefinitions = new Map();
  }

  /** The documents and index definitions as they are now (for a snapshot); the documents are never changed in place. */
  image(): { docs: Document[]; indexes: IndexDefinition[]; idOrder?: number[] } {
    return {
      docs: [...this.#docs.values()],
      indexes: [...this.#indexDefinitions.values()],
      idOrder: this.#idOrder(),
    };
  }

  /**
   * The sequences of the `_id` index's entries in its order, from which an open places the
   * documents in that order without sorting (a sequence's rank is the document's place: each
   * document is added at the end with a new sequence, as every write does; the open checks
   * the order it gets).
   */
  #idOrder(): number[] | undefined {
    const ids = this.#indexes.ordered('_id');
    if (ids === undefined || ids.multikey.size > 0) return undefined;
    const { seqs } = ids.columns;
    return seqs.length === this.#docs.size ? [...seqs] : undefined;
  }
}
