/**
 * `$type` as MongoDB answers it for what the embedded engine stores. Values are kept as the
 * driver reads them back: a JS number is what the driver sends for any number, an int32 when it
 * is an integer in int32 range and a double otherwise (js-bson's rule), so that is its `$type`;
 * a `bigint` or `Long` is a long, a `Decimal128` a decimal. Aliases and numeric codes both work.
 */

import { EmbeddedDbError } from './errors';
import type { ValueTest } from './paths';
import { isObjectId } from './values';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

const bsonType = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? (value as { _bsontype?: unknown })._bsontype : undefined;

/** The BSON type alias of a stored value (undefined for a missing field). */
function typeAlias(value: unknown): string | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'undefined':
      return undefined;
    default:
      return objectAlias(value);
  }
}

/** Aliases of the `bson` classes, by `_bsontype`. */
const BSON_ALIASES: Readonly<Record<string, string>> = {
  Long: 'long',
  Int32: 'int',
  Double: 'double',
  Decimal128: 'decimal',
  Binary: 'binData',
  ObjectId: 'objectId',
  Timestamp: 'timestamp',
  BSONRegExp: 'regex',
  BSONSymbol: 'symbol',
  Code: 'javascript',
  MinKey: 'minKey',
  MaxKey: 'maxKey',
  DBRef: 'object',
};

function objectAlias(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  if (value instanceof Uint8Array) return 'binData';
  if (isObjectId(value)) return 'objectId';
  const name = bsonType(value);
  return (typeof name === 'string' && BSON_ALIASES[name]) || 'object';
}

/** MongoDB's type codes, by alias. */
const CODES: Readonly<Record<string, number>> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};
const NUMERIC: ReadonlySet<string> = new Set(['int', 'long', 'double', 'decimal']);
const ALIAS_OF_CODE = new Map(Object.entries(CODES).map(([alias, code]) => [code, alias]));

/** The alias a `$type` operand names ("number" included), or a BadValue error. */
function aliasOf(operand: unknown): string {
  if (typeof operand === 'string' && (operand === 'number' || Object.hasOwn(CODES, operand))) return operand;
  const alias = typeof operand === 'number' ? ALIAS_OF_CODE.get(operand) : undefined;
  if (alias === undefined)
    throw new EmbeddedDbError('BadValue', `unknown type name alias: ${String(operand)}`);
  return alias;
}

/** True when `value` is of the type `alias` names. */
function matchesType(value: unknown, alias: string): boolean {
  const actual = typeAlias(value);
  if (actual === undefined) return false;
  return alias === 'number' ? NUMERIC.has(actual) : actual === alias;
}

/** The test of one value against a `$type` operand (an alias, a code, or an array of them). */
export function typeTest(operand: unknown): ValueTest {
  const aliases = (Array.isArray(operand) ? operand : [operand]).map(aliasOf);
  return (value) => {
    for (const alias of aliases) if (matchesType(value, alias)) return true;
    return false;
  };
}
