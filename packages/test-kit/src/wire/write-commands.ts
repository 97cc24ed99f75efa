/**
 * Write commands translated to the embedded engine, answered as MongoDB answers them: `insert`
 * (the engine's `insertMany`, `ordered` or not), `update` and `delete` (one engine call per
 * statement). Per-statement failures are reported in `writeErrors` (a duplicate key is code
 * 11000 with its keyPattern / keyValue); when `ordered` (the default) the first one stops the rest.
 */
import type { Document } from '@store/common';
import type { CommandContext, CommandHandler } from './command-context';
import { CommandError, errorFields } from './errors';
import { applyStatement, definedOptions } from './modify';
import { documentOption, timeLimit } from './read-commands';

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
      writeErrors.push(writeErrorOf(error, index));
      if (command.ordered !== false) break;
    }
  }
  return writeErrors.length > 0 ? { writeErrors } : {};
}

/** A write error of a reply: index, code, message and a duplicate key's details (no code name, as MongoDB). */
function writeErrorOf(error: unknown, index: number): Document {
  const { codeName: _name, ...fields } = errorFields(error);
  return { index, ...fields };
}

const collectionOf = (command: Document, name: string, { db }: CommandContext) => {
  const collection = db.collection(command[name]);
  return { collection, created: () => db.markExisting(collection.collectionName) };
};

/** What a failed engine `insertMany` reports: its per-document failures and how many went in. */
interface BatchFailure {
  writeErrors: Array<Document & { index: number }>;
  result: { insertedCount: number };
}

const isBatchFailure = (error: unknown): error is BatchFailure =>
  Array.isArray((error as Partial<BatchFailure> | null)?.writeErrors) &&
  typeof (error as Partial<BatchFailure>).result?.insertedCount === 'number';

const insert: CommandHandler = async (command, context) => {
  const { collection, created } = collectionOf(command, 'insert', context);
  created();
  if (!Array.isArray(command.documents)) throw new CommandError(14, 'documents must be an array');
  try {
    const { insertedCount } = await collection.insertMany(command.documents, {
      ordered: command.ordered !== false,
    });
    return { n: insertedCount };
  } catch (error) {
    if (!isBatchFailure(error)) throw error;
    const writeErrors = error.writeErrors.map(({ index, codeName: _name, ...fields }) => ({
      index,
      ...fields,
    }));
    return { n: error.result.insertedCount, writeErrors };
  }
};

const update: CommandHandler = async (command, context) => {
  const { collection, created } = collectionOf(command, 'update', context);
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const errors = await eachStatement(command, 'updates', async (statement, index) => {
    const outcome = await applyStatement(collection, statement, command);
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
    const filter = documentOption(statement.q, 'q') ?? {};
    if (statement.limit !== 0 && statement.limit !== 1) throw new CommandError(9, 'limit must be 0 or 1');
    const options = {
      ...definedOptions(statement, ['hint', 'collation']),
      ...definedOptions(command, ['let']),
      ...timeLimit(command),
    };
    const outcome =
      statement.limit === 1
        ? await collection.deleteOne(filter, options)
        : await collection.deleteMany(filter, options);
    n += outcome.deletedCount;
  });
  return { n, ...errors };
};

export const WRITE_COMMANDS = {
  insert,
  update,
  delete: remove,
} satisfies Record<string, CommandHandler>;
