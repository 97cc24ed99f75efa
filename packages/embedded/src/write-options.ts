/**
 * Options the write methods share, read as MongoDB 7.0 reads them: `let` (variables evaluated
 * once, before the operation), and what may be stored as an `_id`. (Which options each method
 * takes, and `hint`, are checked by `known-options.ts`: `sort` on updateOne / replaceOne, which
 * MongoDB took only from 8.0, is refused there.)
 * Also the result and error shapes of the write methods, as the official driver returns them.
 */

import type { Document, FindOptions } from '@store/common';
import { isPlainObject } from '@store/common';
import { asBadValue, EmbeddedArgumentError, EmbeddedDbError } from './errors';
import { evalExpr } from './mingo';
import { pipelineContext } from './update-pipeline';
import type { WorkLimits } from './work';

/** Options every write method takes. */
export interface WriteOptions extends WorkLimits {
  /** An index (by name or key pattern) the operation must use: it must exist. */
  hint?: string | Document;
  /** Variables for `$expr` in the filter and for update pipelines (`$$name`). */
  let?: Document;
  collation?: Document;
}

/** Options of updateOne / updateMany. */
export interface UpdateOptions extends WriteOptions {
  /** Insert a document when none matches. @default false */
  upsert?: boolean;
  /** Filters choosing the array elements `$[<identifier>]` updates. */
  arrayFilters?: Document[];
}

/** Options of replaceOne. */
export type ReplaceOptions = Omit<UpdateOptions, 'arrayFilters'>;

/** Options of deleteOne / deleteMany. */
export type DeleteOptions = WriteOptions;

/** Options of findOneAndDelete. */
export interface FindOneAndDeleteOptions extends WriteOptions {
  /** Which matching document is taken first. */
  sort?: FindOptions['sort'];
  projection?: Document;
  /** Return `{ value, ok, lastErrorObject }` rather than the document. @default false */
  includeResultMetadata?: boolean;
}

/** Options of findOneAndUpdate / findOneAndReplace. */
export interface FindOneAndModifyOptions extends FindOneAndDeleteOptions {
  /** Which version of the document to return. @default 'before' */
  returnDocument?: 'before' | 'after';
  /** Insert a document when none matches. @default false */
  upsert?: boolean;
  arrayFilters?: Document[];
}

/** Options of insertMany. */
export interface InsertManyOptions {
  /** Stop at the first failure (true) or try every document (false). @default true */
  ordered?: boolean;
}

/** Variable names as MongoDB takes them: a lowercase letter (or a non-ASCII one) first, then letters, digits and `_`. */
const VARIABLE_NAME = /^[a-z\u0080-\uffff][a-zA-Z0-9_\u0080-\uffff]*$/;

/** Whether a `let` expression reads a field (`$name`, outside `$literal`): it runs before any document is read. */
function readsField(expression: unknown): boolean {
  if (typeof expression === 'string') return expression.startsWith('$') && !expression.startsWith('$$');
  if (Array.isArray(expression)) return expression.some(readsField);
  if (!isPlainObject(expression)) return false;
  return Object.entries(expression).some(([key, value]) => key !== '$literal' && readsField(value));
}

/** Refuses a `let` variable name MongoDB refuses (an operation's, or a `$lookup`'s). */
export function checkVariableName(name: string): void {
  if (!VARIABLE_NAME.test(name)) {
    throw new EmbeddedDbError(
      'Location16867',
      `'${name}' starts with an invalid character for a user variable name`,
    );
  }
}

/**
 * The values of an operation's `let` (a write's, a find's, an aggregation's), each expression
 * evaluated once (constants stay as given); undefined without one.
 */
export function letVariables(given: unknown): Document | undefined {
  if (given === undefined || given === null) return undefined;
  if (!isPlainObject(given)) throw new EmbeddedDbError('FailedToParse', "'let' must be a document");
  const variables: Document = {};
  for (const [name, expression] of Object.entries(given)) {
    checkVariableName(name);
    if (readsField(expression)) {
      throw new EmbeddedDbError(
        'FailedToParse',
        'Command let Expression tried to access a field, but this is not allowed because command let expressions run before the query examines any documents.',
      );
    }
    variables[name] = asBadValue('let', () =>
      evalExpr({}, expression, { context: pipelineContext() } as Parameters<typeof evalExpr>[2]),
    );
  }
  return variables;
}

/** Whether `update` reads as operators to the driver: its first field (of any stage, for a pipeline) starts with `$`. */
function hasAtomicOperators(update: unknown): boolean {
  if (Array.isArray(update)) return update.some(hasAtomicOperators);
  if (!isPlainObject(update)) return false;
  const [first] = Object.keys(update);
  return first?.startsWith('$') === true;
}

/** Refuses, as the driver does before sending anything, an update (document or pipeline) without operators. */
export function checkUpdateArgument(update: unknown): void {
  if (!hasAtomicOperators(update))
    throw new EmbeddedArgumentError('Update document requires atomic operators');
}

/** Refuses, as the driver does before sending anything, a replacement that reads as operators. */
export function checkReplacementArgument(replacement: unknown): void {
  if (Array.isArray(replacement) || hasAtomicOperators(replacement)) {
    throw new EmbeddedArgumentError('Replacement document must not contain atomic operators');
  }
}

/** Refuses an `_id` holding a `$`-prefixed field name at any depth, as MongoDB refuses to store one. */
export function checkStorableId(id: unknown): void {
  if (Array.isArray(id)) {
    for (const item of id) checkStorableId(item);
    return;
  }
  if (!isPlainObject(id)) return;
  for (const [key, value] of Object.entries(id)) {
    if (key.startsWith('$')) {
      throw new EmbeddedDbError(
        'DollarPrefixedFieldName',
        `_id fields may not contain '$'-prefixed fields: ${key} is not valid for storage.`,
      );
    }
    checkStorableId(value);
  }
}

/** An update's result, as the driver's `UpdateResult` has it. */
export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
  /** The `_id` of the document an upsert inserted; null when none was. */
  upsertedId: unknown;
}

/** The result of an update that matched `matched`, changed `modified`, and inserted a document with `upsertedId` (if not undefined). */
export const updateResult = (matched: number, modified: number, upsertedId?: unknown): UpdateResult => ({
  matchedCount: matched,
  modifiedCount: modified,
  upsertedCount: upsertedId === undefined ? 0 : 1,
  upsertedId: upsertedId === undefined ? null : upsertedId,
});

/** One failed write of a batch, as the driver's `WriteError` (and MongoDB's reply) reports it. */
export interface WriteErrorEntry {
  index: number;
  code: number;
  codeName?: string;
  errmsg: string;
  keyPattern?: Record<string, unknown>;
  keyValue?: Record<string, unknown>;
}

/** `error` (failing the write at `index`) as a batch reports it; a foreign error is thrown on as is. */
export function writeErrorOf(error: unknown, index: number): WriteErrorEntry {
  if (!(error instanceof EmbeddedDbError)) throw error;
  const entry: WriteErrorEntry = { index, code: error.code, codeName: error.codeName, errmsg: error.message };
  if (error.keyPattern) entry.keyPattern = error.keyPattern;
  if (error.keyValue) entry.keyValue = error.keyValue;
  return entry;
}

/**
 * The error a batch fails with, as the driver's `MongoBulkWriteError`: the first failure's code
 * and message, every failure in `writeErrors`, and what was done in `result`.
 */
export function batchError(
  writeErrors: WriteErrorEntry[],
  result: Document,
  first: unknown,
): EmbeddedDbError {
  const error = first instanceof EmbeddedDbError ? first : new EmbeddedDbError('BadValue', String(first));
  return Object.assign(error, { writeErrors, result });
}
