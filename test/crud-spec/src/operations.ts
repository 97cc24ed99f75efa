/**
 * The operations of the unified format the CRUD files use, one table per kind of object: each
 * calls the driver's method of the same name (the embedded engine's API mirrors the driver's),
 * with the format's named arguments turned into the method's positional ones and its options.
 */
import { Inexpressible, type TierRun } from './tiers';

type Document = Record<string, unknown>;
type Arguments = Document;
type Operation = (target: Record<string, (...args: unknown[]) => unknown>, args: Arguments) => unknown;

/** The operation's options: its arguments but the positional ones, `returnDocument` as the driver spells it. */
function optionsOf(args: Arguments, ...positional: string[]): Document {
  const options: Document = {};
  for (const [key, value] of Object.entries(args)) {
    if (positional.includes(key)) continue;
    options[key] = key === 'returnDocument' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  return options;
}

/** Calls `target.method`; a tier without the method cannot express the operation. */
function call(target: Record<string, unknown>, method: string, ...args: unknown[]): unknown {
  const fn = target[method];
  if (typeof fn !== 'function') throw new Inexpressible(`no ${method} method`);
  return fn.apply(target, args);
}

const toArray = async (cursor: unknown): Promise<unknown> => {
  const resolved = await cursor;
  return call(resolved as Record<string, unknown>, 'toArray');
};

const COLLECTION_OPERATIONS: Readonly<Record<string, Operation>> = {
  aggregate: (c, a) => toArray(call(c, 'aggregate', a.pipeline, optionsOf(a, 'pipeline'))),
  bulkWrite: (c, a) => call(c, 'bulkWrite', a.requests, optionsOf(a, 'requests')),
  count: (c, a) => call(c, 'count', a.filter, optionsOf(a, 'filter')),
  countDocuments: (c, a) => call(c, 'countDocuments', a.filter, optionsOf(a, 'filter')),
  createIndex: (c, a) => call(c, 'createIndex', a.keys, optionsOf(a, 'keys')),
  deleteMany: (c, a) => call(c, 'deleteMany', a.filter, optionsOf(a, 'filter')),
  deleteOne: (c, a) => call(c, 'deleteOne', a.filter, optionsOf(a, 'filter')),
  distinct: (c, a) => call(c, 'distinct', a.fieldName, a.filter, optionsOf(a, 'fieldName', 'filter')),
  estimatedDocumentCount: (c, a) => call(c, 'estimatedDocumentCount', optionsOf(a)),
  find: (c, a) => toArray(call(c, 'find', a.filter, optionsOf(a, 'filter'))),
  findOne: (c, a) => call(c, 'findOne', a.filter, optionsOf(a, 'filter')),
  findOneAndDelete: (c, a) => call(c, 'findOneAndDelete', a.filter, optionsOf(a, 'filter')),
  findOneAndReplace: (c, a) =>
    call(c, 'findOneAndReplace', a.filter, a.replacement, optionsOf(a, 'filter', 'replacement')),
  findOneAndUpdate: (c, a) =>
    call(c, 'findOneAndUpdate', a.filter, a.update, optionsOf(a, 'filter', 'update')),
  insertMany: (c, a) => call(c, 'insertMany', a.documents, optionsOf(a, 'documents')),
  insertOne: (c, a) => call(c, 'insertOne', a.document, optionsOf(a, 'document')),
  replaceOne: (c, a) => call(c, 'replaceOne', a.filter, a.replacement, optionsOf(a, 'filter', 'replacement')),
  updateMany: (c, a) => call(c, 'updateMany', a.filter, a.update, optionsOf(a, 'filter', 'update')),
  updateOne: (c, a) => call(c, 'updateOne', a.filter, a.update, optionsOf(a, 'filter', 'update')),
};

const DATABASE_OPERATIONS: Readonly<Record<string, Operation>> = {
  aggregate: (d, a) => toArray(call(d, 'aggregate', a.pipeline, optionsOf(a, 'pipeline'))),
  createCollection: (d, a) => call(d, 'createCollection', a.collection, optionsOf(a, 'collection')),
  dropCollection: (d, a) => call(d, 'dropCollection', a.collection, optionsOf(a, 'collection')),
  modifyCollection: (d, a) => call(d, 'command', { collMod: a.collection, ...optionsOf(a, 'collection') }),
  runCommand: (d, a) => call(d, 'command', a.command),
};

const CLIENT_OPERATIONS: Readonly<Record<string, Operation>> = {
  clientBulkWrite: (c, a) => call(c, 'bulkWrite', a.models, optionsOf(a, 'models')),
};

/** What a test's entities are: their kind and the tier object. */
export interface Entity {
  kind: 'client' | 'database' | 'collection';
  value: unknown;
}

/** A runner gap: an operation or object the runner does not know (reported as a failure of the runner, never a pass). */
export class RunnerGap extends Error {}

const TABLES = {
  client: CLIENT_OPERATIONS,
  database: DATABASE_OPERATIONS,
  collection: COLLECTION_OPERATIONS,
};

/** Runs one operation of a test; its result (or throws the operation's error). */
export async function runOperation(
  operation: { name: string; object: string; arguments?: Arguments },
  entities: ReadonlyMap<string, Entity>,
  run: TierRun,
): Promise<unknown> {
  const args = operation.arguments ?? {};
  if (operation.object === 'testRunner') {
    if (operation.name !== 'failPoint') throw new RunnerGap(`testRunner operation ${operation.name}`);
    const client = entities.get(String(args.client));
    if (!client) throw new RunnerGap(`no client entity ${String(args.client)}`);
    return run.failPoint(client.value, args.failPoint as Document);
  }
  const entity = entities.get(operation.object);
  if (!entity) throw new RunnerGap(`no entity ${operation.object}`);
  const method = TABLES[entity.kind][operation.name];
  if (!method) throw new RunnerGap(`${entity.kind} operation ${operation.name}`);
  if ('session' in args) throw new RunnerGap('operations in a session');
  return method(entity.value as Record<string, (...args: unknown[]) => unknown>, args);
}
