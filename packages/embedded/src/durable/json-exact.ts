/**
 * Which documents JSON carries exactly: those that `JSON.parse(JSON.stringify(doc))` gives back
 * as a BSON round trip does (what the engine stores and what a version-1 snapshot gives back).
 */

/** `String.prototype.isWellFormed` (Node >= 20), which the TypeScript library in use does not declare. */
const isWellFormed = (String.prototype as unknown as { isWellFormed(this: string): boolean }).isWellFormed;

/**
 * Whether `key` reads back as itself through both JSON and BSON. Not: keys starting with `$` (a
 * `{ $ref, $id }` reads back from BSON as a DBRef), names BSON or JSON read as more than a name,
 * a NUL (BSON refuses it in a key), and keys that are not well-formed UTF-16 (a lone surrogate
 * comes back from BSON changed).
 */
const plainKey = (key: string): boolean =>
  key.charCodeAt(0) !== 36 /* $ */ &&
  key !== '_bsontype' &&
  key !== 'toBSON' &&
  key !== 'toJSON' &&
  !key.includes('\u0000') &&
  isWellFormed.call(key);

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
      return isWellFormed.call(value);
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
    if (!plainKey(key) || !exactInJson(record[key])) return false;
  }
  return true;
}
