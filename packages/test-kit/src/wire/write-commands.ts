/**
 * Write commands over the embedded engine, answered as MongoDB answers them: `insert`,
 * `update` and `delete` report per-statement failures in `writeErrors` (a duplicate key is code
 * 11000 with its keyPattern / keyValue) and stop at the first one when `ordered` (the default).
 */
import type { Document } from '@store/common';
import type { CommandContext, CommandHandler } from './command-context';
import { CommandError, errorFields } from './errors';
import { applyStatement } from './modify';

/** Runs `apply` on each statement; failures become `writeErrors`. */
async function eachStatement(
  command: Document,
  field: string,
  apply: (statement: Document, index: number) => Promise<void>,
): Promise<Document> {
  const statements = command[field];
  if (!Array.isArray(statements)) throw new CommandError(14, `${field} must be an array`);
  const writeErrors: Document[] = [];
  for (const [index, statement] of statements.entries()) {
    try {
      if (typeof statement !== 'object' || statement === null) {
        throw new CommandError(14, `each of ${field} must be an object`);
      }
      await apply(statement as Document, index);
    } catch (error) {
      const { codeName: _name, ...fields } = errorFields(error);
      writeErrors.push({ index, ...fields });
      if (command.ordered !== false) break;
    }
  }
  return writeErrors.length > 0 ? { writeErrors } : {};
}

const collectionOf = (command: Document, name: string, { db }: CommandContext) => {
  const collection = db.collection(command[name]);
  return { collection, created: () => db.markExisting(collection.collectionName) };
};

const insert: CommandHandler = async (command, context) => {
  const { collection, created } = collectionOf(command, 'insert', context);
  created();
  let n = 0;
  const errors = await eachStatement(command, 'documents', async (doc) => {
    await collection.insertOne(doc);
    n += 1;
  });
  return { n, ...errors };
};

const update: CommandHandler = async (command, context) => {
  const { collection, created } = collectionOf(command, 'update', context);
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const errors = await eachStatement(command, 'updates', async (statement, index) => {
    const outcome = await applyStatement(collection, statement);
    n += outcome.n;
    nModified += outcome.nModified;
    if (outcome.upsertedId === undefined) return;
    upserted.push({ index, _id: outcome.upsertedId });
    created();
  });
  return { n, nModified, ...(upserted.length > 0 ? { upserted } : {}), ...errors };
};

const remove: CommandHandler = async (command, context) => {
  const { collection } = collectionOf(command, 'delete', context);
  let n = 0;
  const errors = await eachStatement(command, 'deletes', async (statement) => {
    const filter = (statement.q ?? {}) as Document;
    if (statement.limit !== 0 && statement.limit !== 1) throw new CommandError(9, 'limit must be 0 or 1');
    const outcome =
      statement.limit === 1 ? await collection.deleteOne(filter) : await collection.deleteMany(filter);
    n += outcome.deletedCount;
  });
  return { n, ...errors };
};

export const WRITE_COMMANDS = {
  insert,
  update,
  delete: remove,
} satisfies Record<string, CommandHandler>;
