/**
 * `bulkWrite` of the embedded engine, as the official driver's: write models (`insertOne`,
 * `updateOne`, `updateMany`, `replaceOne`, `deleteOne`, `deleteMany`) run one after another
 * through the collection's own methods, each atomic on its own (not the batch, as on MongoDB),
 * with the batch's `let`. `ordered` (the default) stops at the first failure; unordered runs
 * every operation. A failure throws the first error with every failure in `writeErrors` and
 * the counts of what was done in `result`, as the driver's `MongoBulkWriteError`.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { EmbeddedArgumentError } from './errors';
import {
  batchError,
  checkReplacementArgument,
  checkUpdateArgument,
  type DeleteOptions,
  type ReplaceOptions,
  type UpdateOptions,
  type UpdateResult,
  type WriteErrorEntry,
  writeErrorOf,
} from './write-options';

/** Options of bulkWrite. */
export interface BulkWriteOptions {
  /** Stop at the first failure (true) or run every operation (false). @default true */
  ordered?: boolean;
  /** Variables for `$expr` in every operation's filter and for update pipelines. */
  let?: Document;
}

/** What a bulkWrite did, as the driver's `BulkWriteResult` counts it. */
export interface BulkWriteResult {
  insertedCount: number;
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  upsertedCount: number;
  /** The `_id` of each inserted document, by the index of its operation. */
  insertedIds: Record<number, unknown>;
  /** The `_id` of each document an upsert inserted, by the index of its operation. */
  upsertedIds: Record<number, unknown>;
}

/** The collection methods a bulk write runs. */
export interface BulkTarget {
  insertOne(doc: Document, options?: Document): Promise<{ insertedId: unknown }>;
  updateOne(filter: Document, update: Document | Document[], options: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Document, update: Document | Document[], options: UpdateOptions): Promise<UpdateResult>;
  replaceOne(filter: Document, replacement: Document, options: ReplaceOptions): Promise<UpdateResult>;
  deleteOne(filter: Document, options: DeleteOptions): Promise<{ deletedCount: number }>;
  deleteMany(filter: Document, options: DeleteOptions): Promise<{ deletedCount: number }>;
}

type Model = Record<string, unknown>;
type Run = (
  target: BulkTarget,
  model: Model,
  letOption: Document | undefined,
) => Promise<Partial<BulkWriteResult> & { id?: unknown }>;

/** What a model holds besides its options: the method's positional arguments. */
const POSITIONAL: ReadonlySet<string> = new Set(['filter', 'update', 'replacement', 'document']);

/**
 * The options of a model (every field but its filter and document), with the batch's `let`: the
 * method checks them, so one it does not implement is refused by name, never dropped.
 */
function optionsOf(model: Model, letOption: Document | undefined): Document {
  const options: Document = {};
  for (const [name, value] of Object.entries(model)) if (!POSITIONAL.has(name)) options[name] = value;
  if (letOption !== undefined) options.let = letOption;
  return options;
}

const filterOf = (model: Model): Document => (isPlainObject(model.filter) ? model.filter : {}) as Document;

/** Counts of an update's result, with the upserted `_id` as `id`. */
const updated = (result: UpdateResult) => ({
  matchedCount: result.matchedCount,
  modifiedCount: result.modifiedCount,
  upsertedCount: result.upsertedCount,
  ...(result.upsertedCount > 0 ? { id: result.upsertedId } : {}),
});

/** A model run by `method` with its filter, its `field` (the update or the replacement) and its options. */
const updating =
  (method: 'updateOne' | 'updateMany' | 'replaceOne', field: 'update' | 'replacement'): Run =>
  async (target, model, letOption) =>
    updated(await target[method](filterOf(model), model[field] as Document, optionsOf(model, letOption)));

/** Each write model, by name: how it runs. */
const MODELS: Record<string, Run> = {
  insertOne: async (target, model) => {
    const { insertedId } = await target.insertOne(model.document as Document, optionsOf(model, undefined));
    return { insertedCount: 1, id: insertedId };
  },
  updateOne: updating('updateOne', 'update'),
  updateMany: updating('updateMany', 'update'),
  replaceOne: updating('replaceOne', 'replacement'),
  deleteOne: async (target, model, letOption) =>
    target.deleteOne(filterOf(model), optionsOf(model, letOption)),
  deleteMany: async (target, model, letOption) =>
    target.deleteMany(filterOf(model), optionsOf(model, letOption)),
};

const COUNTS = ['insertedCount', 'matchedCount', 'modifiedCount', 'deletedCount', 'upsertedCount'] as const;

/** The one model of an operation (`{ updateOne: { filter, update } }`) and how it runs. */
function modelOf(operation: unknown): { name: string; run: Run; model: Model } {
  const names = isPlainObject(operation) ? Object.keys(operation) : [];
  const [name] = names;
  const run =
    name !== undefined && names.length === 1 && Object.hasOwn(MODELS, name) ? MODELS[name] : undefined;
  const model = name === undefined ? undefined : (operation as Document)[name];
  if (!run || !isPlainObject(model)) {
    throw new EmbeddedArgumentError(
      `Invalid BulkWriteOperation: each operation is one of ${Object.keys(MODELS).join(', ')}`,
    );
  }
  // The driver refuses these before sending any operation of the batch.
  if (name === 'updateOne' || name === 'updateMany') checkUpdateArgument(model.update);
  if (name === 'replaceOne') checkReplacementArgument(model.replacement);
  return { name: name as string, run, model };
}

/** Runs `operations` against `target` (see the module comment). */
export async function runBulkWrite(
  target: BulkTarget,
  operations: unknown,
  options: BulkWriteOptions = {},
): Promise<BulkWriteResult> {
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new EmbeddedArgumentError('Invalid BulkOperation, Batch cannot be empty');
  }
  // Every operation is checked before any runs, as the driver builds the whole batch first.
  const models = operations.map(modelOf);
  const result: BulkWriteResult = {
    insertedCount: 0,
    matchedCount: 0,
    modifiedCount: 0,
    deletedCount: 0,
    upsertedCount: 0,
    insertedIds: {},
    upsertedIds: {},
  };
  const writeErrors: WriteErrorEntry[] = [];
  let first: unknown;
  for (const [index, { name, run, model }] of models.entries()) {
    try {
      const done = await run(target, model, options.let);
      for (const count of COUNTS) result[count] += done[count] ?? 0;
      if (name === 'insertOne') result.insertedIds[index] = done.id;
      else if (done.id !== undefined) result.upsertedIds[index] = done.id;
    } catch (error) {
      writeErrors.push(writeErrorOf(error, index));
      first ??= error;
      if (options.ordered !== false) break;
    }
  }
  if (first !== undefined) throw batchError(writeErrors, { ...result }, first);
  return result;
}
