/**
 * A tiny in-memory database on `mingo` with the driver's `find(filter, { sort, limit })` and
 * `insertOne` shapes: the stand-in engine until core's embedded engine is committed.
 */
import { find } from 'mingo';
import type { PopulateDocument, PopulateFindOptions } from '../../src/index';

/** The database surface the tests use: what populate reads plus `insertOne` to seed. */
export interface SeedableCollection {
  find(
    filter: PopulateDocument,
    options?: PopulateFindOptions & { projection?: Record<string, 0 | 1> },
  ): { toArray(): Promise<PopulateDocument[]> };
  insertOne(doc: PopulateDocument): Promise<unknown>;
}

/** A database the suites can seed and populate can read. */
export interface SeedableDb {
  collection(name: string): SeedableCollection;
}

/** Deep copy of plain objects and arrays; class instances (ObjectId, Date) kept as they are. */
function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
}

/** Fresh empty in-memory database. Documents are cloned in and out, like a real engine. */
export function createMingoDb(): SeedableDb {
  const collections = new Map<string, PopulateDocument[]>();
  const docsOf = (name: string) => {
    const existing = collections.get(name);
    if (existing) return existing;
    const created: PopulateDocument[] = [];
    collections.set(name, created);
    return created;
  };
  return {
    collection: (name) => ({
      find: (filter, options) => ({
        toArray: async () => {
          let cursor = find(docsOf(name), filter, options?.projection);
          if (options?.sort) cursor = cursor.sort(options.sort);
          if (options?.limit !== undefined) cursor = cursor.limit(options.limit);
          return cursor.all().map((doc) => clone(doc));
        },
      }),
      insertOne: async (doc) => {
        docsOf(name).push(clone(doc));
        return { insertedId: doc._id };
      },
    }),
  };
}
