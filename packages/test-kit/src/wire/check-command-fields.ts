/**
 * Checks a command's fields before the wire front runs it (the tables are in
 * `command-fields.ts`), so that a driver gets MongoDB's answer or a refusal, never a different
 * answer in silence: a field MongoDB 7.0 does not know is its unknown-field error (40415); one it
 * knows that the front does not pass on to the embedded engine is NotImplemented (238) naming it;
 * transactions are refused (238); a `writeConcern` or `readConcern` is checked as a standalone
 * server checks it.
 */
import type { Document } from '@store/common';
import {
  COMMAND_FIELDS,
  type CommandFields,
  type FieldSet,
  GENERIC_ACCEPTED,
  GENERIC_KNOWN,
  TRANSACTION_FIELDS,
  TRANSACTIONS,
} from './command-fields';
import { CommandError } from './errors';

const BAD_VALUE = 2;
const FAILED_TO_PARSE = 9;
const TYPE_MISMATCH = 14;
const INVALID_OPTIONS = 72;
const NOT_IMPLEMENTED = 238;
const API_VERSION_ERROR = 322;
const UNKNOWN_FIELD = 40415;

const notImplemented = (what: string): CommandError =>
  new CommandError(NOT_IMPLEMENTED, `${what} is not supported by the embedded engine`);

const unknownField = (path: string): CommandError =>
  new CommandError(UNKNOWN_FIELD, `BSON field '${path}' is an unknown field.`);

const isDocument = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Read concern levels one node answers alike: every write is visible once acknowledged. */
const READ_LEVELS = new Set(['local', 'available', 'majority']);
const ALL_READ_LEVELS = new Set([...READ_LEVELS, 'linearizable', 'snapshot']);

/** A `readConcern`: local, available or majority on a read command; the default one elsewhere. */
function checkReadConcern(name: string, value: unknown, reads: boolean): void {
  if (!isDocument(value))
    throw new CommandError(TYPE_MISMATCH, `BSON field '${name}.readConcern' is the wrong type`);
  for (const field of Object.keys(value)) {
    if (field === 'level') continue;
    if (['afterClusterTime', 'atClusterTime', 'afterOpTime', 'provenance'].includes(field)) {
      throw notImplemented(`readConcern.${field}`);
    }
    throw unknownField(`${name}.readConcern.${field}`);
  }
  const { level } = value;
  if (level === undefined) return;
  if (typeof level !== 'string' || !ALL_READ_LEVELS.has(level)) {
    throw new CommandError(
      BAD_VALUE,
      `Enumeration value '${String(level)}' for field '${name}.readConcern.level' is not a valid value.`,
    );
  }
  if (!READ_LEVELS.has(level) || (!reads && level !== 'local')) {
    throw notImplemented(`readConcern level '${level}' on ${name}`);
  }
}

const WRITE_CONCERN_FIELDS = new Set(['w', 'j', 'wtimeout', 'fsync', 'provenance', 'getLastError']);

/**
 * A `writeConcern` as a standalone with a journal honours it: `w` 0, 1 or 'majority', `j`,
 * `wtimeout`; more members, or a tag set's mode, is the standalone's BadValue.
 */
function checkWriteConcern(name: string, value: unknown, writes: boolean): void {
  if (!writes) throw new CommandError(INVALID_OPTIONS, 'Command does not support writeConcern');
  if (!isDocument(value))
    throw new CommandError(TYPE_MISMATCH, `BSON field '${name}.writeConcern' is the wrong type`);
  const unknown = Object.keys(value).find((field) => !WRITE_CONCERN_FIELDS.has(field));
  if (unknown !== undefined) throw unknownField(`${name}.writeConcern.${unknown}`);
  const { w } = value;
  if (w === undefined || w === 'majority' || w === 0 || w === 1) return;
  if (typeof w === 'string') {
    throw new CommandError(BAD_VALUE, `cannot use non-majority 'w' mode ${w} on a standalone`);
  }
  if (typeof w !== 'number' || !Number.isInteger(w) || w < 0) {
    throw new CommandError(
      FAILED_TO_PARSE,
      `w has to be a non-negative number or a string; found: ${String(w)}`,
    );
  }
  throw new CommandError(BAD_VALUE, "cannot use 'w' > 1 on a standalone");
}

/** `apiVersion` "1" with `apiDeprecationErrors`; `apiStrict: true` is refused (the front keeps no list of API version 1). */
function checkApi(field: string, value: unknown): void {
  if (field === 'apiVersion' && value !== '1') {
    throw new CommandError(API_VERSION_ERROR, 'API version must be "1"');
  }
  if (field === 'apiStrict' && value === true) throw notImplemented('apiStrict: true');
}

const GENERIC_CHECKS: Readonly<Record<string, (field: string, value: unknown) => void>> = {
  apiVersion: checkApi,
  apiStrict: checkApi,
  apiDeprecationErrors: () => undefined,
};

/**
 * Checks one field of a command or statement (`path` names it in MongoDB's errors): passed or a
 * no-op, known to MongoDB (238), or unknown to it (40415).
 */
function checkField(fields: FieldSet, field: string, path: string, alsoKnown: readonly string[] = []): void {
  if (fields.passed.includes(field) || fields.noOp?.includes(field)) return;
  if (fields.known?.includes(field) || alsoKnown.includes(field)) throw notImplemented(`the field '${path}'`);
  throw unknownField(path);
}

/** Checks each statement of `command[field]` (the handler checks the array itself). */
function checkStatements(
  name: string,
  command: Document,
  statements: NonNullable<CommandFields['statements']>,
) {
  const list = command[statements.field];
  if (!Array.isArray(list)) return;
  for (const statement of list) {
    if (!isDocument(statement)) continue;
    for (const field of Object.keys(statement)) {
      checkField(statements, field, `${name}.${statements.field}.${field}`);
    }
  }
}

/**
 * Checks every field of `command` (named `name`, its first field) against {@link COMMAND_FIELDS}
 * and the generic fields; throws the {@link CommandError} MongoDB (or the front, for what it
 * does not implement) answers with.
 */
export function checkCommandFields(name: string, command: Document): void {
  const fields = Object.hasOwn(COMMAND_FIELDS, name) ? COMMAND_FIELDS[name] : undefined;
  if (fields === undefined)
    throw new CommandError(1, `the wire front lists no fields for the command ${name}`);
  for (const [field, value] of Object.entries(command)) {
    if (field === name || GENERIC_ACCEPTED.has(field)) continue;
    if (TRANSACTION_FIELDS.has(field)) throw new CommandError(NOT_IMPLEMENTED, TRANSACTIONS);
    if (fields.anyField) continue;
    const generic = Object.hasOwn(GENERIC_CHECKS, field) ? GENERIC_CHECKS[field] : undefined;
    if (generic) generic(field, value);
    else if (field === 'readConcern') checkReadConcern(name, value, fields.reads === true);
    else if (field === 'writeConcern') checkWriteConcern(name, value, fields.writes === true);
    else checkField(fields, field, `${name}.${field}`, GENERIC_KNOWN);
  }
  if (fields.statements) checkStatements(name, command, fields.statements);
}
