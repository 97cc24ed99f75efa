/**
 * `findAndModify` translated to the embedded engine: `remove` to `findOneAndDelete`, a
 * replacement to `findOneAndReplace`, an operator update or a pipeline to `findOneAndUpdate`,
 * with `sort`, `fields` (the projection), `upsert`, `new`, `arrayFilters`, `hint`, `collation`
 * and `let`. The engine's result metadata is the reply: `value` (the document before, or after
 * with `new`) and `lastErrorObject` (`n`, `updatedExisting`, `upserted`).
 */
import type { Document } from '@store/common';
import type { CommandHandler } from './command-context';
import { countOption } from './cursors';
import { CommandError } from './errors';
import { definedOptions, isReplacement } from './modify';
import { documentOption } from './read-commands';

const SHARED_OPTIONS = ['hint', 'collation', 'let'] as const;
const UPDATE_OPTIONS = ['upsert', 'arrayFilters'] as const;

const findAndModify: CommandHandler = async (command, { db }) => {
  const collection = db.collection(command.findAndModify ?? command.findandmodify);
  const query = documentOption(command.query, 'query') ?? {};
  const remove = command.remove === true;
  const update = command.update as Document | Document[] | undefined;
  if (remove === (update !== undefined)) {
    throw new CommandError(9, 'findAndModify needs exactly one of remove: true and update');
  }
  if (remove && (command.new === true || command.upsert === true)) {
    throw new CommandError(9, 'remove cannot be combined with new or upsert');
  }
  const maxTimeMS = countOption(command.maxTimeMS, 'maxTimeMS', 0);
  const options = {
    ...definedOptions(command, SHARED_OPTIONS),
    sort: documentOption(command.sort, 'sort') as Record<string, 1 | -1> | undefined,
    projection: documentOption(command.fields, 'fields'),
    ...(maxTimeMS > 0 ? { maxTimeMS } : {}),
    includeResultMetadata: true,
  };
  const modify = {
    ...options,
    ...definedOptions(command, UPDATE_OPTIONS),
    returnDocument: command.new === true ? 'after' : 'before',
  } as const;
  const reply = remove
    ? await collection.findOneAndDelete(query, options)
    : isReplacement(update)
      ? await collection.findOneAndReplace(query, update as Document, modify)
      : await collection.findOneAndUpdate(query, update as Document, modify);
  const { lastErrorObject, value } = reply as { lastErrorObject: Document; value: Document | null };
  if (lastErrorObject.upserted !== undefined) db.markExisting(collection.collectionName);
  return { lastErrorObject, value };
};

export const FIND_AND_MODIFY_COMMANDS = {
  findAndModify,
  findandmodify: findAndModify,
} satisfies Record<string, CommandHandler>;
