/**
 * A `StoreDb` that publishes every write to a watched collection on the change feed, with the
 * documents before and after it. Writes to a collection nobody watches pass straight through
 * (one map look-up); a watched one costs the reads that find the documents before and after.
 * Those reads are not atomic with the write: under concurrent writes to one document, an
 * event may carry a neighbouring version of it (the order of a document's events still holds).
 */
import type { Document, ModifyOptions, StoreCollection, StoreDb } from '@store/common';
import { idKeyOf as idKey } from '../model/id-key';
import type { Change } from './change';

/** Where changes go, and whether a collection's writes are wanted. */
export interface ChangeSink {
  watching(collection: string): boolean;
  publish(change: Change): void;
}

type Publish = (
  kind: Change['kind'],
  before: Document | null | undefined,
  after: Document | null,
  id?: unknown,
) => void;

const byId = (id: unknown): Document => ({ _id: id });
const narrowed = (filter: Document, id: unknown): Document => ({ $and: [filter, byId(id)] });
const same = (a: Document, b: Document) => JSON.stringify(a) === JSON.stringify(b);

/** The index of the first document a failed ordered `insertMany` did not insert. */
function insertedBefore(error: unknown, count: number): number {
  const index = (error as { writeErrors?: { index?: unknown }[] } | null)?.writeErrors?.[0]?.index;
  return typeof index === 'number' ? index : count;
}

function publishingCollection(inner: StoreCollection, sink: ChangeSink): StoreCollection {
  const name = inner.collectionName;
  const publish: Publish = (kind, before, after, id = (after ?? before)?._id) =>
    sink.publish({ collection: name, kind, id, before, after });
  const watched = () => sink.watching(name);

  /** `findOneAndUpdate` / `findOneAndReplace` (as the store calls them: no upsert) with the document before. */
  async function modify(
    filter: Document,
    options: ModifyOptions,
    write: () => Promise<Document | null>,
  ): Promise<Document | null> {
    const before = await inner.findOne(filter);
    const result = await write();
    if (result === null) return result;
    const direct = options.returnDocument === 'after' && options.projection === undefined;
    const after = direct ? result : await inner.findOne(byId(result._id));
    const known = before !== null && idKey(before._id) === idKey(result._id) ? before : undefined;
    if (after !== null) publish('update', known, after);
    return result;
  }

  return {
    collectionName: name,
    ...(inner.contentVersion === undefined ? {} : { contentVersion: inner.contentVersion.bind(inner) }),
    find: (filter, options) => inner.find(filter, options),
    ...(inner.findWithCount === undefined ? {} : { findWithCount: inner.findWithCount.bind(inner) }),
    findOne: (filter, options) => inner.findOne(filter, options),
    countDocuments: (filter, options) => inner.countDocuments(filter, options),
    createIndex: (spec, options) => inner.createIndex(spec, options),
    listIndexes: () => inner.listIndexes(),
    dropIndex: (indexName) => inner.dropIndex(indexName),

    async insertOne(doc: Document) {
      const result = await inner.insertOne(doc);
      if (watched()) publish('insert', null, { ...doc, _id: result.insertedId });
      return result;
    },

    async insertMany(docs: Document[]) {
      try {
        const result = await inner.insertMany(docs);
        if (watched()) for (const doc of docs) publish('insert', null, doc);
        return result;
      } catch (error) {
        if (watched())
          for (const doc of docs.slice(0, insertedBefore(error, docs.length))) publish('insert', null, doc);
        throw error;
      }
    },

    findOneAndUpdate(filter: Document, update: Document, options: ModifyOptions) {
      if (!watched()) return inner.findOneAndUpdate(filter, update, options);
      return modify(filter, options, () => inner.findOneAndUpdate(filter, update, options));
    },

    findOneAndReplace(filter: Document, replacement: Document, options: ModifyOptions) {
      if (!watched()) return inner.findOneAndReplace(filter, replacement, options);
      return modify(filter, options, () => inner.findOneAndReplace(filter, replacement, options));
    },

    async updateOne(filter: Document, update: Document, options?: { upsert?: boolean }) {
      if (!watched()) return inner.updateOne(filter, update, options);
      const before = await inner.findOne(filter);
      const result = await inner.updateOne(
        before === null ? filter : narrowed(filter, before._id),
        update,
        options,
      );
      const upserted = (result as { upsertedId?: unknown }).upsertedId;
      const id = before?._id ?? upserted;
      if (id === undefined || (result.modifiedCount === 0 && result.upsertedCount === 0)) return result;
      const after = await inner.findOne(byId(id));
      if (after !== null) publish(before === null ? 'insert' : 'update', before, after);
      return result;
    },

    async updateMany(filter: Document, update: Document, options?: object) {
      if (!watched()) return inner.updateMany(filter, update, options);
      const befores = await inner.find(filter).toArray();
      const result = await inner.updateMany(filter, update, options);
      if (result.modifiedCount === 0) return result;
      const afters = await inner.find({ _id: { $in: befores.map((doc) => doc._id) } }).toArray();
      const after = new Map(afters.map((doc) => [idKey(doc._id), doc]));
      for (const before of befores) {
        const now = after.get(idKey(before._id));
        if (now !== undefined && !same(before, now)) publish('update', before, now);
      }
      return result;
    },

    async deleteOne(filter: Document, options?: object) {
      if (!watched()) return inner.deleteOne(filter, options);
      const before = await inner.findOne(filter);
      if (before === null) return inner.deleteOne(filter, options);
      const result = await inner.deleteOne(narrowed(filter, before._id), options);
      if (result.deletedCount === 1) publish('delete', before, null);
      return result.deletedCount === 1 ? result : inner.deleteOne(filter, options);
    },

    async deleteMany(filter: Document, options?: object) {
      if (!watched()) return inner.deleteMany(filter, options);
      const befores = await inner.find(filter).toArray();
      const result = await inner.deleteMany(filter, options);
      if (result.deletedCount === 0) return result;
      const ids = befores.map((doc) => doc._id);
      const left =
        result.deletedCount === befores.length ? [] : await inner.find({ _id: { $in: ids } }).toArray();
      const kept = new Set(left.map((doc) => idKey(doc._id)));
      for (const before of befores) if (!kept.has(idKey(before._id))) publish('delete', before, null);
      return result;
    },
  };
}

/** `db` whose collections publish their writes to `sink` ({@link publishingCollection}). */
export function publishingDb(db: StoreDb, sink: ChangeSink): StoreDb {
  const collections = new Map<string, StoreCollection>();
  return {
    collection(name: string) {
      const known = collections.get(name);
      if (known !== undefined) return known;
      const collection = publishingCollection(db.collection(name), sink);
      collections.set(name, collection);
      return collection;
    },
  };
}
