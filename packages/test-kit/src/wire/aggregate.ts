/**
 * The `aggregate` command over the embedded engine: `aggregate: <collection>` is the
 * collection's `aggregate`, `aggregate: 1` the database's (a pipeline starting with
 * `$documents`). The front only translates: the pipeline, `let`, `hint`, `collation` and
 * `maxTimeMS` go to the engine as they are, which answers every stage or refuses it by name
 * (NotImplemented, 238; a stage MongoDB does not know, 40324); the answer comes back as a cursor.
 */
import type { CommandHandler } from './command-context';
import { CommandError } from './errors';
import { collationOf, documentOption, timeLimit } from './read-commands';

const TYPE_MISMATCH = 14;
const FAILED_TO_PARSE = 9;

const aggregate: CommandHandler = async (command, { db, cursors }) => {
  const { pipeline } = command;
  if (!Array.isArray(pipeline)) {
    throw new CommandError(TYPE_MISMATCH, "'pipeline' option must be specified as an array");
  }
  const cursor = documentOption(command.cursor, 'cursor');
  if (cursor === undefined) {
    throw new CommandError(
      FAILED_TO_PARSE,
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const options = {
    let: documentOption(command.let, 'let'),
    hint: command.hint,
    ...timeLimit(command),
    ...collationOf(command),
  };
  if (command.aggregate === 1) {
    const docs = await db.engine.aggregate(pipeline, options).toArray();
    return { cursor: cursors.open(`${db.name}.$cmd.aggregate`, docs, cursor) };
  }
  const collection = db.collection(command.aggregate);
  const docs = await collection.aggregate(pipeline, options).toArray();
  return { cursor: cursors.open(`${db.name}.${collection.collectionName}`, docs, cursor) };
};

export const AGGREGATE_COMMANDS = { aggregate } satisfies Record<string, CommandHandler>;
