/**
 * `findAndModify` over the embedded engine: the first document by `sort` matching `query` is
 * removed (`remove`), or updated / replaced (`update`), or inserted when none matches and
 * `upsert` is set. The reply carries `value` (the document before, or after with `new`,
 * projected by `fields`) and `lastErrorObject` (`n`, `updatedExisting`, `upserted`).
 */
import type { Document, StoreCollection } from '@store/common';
import type { CommandHandler } from './command-context';
import { CommandError } from './errors';
import { modifyOne, pinned, upsert } from './modify';
import { documentOption } from './read-commands';

/** The stored document `id`, projected by `fields`. */
async function projected(collection: StoreCollection, id: unknown, fields: Document | undefined) {
  return collection.findOne({ _id: id }, { projection: fields });
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
    const value = command.new === true ? await projected(collection, inserted._id, fields) : null;
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id }, value };
  }
  const filter = pinned(query, target._id);
  if (remove) {
    const value = await projected(collection, target._id, fields);
    await collection.deleteOne(filter);
    return { lastErrorObject: { n: 1 }, value };
  }
  const before = command.new === true ? undefined : await projected(collection, target._id, fields);
  await modifyOne(collection, filter, target, update as Document);
  // A replacement keeps the _id (MongoDB refuses to change it).
  const value = before ?? (await projected(collection, target._id, fields));
  return { lastErrorObject: { n: 1, updatedExisting: true }, value };
};

export const FIND_AND_MODIFY_COMMANDS = {
  findAndModify,
  findandmodify: findAndModify,
} satisfies Record<string, CommandHandler>;
