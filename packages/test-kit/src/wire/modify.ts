/**
 * One update statement of the `update` command, translated to the embedded engine's methods:
 * `updateMany` (`multi`), `replaceOne` (a replacement document), `updateOne` otherwise, with the
 * statement's options (`upsert`, `arrayFilters`, `hint`, `collation`) and the command's
 * `let`. The engine decides everything else (what matches, what changes, what an upsert inserts).
 */
import type { Document } from '@store/common';
import type { EmbeddedCollection } from '@store/embedded';
import { CommandError } from './errors';
import { documentOption, timeLimit } from './read-commands';

const FAILED_TO_PARSE = 9;

/** What one statement did. */
export interface StatementOutcome {
  n: number;
  nModified: number;
  /** The `_id` of the document an upsert inserted. */
  upsertedId?: unknown;
}

/**
 * True for a replacement document, false for an operator update or a pipeline: as MongoDB reads
 * it, a document whose first field does not start with `$` is a replacement.
 */
export function isReplacement(update: unknown): boolean {
  if (Array.isArray(update)) return false;
  if (typeof update !== 'object' || update === null) {
    throw new CommandError(FAILED_TO_PARSE, 'the update must be an object or an array');
  }
  return !Object.keys(update)[0]?.startsWith('$');
}

/** The named fields of `source` that are set, as an options object. */
export function definedOptions(source: Document, names: readonly string[]): Document {
  const options: Document = {};
  for (const name of names)
    if (source[name] !== undefined && source[name] !== null) options[name] = source[name];
  return options;
}

const STATEMENT_OPTIONS = ['upsert', 'arrayFilters', 'hint', 'collation'] as const;

/** Applies one statement `{ q, u, upsert, multi, arrayFilters, hint, collation }` with the command's `let` and `maxTimeMS`. */
export async function applyStatement(
  collection: EmbeddedCollection,
  statement: Document,
  command: Document,
): Promise<StatementOutcome> {
  const filter = documentOption(statement.q, 'q') ?? {};
  const update = statement.u as Document;
  const options = {
    ...definedOptions(statement, STATEMENT_OPTIONS),
    ...definedOptions(command, ['let']),
    ...timeLimit(command),
  };
  const replacement = isReplacement(update);
  if (statement.multi === true && replacement) {
    throw new CommandError(FAILED_TO_PARSE, 'multi update is not supported for replacement-style update');
  }
  const result =
    statement.multi === true
      ? await collection.updateMany(filter, update, options)
      : replacement
        ? await collection.replaceOne(filter, update, options)
        : await collection.updateOne(filter, update, options);
  const upserted = result.upsertedCount > 0;
  return {
    n: result.matchedCount + result.upsertedCount,
    nModified: result.modifiedCount,
    ...(upserted ? { upsertedId: result.upsertedId } : {}),
  };
}
