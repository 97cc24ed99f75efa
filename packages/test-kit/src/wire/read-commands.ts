/**
 * Read commands over the embedded engine: `find` (filter, sort, projection, skip, limit,
 * batchSize, singleBatch, maxTimeMS, collation, let), `getMore`, `killCursors`, `count` (query,
 * skip, limit, hint, collation) and `distinct` (key, query, hint, collation); `aggregate` is in
 * aggregate.ts. The front only
 * translates: options reach the engine as given (it checks them, counts past `skip` and up to
 * `limit`), and `maxTimeMS` too, which the engine answers with MaxTimeMSExpired (50) past it, as
 * a server does.
 */
import type { Collation, Document, FindOptions, TimeLimit } from '@store/common';
import { Long } from 'bson';
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
export function timeLimit(command: Document): TimeLimit {
  const ms = countOption(command.maxTimeMS, 'maxTimeMS', 0);
  return ms > 0 ? { maxTimeMS: ms } : {};
}

/** The command's `collation` as the engine takes it (the engine checks the document itself). */
export function collationOf(command: Document): { collation?: Collation } {
  const collation = documentOption(command.collation, 'collation');
  return collation ? { collation: collation as Collation } : {};
}

const find: CommandHandler = async (command, { db, cursors }) => {
  const collection = db.collection(command.find);
  const options: FindOptions & { let?: Document } = {
    projection: documentOption(command.projection, 'projection'),
    sort: documentOption(command.sort, 'sort') as FindOptions['sort'],
    skip: countOption(command.skip, 'skip', 0),
    limit: countOption(command.limit, 'limit', 0),
    let: documentOption(command.let, 'let'),
    ...timeLimit(command),
    ...collationOf(command),
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

/** A number-valued field as the engine takes it (a Long as a number), or undefined when absent; TypeMismatch (14) otherwise. */
function numberOption(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Long) return value.toNumber();
  if (typeof value !== 'number') throw new CommandError(14, `${name} must be a number`);
  return value;
}

const count: CommandHandler = async (command, { db }) => {
  const collection = db.collection(command.count);
  const n = await collection.countDocuments(documentOption(command.query, 'query') ?? {}, {
    skip: numberOption(command.skip, 'skip'),
    limit: numberOption(command.limit, 'limit'),
    hint: command.hint,
    ...timeLimit(command),
    ...collationOf(command),
  });
  return { n };
};

const distinct: CommandHandler = async (command, { db }) => {
  const collection = db.collection(command.distinct);
  const values = await collection.distinct(
    command.key as string,
    documentOption(command.query, 'query') ?? {},
    { hint: command.hint, ...timeLimit(command), ...collationOf(command) },
  );
  return { values };
};

export const READ_COMMANDS = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
} satisfies Record<string, CommandHandler>;
