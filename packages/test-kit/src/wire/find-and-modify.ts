/**
 * `findAndModify` over the embedded engine: the first document by `sort` matching `query` is
 * removed (`remove`), or updated / replaced (`update`), or inserted when none matches and
 * `upsert` is set. The reply carries `value` (the document before, or after with `new`,
 * projected by `fields`) and `lastErrorObject` (`n`, `updatedExisting`, `upserted`).
 */
import type { Document } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import type { CommandHandler } from './command-context';
import { CommandError } from './errors';
import { modifyOne, pinned, upsert } from './modify';
import { documentOption } from './read-commands';

/**
 * `doc` projected by `fields`, by the embedded engine (on a scratch copy: reading the stored
 * document again could miss it, as a TTL sweep runs before every read of the engine).
 */
async function projected(doc: Document | null, fields: Document | undefined): Promise<Document | null> {
  if (doc === null || fields === undefined || Object.keys(fields).length === 0) return doc;
  const scratch = createEmbeddedDb();
  const copy = scratch.collection('projected');
  await copy.insertOne(doc);
  const [value] = await copy.find({}, { projection: fields }).toArray();
  await scratch.close();
  return value ?? null;
}

const findAndModify: CommandHandler = async (command, { db }) => {
  const collection = db.collection(command.findAndModify ?? command.findandmodify);
  const query = documentOption(command.query, 'query') ?? {};
  const sort = documentOption(command.sort, 'sort') as Record<string, 1 | -1> | undefined;
  const fields = documentOption(command.fields, 'fields');
  const remove = command.remove === true;
  const update = command.update as Document | undefined;
  if (remove === (update !== undefined)) {
    throw new CommandError(9, 'findAndModify needs exactly one of remove: true and update');
  }
  if (remove && (command.new === true || command.upsert === true)) {
    throw new CommandError(9, 'remove cannot be combined with new or upsert');
  }
  const [target] = await collection.find(query, { sort, limit: 1 }).toArray();
  if (!target) {
    if (remove || !update || command.upsert !== true) {
      return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
    }
    const inserted = await upsert(collection, query, update);
    db.markExisting(collection.collectionName);
    const value = command.new === true ? await projected(inserted, fields) : null;
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id }, value };
  }
  const filter = pinned(query, target._id);
  if (remove) {
    await collection.deleteOne(filter);
    return { lastErrorObject: { n: 1 }, value: await projected(target, fields) };
  }
  const { after } = await modifyOne(collection, filter, target, update as Document);
  const value = await projected(command.new === true ? after : target, fields);
  return { lastErrorObject: { n: 1, updatedExisting: true }, value };
};

export const FIND_AND_MODIFY_COMMANDS = {
  findAndModify,
  findandmodify: findAndModify,
} satisfies Record<string, CommandHandler>;
