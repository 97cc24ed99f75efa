/**
 * Which documents JSON carries exactly: those that `JSON.parse(JSON.stringify(doc))` gives back
 * as a BSON round trip does (what the engine stores and what a version-1 snapshot gives back).
 */
import { isWellFormed, plainKey } from '../values';

/** Whether `key` reads back as itself through both JSON and BSON: a plain key, not `toJSON`. */
const jsonKey = (key: string): boolean => plainKey(key) && key !== 'toJSON';

/**
 * Whether JSON gives `value` back exactly as a BSON round trip does: strings (well-formed),
 * finite numbers but -0 (BSON gives back a number whatever it was, int32 or double, and JSON
 * writes a finite one exactly), booleans, null, and plain objects and arrays of those. Not: an
 * ObjectId, a Date, a Decimal128, a Long, a Binary, a regular expression, any other class,
 * undefined, a hole in an array, NaN, an infinity, -0, a bigint.
 */
export function exactInJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value);
    case 'number':
      return Number.isFinite(value) && !(value === 0 && 1 / value < 0);
    case 'boolean':
      return true;
    case 'object':
      return value === null || exactObject(value);
    default:
      return false;
  }
}

function exactObject(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !exactInJson(value[i])) return false;
    }
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!jsonKey(key) || !exactInJson(record[key])) return false;
  }
  return true;
}
