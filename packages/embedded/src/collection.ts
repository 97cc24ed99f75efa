/**
 * One collection of the embedded engine: documents in a `Map` keyed by the canonical `_id`
 * key, in insertion order. Every operation runs synchronously from start to finish inside its
 * async method, so each one is atomic with respect to concurrent callers.
 */
import type {
  Document,
  FindCursor,
  FindOptions,
  IndexDescription,
  IndexOptions,
  IndexSpec,
  ModifyOptions,
  StoreCollection,
} from '@store/common';
import { isPlainObject } from '@store/common';
import { applyReplacement, applyUpdate, upsertSeed, validateUpdate, withIdFirst } from './apply-update';
import { compareValues } from './bson-order';
import { type CompiledFilter, compileFilter } from './compile-filter';
import type { Change } from './durable/records';
import { EmbeddedDbError } from './errors';
import { candidateKeys, exactIdKeys } from './id-lookup';
import { CollectionIndexes, type KeyMemo } from './indexes';
import type { IndexEntry } from './ordered-index';
import { valuesAtPath } from './paths';
import { readDocuments } from './read-documents';
import { sortDocuments } from './sort-documents';
import { bsonBytes, cloneValue, idKey, isObjectId, toStored } from './values';
import { walkSpan } from './walk-span';

/** Shared by a database and its collections. */
export interface EngineState {
  closed: boolean;
  /** Why the database stopped serving, when not by `close()` (a journal that cannot be written). */
  failure?: string;
  /** A durable database's journal: the changes of one operation, on disk once the promise resolves. */
  journal?: { record(changes: Change[]): Promise<void> };
}

/** An index as created, by name: what a durable database stores to create it again on open. */
export interface IndexDefinition {
  name: string;
  spec: IndexSpec;
  options: IndexOptions;
}

type Entry = [key: string, doc: Document];
/** How candidates found by key must be ordered (see `#candidates`). */
type CandidateOrder = 'insertion' | 'sortedById' | 'any';

/** Candidates pinned to at most this many (or 4x the page) are sorted outright rather than walked from an index. */
const SORT_OUTRIGHT_AT_MOST = 1000;

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

function checkModifyOptions(options: ModifyOptions): void {
  if (options?.returnDocument !== 'before' && options?.returnDocument !== 'after') {
    throw new EmbeddedDbError('BadValue', "returnDocument must be 'before' or 'after'");
  }
}

/** An embedded collection; see {@link StoreCollection} for each method. */
export class EmbeddedCollection implements StoreCollection {
  readonly collectionName: string;
  readonly #docs = new Map<string, Document>();
  readonly #indexes = new CollectionIndexes((key) => this.#order.get(key) ?? 0);
  /** Insertion sequence of each document key: candidates found by key keep the order of a scan. */
  readonly #order = new Map<string, number>();
  #inserted = 0;
  readonly #state: EngineState;
  readonly #nameProblem: string | undefined;
  /**
   * The earliest time (ms) a stored document expires under a TTL index: until then no
   * operation scans for expired documents (so cost does not grow with, say, live sessions).
   * `-Infinity` when unknown (a new TTL index), `Infinity` when nothing expires.
   */
  #nextExpiry = Number.POSITIVE_INFINITY;
  /** Indexes as created (key specification and options as given), by name. */
  readonly #indexDefinitions = new Map<string, IndexDefinition>();
  /** Changes of the operation under way, for a durable database's journal. */
  #changes: Change[] = [];

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
    if (this.#state.closed) {
      throw new EmbeddedDbError(
        'InterruptedAtShutdown',
        this.#state.failure ?? 'the embedded database is closed',
      );
    }
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

  /** Sends the changes of the operation to the journal (a durable database), if any. */
  #commit(): Promise<void> | undefined {
    if (this.#changes.length === 0) return undefined;
    const changes = this.#changes;
    this.#changes = [];
    return this.#state.journal?.record(changes);
  }

  /**
   * Runs a write: its changes are applied at once (the operation stays atomic for concurrent
   * callers) and, on a durable database, it resolves only once they are on disk; a write that
   * fails part-way (a duplicate key) still journals what it changed before failing.
   */
  async #durably<T>(write: () => T): Promise<T> {
    let result: T;
    try {
      result = write();
    } finally {
      const synced = this.#commit();
      if (synced) await synced;
    }
    return result;
  }

  #journal(change: Change): void {
    if (this.#state.journal) this.#changes.push(change);
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
   * of which can tie in mingo's sort).
   */
  #candidates(filter: Document, order: CandidateOrder): Iterable<Entry> {
    const memo: KeyMemo = new Map();
    const keys =
      candidateKeys(filter, (field, values) => this.#indexes.lookup(field, values, memo)) ??
      this.#rangeKeys(filter);
    return keys ? this.#byKeys(keys, order) : this.#docs.entries();
  }

  /** The documents stored under `keys`, ordered as `order` asks (see `#candidates`). */
  #byKeys(keys: Iterable<string>, order: CandidateOrder): Entry[] {
    const found: Entry[] = [];
    for (const key of keys) {
      const doc = this.#docs.get(key);
      if (doc) found.push([key, doc]);
    }
    if (
      found.length <= 1 ||
      order === 'any' ||
      (order === 'sortedById' && found.every(([, doc]) => isTotalId(doc._id)))
    ) {
      return found;
    }
    const at = (key: string): number => this.#order.get(key) ?? 0;
    return found
      .map((entry) => ({ entry, at: at(entry[0]) }))
      .sort((a, b) => a.at - b.at)
      .map(({ entry }) => entry);
  }

  /** The keys in the narrowest range `filter` pins on an ordered index, when it leaves out most documents. */
  #rangeKeys(filter: Document): Iterable<string> | undefined {
    const narrowest = this.#indexes.narrowestRange(filter);
    if (narrowest === undefined) return undefined;
    const { index, span } = narrowest;
    const [from, to] = span;
    if ((to - from + index.multikey.size) * 2 > this.#docs.size) return undefined;
    const keys: string[] = [...index.multikey];
    for (let i = from; i < to; i++) keys.push((index.entries[i] as IndexEntry).docKey);
    return keys;
  }

  *#matches(
    filter: Document,
    compiled: CompiledFilter,
    order: CandidateOrder = 'insertion',
  ): Generator<Entry> {
    for (const entry of this.#candidates(filter, order)) if (compiled.test(entry[1])) yield entry;
  }

  #first(filter: Document): { compiled: CompiledFilter; found: Entry | undefined } {
    const compiled = compileFilter(filter, this.#indexes);
    return { compiled, found: this.#matches(filter, compiled).next().value ?? undefined };
  }

  #insert(doc: Document): Document {
    const stored = toStored(withIdFirst(doc));
    if (Array.isArray(stored._id) || stored._id instanceof RegExp) {
      throw new EmbeddedDbError('InvalidIdField', "The '_id' value cannot be of type array or regex");
    }
    const key = idKey(stored._id);
    if (this.#docs.has(key)) {
      const keyValue = { _id: stored._id };
      throw new EmbeddedDbError('DuplicateKey', 'E11000 duplicate key error index: _id_', {
        keyPattern: { _id: 1 },
        keyValue,
      });
    }
    this.#order.set(key, this.#inserted);
    try {
      this.#indexes.move(key, undefined, stored);
    } catch (error) {
      this.#order.delete(key);
      throw error;
    }
    this.#inserted++;
    this.#docs.set(key, stored);
    this.#noteExpiry(stored);
    this.#journal({ c: this.collectionName, put: stored });
    return stored;
  }

  #replace(key: string, before: Document, after: Document): void {
    this.#indexes.move(key, before, after);
    this.#docs.set(key, after);
    this.#noteExpiry(after);
    this.#journal({ c: this.collectionName, put: after });
  }

  #remove(key: string, doc: Document): void {
    this.#indexes.move(key, doc, undefined);
    this.#docs.delete(key);
    this.#order.delete(key);
    this.#journal({ c: this.collectionName, remove: doc._id });
  }

  #returned(doc: Document | undefined, projection: Document | undefined): Document | null {
    return doc ? (readDocuments([doc], undefined, { projection })[0] ?? null) : null;
  }

  /**
   * The first `skip + limit` matches of a sorted find, walked from the ordered index of its first
   * sort key: documents in sort order, tested one by one, stopping once enough matched (no full
   * scan, no full sort). Ties on that key are ordered by the other keys, then insertion order,
   * as the sort would. Undefined when no walk applies: no such index, a document holding an array
   * there, no limit, or a pinned set of candidates small enough to sort outright.
   */
  #walk(filter: Document, compiled: CompiledFilter, options: FindOptions): Document[] | undefined {
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
    const rest = others.length > 0 ? Object.fromEntries(others) : undefined;
    const { entries } = index;
    const [from, to] = walkSpan(index, filter);
    const out: Document[] = [];
    const take = (start: number, end: number) => {
      const group: Document[] = [];
      for (let i = start; i < end; i++) {
        const doc = this.#docs.get((entries[i] as IndexEntry).docKey);
        if (doc !== undefined && compiled.test(doc)) group.push(doc);
      }
      out.push(...(rest !== undefined && group.length > 1 ? sortDocuments(group, rest) : group));
    };
    const same = (i: number, j: number) =>
      compareValues((entries[i] as IndexEntry).value, (entries[j] as IndexEntry).value) === 0;
    if (direction === 1) {
      for (let start = from; start < to && out.length < need; ) {
        let end = start + 1;
        while (end < to && same(end, start)) end++;
        take(start, end);
        start = end;
      }
    } else {
      for (let end = to; end > from && out.length < need; ) {
        let start = end - 1;
        while (start > from && same(start - 1, end - 1)) start--;
        take(start, end);
        end = start;
      }
    }
    return out.slice(0, need);
  }

  find(filter: Document, options: FindOptions = {}): FindCursor {
    return {
      toArray: async () => {
        this.#begin();
        const byId = isPlainObject(options.sort) && Object.hasOwn(options.sort, '_id');
        const order = byId ? 'sortedById' : 'insertion';
        const exact = exactIdKeys(filter);
        if (exact !== undefined) {
          return readDocuments(
            this.#byKeys(exact, order).map(([, doc]) => doc),
            undefined,
            options,
          );
        }
        const compiled = compileFilter(filter, this.#indexes);
        const walked = this.#walk(filter, compiled, options);
        if (walked !== undefined) return readDocuments(walked, undefined, { ...options, sort: undefined });
        const matches = [...this.#matches(filter, compiled, order)].map(([, doc]) => doc);
        return readDocuments(matches, compiled.near, options);
      },
    };
  }

  async findOne(filter: Document, options: { projection?: Document } = {}): Promise<Document | null> {
    const [doc] = await this.find(filter, { projection: options.projection, limit: 1 }).toArray();
    return doc ?? null;
  }

  async countDocuments(filter: Document): Promise<number> {
    this.#begin();
    const compiled = compileFilter(filter, this.#indexes);
    if (compiled.near) {
      throw new EmbeddedDbError(
        'BadValue',
        '$geoNear, $near, and $nearSphere are not allowed in this context',
      );
    }
    // An empty filter counts every document (the sweep above has removed the expired ones).
    if (Object.keys(filter).length === 0) return this.#docs.size;
    let count = 0;
    for (const _ of this.#matches(filter, compiled, 'any')) count += 1;
    return count;
  }

  insertOne(doc: Document): Promise<{ insertedId: unknown }> {
    return this.#durably(() => {
      this.#begin();
      if (!isPlainObject(doc)) throw new EmbeddedDbError('BadValue', 'document must be an object');
      return { insertedId: cloneValue(this.#insert(doc)._id) };
    });
  }

  /**
   * Inserts `docs` in order, as MongoDB's ordered `insertMany`: the first that fails stops the
   * rest (those before it stay inserted); its error carries `writeErrors: [{ index, code, errmsg }]`
   * as the driver's bulk write error does.
   */
  insertMany(docs: Document[]): Promise<{ insertedCount: number; insertedIds: Record<number, unknown> }> {
    return this.#durably(() => {
      this.#begin();
      if (!Array.isArray(docs)) throw new EmbeddedDbError('BadValue', 'documents must be an array');
      const insertedIds: Record<number, unknown> = {};
      docs.forEach((doc, index) => {
        try {
          if (!isPlainObject(doc)) throw new EmbeddedDbError('BadValue', 'document must be an object');
          insertedIds[index] = cloneValue(this.#insert(doc)._id);
        } catch (error) {
          if (error instanceof EmbeddedDbError)
            Object.assign(error, { writeErrors: [{ index, code: error.code, errmsg: error.message }] });
          throw error;
        }
      });
      return { insertedCount: docs.length, insertedIds };
    });
  }

  findOneAndReplace(
    filter: Document,
    replacement: Document,
    options: ModifyOptions,
  ): Promise<Document | null> {
    return this.#durably(() => this.#findOneAndReplace(filter, replacement, options));
  }

  #findOneAndReplace(filter: Document, replacement: Document, options: ModifyOptions): Document | null {
    this.#begin();
    checkModifyOptions(options);
    const { found } = this.#first(filter);
    if (!found) {
      if (!options.upsert) return null;
      const seedId = upsertSeed(filter)._id;
      const inserted = this.#insert(
        applyReplacement(withIdFirst({ _id: seedId ?? replacement?._id }), replacement),
      );
      return options.returnDocument === 'after' ? this.#returned(inserted, options.projection) : null;
    }
    const [key, before] = found;
    const after = applyReplacement(before, replacement);
    this.#replace(key, before, after);
    return this.#returned(options.returnDocument === 'after' ? after : before, options.projection);
  }

  findOneAndUpdate(filter: Document, update: Document, options: ModifyOptions): Promise<Document | null> {
    return this.#durably(() => {
      this.#begin();
      checkModifyOptions(options);
      const outcome = this.#update(filter, update, options.upsert === true);
      const doc = options.returnDocument === 'after' ? outcome.after : outcome.before;
      return this.#returned(doc, options.projection);
    });
  }

  updateOne(
    filter: Document,
    update: Document,
    options: { upsert?: boolean } = {},
  ): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number }> {
    return this.#durably(() => {
      this.#begin();
      const { before, after, changed } = this.#update(filter, update, options.upsert === true);
      return {
        matchedCount: before ? 1 : 0,
        modifiedCount: before && changed ? 1 : 0,
        upsertedCount: !before && after ? 1 : 0,
      };
    });
  }

  /**
   * Applies `update` to every document `filter` matches. Every new version is made before any is
   * stored, so an update that fails on one document (`$inc` of a string) changes none.
   */
  updateMany(
    filter: Document,
    update: Document,
  ): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number }> {
    return this.#durably(() => {
      this.#begin();
      validateUpdate(update);
      const compiled = compileFilter(filter, this.#indexes);
      const matched = [...this.#matches(filter, compiled)];
      const changes = matched.map(([key, before]) => {
        const after = applyUpdate(before, update, compiled, false);
        return { key, before, after, changed: !Buffer.from(bsonBytes(before)).equals(bsonBytes(after)) };
      });
      let modifiedCount = 0;
      for (const { key, before, after, changed } of changes) {
        if (!changed) continue;
        this.#replace(key, before, after);
        modifiedCount += 1;
      }
      return { matchedCount: matched.length, modifiedCount, upsertedCount: 0 };
    });
  }

  #update(filter: Document, update: Document, upsert: boolean) {
    validateUpdate(update);
    const { compiled, found } = this.#first(filter);
    if (!found) {
      if (!upsert) return { before: undefined, after: undefined, changed: false };
      const inserted = this.#insert(applyUpdate(withIdFirst(upsertSeed(filter)), update, compiled, true));
      return { before: undefined, after: inserted, changed: true };
    }
    const [key, before] = found;
    const after = applyUpdate(before, update, compiled, false);
    const changed = !Buffer.from(bsonBytes(before)).equals(bsonBytes(after));
    if (changed) this.#replace(key, before, after);
    return { before, after: changed ? after : before, changed };
  }

  deleteOne(filter: Document): Promise<{ deletedCount: number }> {
    return this.#durably(() => {
      this.#begin();
      const { found } = this.#first(filter);
      if (found) this.#remove(...found);
      return { deletedCount: found ? 1 : 0 };
    });
  }

  deleteMany(filter: Document): Promise<{ deletedCount: number }> {
    return this.#durably(() => {
      this.#begin();
      const compiled = compileFilter(filter, this.#indexes);
      const doomed = [...this.#matches(filter, compiled)];
      for (const [key, doc] of doomed) this.#remove(key, doc);
      return { deletedCount: doomed.length };
    });
  }

  createIndex(spec: IndexSpec, options: IndexOptions = {}): Promise<string> {
    return this.#durably(() => {
      this.#begin();
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
   * Fills an empty collection with documents read from disk (in their stored order) and creates
   * its indexes over them. For a durable database's open only: nothing is journaled.
   */
  restore(docs: Iterable<Document>, indexes: Iterable<IndexDefinition>): void {
    for (const doc of docs) {
      const key = idKey(doc._id);
      this.#docs.set(key, doc);
      this.#order.set(key, this.#inserted++);
    }
    this.#indexes.rebuild(this.#docs);
    for (const definition of indexes) {
      this.#indexes.create(definition.spec, definition.options, this.#docs);
      this.#indexDefinitions.set(definition.name, definition);
    }
    this.#nextExpiry = Number.NEGATIVE_INFINITY;
  }

  /** The documents and index definitions as they are now (for a snapshot); the documents are never changed in place. */
  image(): { docs: Document[]; indexes: IndexDefinition[] } {
    return { docs: [...this.#docs.values()], indexes: [...this.#indexDefinitions.values()] };
  }
}
