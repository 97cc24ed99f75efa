/**
 * A request's budgets on every database call it makes: the request's `db` and `collection` (so
 * also nested routes, `$populate` / `$fill` joins, hooks' `ctx.db`, bulk reads and writes) pass
 * `maxTimeMS` and `maxExamined` on each operation that takes them, and the engines' refusals
 * become the store's answers: past the time budget 503 `query_timeout`, past the examined
 * budget 422 `budget_exceeded`.
 */
import {
  type Document,
  type FindOptions,
  isStoreError,
  type StoreCollection,
  type StoreDb,
} from '@store/common';
import { requestBudgets } from '../config/budgets-option';
import { hookContext } from '../hooks/hook-context';
import type { RequestBudgets, RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import { MAX_TIME_MS_EXPIRED, queryTimeout } from '../storage/driver-db';

/** The embedded engine's name for an operation past its `maxExamined` (no MongoDB code has it). */
const EXCEEDED_EXAMINED = 'ExceededExaminedLimit';

/** The 422 of an operation that examined more documents than `limit`. */
function examinedExceeded(limit: number, cause: unknown) {
  return storeError(
    'budget_exceeded',
    `This request may examine at most ${limit} documents per query (budgets.examined), and this query ` +
      'needs more: narrow its filter (indexed fields, fewer $or and $regex terms), or ask for a higher budgets.examined.',
    { cause, extensions: { budget: 'examined', limit } },
  );
}

/** What an engine threw, as the store answers it: a time or examined limit becomes its problem. */
function budgetError(error: unknown, budgets: RequestBudgets): unknown {
  if (isStoreError(error) || typeof error !== 'object' || error === null) return error;
  const { code, codeName } = error as { code?: unknown; codeName?: unknown };
  if (code === MAX_TIME_MS_EXPIRED) return queryTimeout(budgets.timeMS, error);
  if (codeName === EXCEEDED_EXAMINED) return examinedExceeded(budgets.examined, error);
  return error;
}

/** The collections under budgets, by the one each wraps: {@link withoutBudgets} finds it back. */
const unbudgeted = new WeakMap<StoreCollection, StoreCollection>();

function budgetedCollection(inner: StoreCollection, budgets: RequestBudgets): StoreCollection {
  // `maxExamined` where the storage interface takes it (scans: finds, counts, writes by filter);
  // the single-document writes by `_id` take the time limit only.
  const limits = { maxTimeMS: budgets.timeMS, maxExamined: budgets.examined };
  const time = { maxTimeMS: budgets.timeMS };
  const run = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw budgetError(error, budgets);
    }
  };
  const collection: StoreCollection = {
    collectionName: inner.collectionName,
    find: (filter: Document, options: FindOptions = {}) => ({
      toArray: () => run(() => inner.find(filter, { ...options, ...limits }).toArray()),
    }),
    findOne: (filter, options = {}) => run(() => inner.findOne(filter, { ...options, ...limits })),
    countDocuments: (filter, options = {}) =>
      run(() => inner.countDocuments(filter, { ...options, ...limits })),
    insertOne: (doc) => run(() => inner.insertOne(doc)),
    insertMany: (docs) => run(() => inner.insertMany(docs)),
    findOneAndReplace: (filter, replacement, options) =>
      run(() => inner.findOneAndReplace(filter, replacement, { ...options, ...time })),
    findOneAndUpdate: (filter, update, options) =>
      run(() => inner.findOneAndUpdate(filter, update, { ...options, ...time })),
    updateOne: (filter, update, options = {}) =>
      run(() => inner.updateOne(filter, update, { ...options, ...time })),
    updateMany: (filter, update, options = {}) =>
      run(() => inner.updateMany(filter, update, { ...options, ...limits })),
    deleteOne: (filter, options = {}) => run(() => inner.deleteOne(filter, { ...options, ...time })),
    deleteMany: (filter, options = {}) => run(() => inner.deleteMany(filter, { ...options, ...limits })),
    createIndex: (spec, options) => inner.createIndex(spec, options),
    listIndexes: () => inner.listIndexes(),
    dropIndex: (name) => inner.dropIndex(name),
  };
  unbudgeted.set(collection, inner);
  return collection;
}

/** `db` whose every operation carries `budgets` (one wrapper per collection and request). */
function budgetedDb(db: StoreDb, budgets: RequestBudgets): StoreDb {
  const collections = new Map<string, StoreCollection>();
  return {
    collection(name: string) {
      let collection = collections.get(name);
      if (collection === undefined) {
        collection = budgetedCollection(db.collection(name), budgets);
        collections.set(name, collection);
      }
      return collection;
    },
  };
}

/**
 * The collection under `collection`'s budgets: for the clean-up a committed or half-done write
 * owes whatever the request's budgets (a bulk create withdrawing its own documents, the reads
 * that hand written documents to after-hooks), which must not fail for a budget the request
 * already spent.
 */
export function withoutBudgets(collection: StoreCollection): StoreCollection {
  return unbudgeted.get(collection) ?? collection;
}

function applied(ctx: RequestContext, budgets: RequestBudgets): RequestContext {
  const db = budgetedDb(ctx.db, budgets);
  return { ...ctx, budgets, db, collection: db.collection(ctx.resource.collection) };
}

/**
 * `ctx` with the request's budgets (`budgets`, its functions called once with the request's
 * `HookContext`) on its `db` and `collection`, and in `ctx.budgets`. No promise when no budget is
 * a function.
 */
export function withBudgets(ctx: RequestContext): RequestContext | Promise<RequestContext> {
  const budgets = requestBudgets(ctx.options.budgets, () => hookContext(ctx));
  return budgets instanceof Promise ? budgets.then((each) => applied(ctx, each)) : applied(ctx, budgets);
}
