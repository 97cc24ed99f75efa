/**
 * Commands on collections and databases as wholes: `create`, `drop`, `listCollections` (its
 * filter applied by the embedded engine) and `dropDatabase`.
 */
import { createEmbeddedDb } from '@store/embedded';
import { Long } from 'bson';
import type { CommandHandler } from './command-context';
import { CommandError } from './errors';
import { documentOption } from './read-commands';

const NAMESPACE_EXISTS = 48;

const create: CommandHandler = (command, { db }) => {
  const collection = db.collection(command.create);
  if (!db.markExisting(collection.collectionName)) {
    throw new CommandError(
      NAMESPACE_EXISTS,
      `Collection ${db.name}.${collection.collectionName} already exists.`,
    );
  }
  return {};
};

/** Since MongoDB 7.0 dropping a collection that does not exist succeeds. */
const drop: CommandHandler = async (command, { db }) => {
  const collection = db.collection(command.drop);
  await db.drop(collection.collectionName);
  return { ns: `${db.name}.${collection.collectionName}`, nIndexesWas: 1 };
};

const listCollections: CommandHandler = async (command, { db }) => {
  const described = db.names().map((name) => ({
    name,
    type: 'collection',
    options: {},
    info: { readOnly: false },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  }));
  // The filter is a query over these descriptions: the embedded engine answers it.
  const scratch = createEmbeddedDb();
  const listed = scratch.collection('collections');
  for (const description of described) await listed.insertOne({ _id: description.name, ...description });
  const filter = documentOption(command.filter, 'filter') ?? {};
  const projection = command.nameOnly === true ? { _id: 0, name: 1, type: 1 } : { _id: 0 };
  const firstBatch = await listed.find(filter, { projection }).toArray();
  await scratch.close();
  return { cursor: { id: Long.ZERO, ns: `${db.name}.$cmd.listCollections`, firstBatch } };
};

const dropDatabase: CommandHandler = async (_command, { db, databases }) => {
  await databases.drop(db.name);
  return { dropped: db.name };
};

export const NAMESPACE_COMMANDS = {
  create,
  drop,
  listCollections,
  dropDatabase,
} satisfies Record<string, CommandHandler>;
