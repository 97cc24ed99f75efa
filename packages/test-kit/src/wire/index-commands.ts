/**
 * Index commands over the embedded engine: `createIndexes` (key, name, unique, sparse,
 * expireAfterSeconds, collation and the text language options; options the engine does not model are
 * refused, not ignored), `listIndexes` and `dropIndexes` (a name, a list of names, or `'*'`).
 */
import type { Document, IndexOptions, IndexSpec } from '@store/common';
import { KNOWN_OPTIONS } from '@store/embedded';
import { Long } from 'bson';
import type { CommandHandler } from './command-context';
import { CommandError } from './errors';

const CANNOT_CREATE_INDEX = 67;
const INDEX_NOT_FOUND = 27;

/** The index options MongoDB lists beside those the engine records (`KNOWN_OPTIONS.createIndex`): its bookkeeping. */
const BOOKKEEPING = new Set(['key', 'v', 'background', 'textIndexVersion', '2dsphereIndexVersion', 'ns']);

function indexOptions(index: Document): IndexOptions {
  const options: Document = {};
  for (const [option, value] of Object.entries(index)) {
    if ((KNOWN_OPTIONS.createIndex as readonly string[]).includes(option)) options[option] = value;
    else if (!BOOKKEEPING.has(option)) {
      throw new CommandError(
        CANNOT_CREATE_INDEX,
        `the wire front does not support the index option ${option}`,
      );
    }
  }
  return options as IndexOptions;
}

const createIndexes: CommandHandler = async (command, { db }) => {
  if (!Array.isArray(command.indexes)) throw new CommandError(14, 'indexes must be an array');
  const collection = db.collection(command.createIndexes);
  const createdCollectionAutomatically = db.markExisting(collection.collectionName);
  const numIndexesBefore = (await collection.listIndexes().toArray()).length;
  for (const index of command.indexes as Document[]) {
    if (typeof index?.name !== 'string') throw new CommandError(9, "every index needs a 'name'");
    await collection.createIndex(index.key as IndexSpec, indexOptions(index));
  }
  const numIndexesAfter = (await collection.listIndexes().toArray()).length;
  const note = numIndexesAfter === numIndexesBefore ? { note: 'all indexes already exist' } : {};
  return { numIndexesBefore, numIndexesAfter, createdCollectionAutomatically, ...note };
};

const listIndexes: CommandHandler = async (command, { db }) => {
  const collection = db.existing(command.listIndexes);
  const firstBatch = await collection.listIndexes().toArray();
  return { cursor: { id: Long.ZERO, ns: `${db.name}.${collection.collectionName}`, firstBatch } };
};

const dropIndexes: CommandHandler = async (command, { db }) => {
  const collection = db.existing(command.dropIndexes ?? command.deleteIndexes);
  const indexes = await collection.listIndexes().toArray();
  const { index } = command;
  let names: unknown[];
  if (index === '*') names = indexes.map(({ name }) => name).filter((name) => name !== '_id_');
  else if (Array.isArray(index)) names = index;
  else if (typeof index === 'string') names = [index];
  else if (typeof index === 'object' && index !== null) {
    const found = indexes.find(({ key }) => JSON.stringify(key) === JSON.stringify(index));
    if (!found)
      throw new CommandError(INDEX_NOT_FOUND, `can't find index with key: ${JSON.stringify(index)}`);
    names = [found.name];
  } else throw new CommandError(14, 'index must be a name, a list of names, a key pattern or "*"');
  for (const name of names) await collection.dropIndex(String(name));
  return { nIndexesWas: indexes.length };
};

export const INDEX_COMMANDS = {
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
} satisfies Record<string, CommandHandler>;
