/**
 * Read commands over the embedded engine: `find` (filter, sort, projection, skip, limit,
 * batchSize, singleBatch, maxTimeMS), `getMore`, `killCursors`, `count`, and `aggregate` for the
 * pipelines `countDocuments` sends. `maxTimeMS` reaches the engine, which answers
 * MaxTimeMSExpired (50) past it, as a server does.
 */
import type { Document, FindOptions, TimeLimit } from '@store/common';
import { runPipeline } from './aggregate';
import type { CommandHandler } from './command-context';
import { countOption } from './cursors';
import { CommandError } from './errors';

const isDocument = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A document-valued option, or undefined when absent; TypeMismatch (14) otherwise. */
export function documentOption(value: unknown, name: string): Document | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isDocument(value)) throw new CommandError(14, `${name} must be an object`);
  return value;
}

/** The command's `maxTimeMS` as the engine takes it (0 or absent: no limit). */
function timeLimit(command: Document): TimeLimit {
  const ms = countOption(command.maxTimeMS, 'maxTimeMS', 0);
  return ms > 0 ? { maxTimeMS: ms } : {};
}

const find: CommandHandler = async (command, { db, cursors }) => {
  const collection = db.collection(command.find);
  const options: FindOptions = {
    projection: documentOption(command.projection, 'projection'),
    sort: documentOption(command.sort, 'sort') as FindOptions['sort'],
    skip: countOption(command.skip, 'skip', 0),
    limit: countOption(command.limit, 'limit', 0),
    ...timeLimit(command),
  };
  const docs = await collection.find(documentOption(command.filter, 'filter') ?? {}, options).toArray();
  const ns = `${db.name}.${collection.collectionName}`;
  return { cursor: cursors.open(ns, docs, command) };
};

const getMore: CommandHandler = (command, { db, cursors }) => {
  if (typeof command.collection !== 'string') throw new CommandError(14, 'collection must be a string');
  const ns = `${db.name}.${command.collection}`;
  return { cursor: cursors.more(command.getMore, ns, command.batchSize) };
};

const killCursors: CommandHandler = (command, { cursors }) => {
  if (!Array.isArray(command.cursors)) throw new CommandError(14, 'cursors must be an array');
  return cursors.kill(command.cursors);
};

const count: CommandHandler = async (command, { db }) => {
  const collection = db.collection(command.count);
  const matched = await collection.countDocuments(
    documentOption(command.query, 'query') ?? {},
    timeLimit(command),
  );
  const skip = countOption(command.skip, 'skip', 0);
  const limit = countOption(
    command.limit === undefined ? undefined : Math.abs(Number(command.limit)),
    'limit',
    0,
  );
  const n = Math.max(0, matched - skip);
  return { n: limit > 0 ? Math.min(n, limit) : n };
};

const aggregate: CommandHandler = async (command, { db, cursors }) => {
  if (!Array.isArray(command.pipeline)) throw new CommandError(14, 'pipeline must be an array');
  const collection = db.collection(command.aggregate);
  const cursor = documentOption(command.cursor, 'cursor') ?? {};
  const docs = await runPipeline(collection, command.pipeline, timeLimit(command));
  return { cursor: cursors.open(`${db.name}.${collection.collectionName}`, docs, cursor) };
};

export const READ_COMMANDS = {
  find,
  getMore,
  killCursors,
  count,
  aggregate,
} satisfies Record<string, CommandHandler>;
