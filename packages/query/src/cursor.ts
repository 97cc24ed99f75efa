import { isPlainObject } from '@store/common';
import { Binary, BSONRegExp, Decimal128, EJSON, Long, ObjectId, Timestamp } from 'bson';
import { dict } from './dict';
import { keysetFilter, valueKind } from './keyset';
import { LIMITS } from './limits';
import { fail } from './query-error';
import type { Document, Filter, SortSpec } from './types';

const PARAMETER = '$after';
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Nesting allowed inside an object value of a sort key. */
const MAX_DEPTH = 8;

/** The value at a dotted path; `null` when missing; `undefined` when the path crosses an array or a non-object. */
function valueAt(document: Document, path: string): unknown {
  let value: unknown = document;
  for (const segment of path.split('.')) {
    if (value === null || value === undefined) return null;
    if (!isPlainObject(value)) return undefined;
    value = Object.hasOwn(value, segment) ? value[segment] : null;
  }
  return value ?? null;
}

/** A value of a BSON class from another `bson` copy (a driver of another major), fields read by name. */
interface ForeignBson {
  _bsontype: string;
  toString(): string;
  toHexString?(): string;
  valueOf(): unknown;
  buffer?: Uint8Array;
  position?: number;
  sub_type?: number;
  t?: number;
  i?: number;
  pattern?: string;
  options?: string;
}

const REBUILD: Readonly<Record<string, (value: ForeignBson) => unknown>> = {
  ObjectId: (value) => ObjectId.createFromHexString(value.toHexString?.() ?? value.toString()),
  Long: (value) => Long.fromString(value.toString()),
  Int32: (value) => Number(value.valueOf()),
  Double: (value) => Number(value.valueOf()),
  Decimal128: (value) => Decimal128.fromString(value.toString()),
  Binary: (value) =>
    new Binary((value.buffer ?? new Uint8Array()).subarray(0, value.position), value.sub_type),
  Timestamp: (value) => new Timestamp({ t: value.t ?? 0, i: value.i ?? 0 }),
  BSONRegExp: (value) => new BSONRegExp(value.pattern ?? '', value.options),
};

/**
 * `value` with every BSON class rebuilt from this package's `bson`: a driver of another major
 * reads documents with its own copy, whose values this copy's `EJSON` refuses to write.
 */
function ownBson(value: unknown): unknown {
  if (typeof value === 'bigint') return Long.fromBigInt(value);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  const type = (value as { _bsontype?: unknown })._bsontype;
  if (typeof type === 'string') {
    const rebuild = Object.hasOwn(REBUILD, type) ? REBUILD[type] : undefined;
    return rebuild ? rebuild(value as ForeignBson) : value;
  }
  if (!isPlainObject(value)) return value;
  const out = dict();
  for (const [key, inner] of Object.entries(value)) out[key] = ownBson(inner);
  return out;
}

const isInt32 = (value: number): boolean =>
  Number.isInteger(value) && value >= -2_147_483_648 && value <= 2_147_483_647 && !Object.is(value, -0);

/**
 * A value's canonical Extended JSON, written directly for the common sort keys (strings, int32
 * numbers, ObjectIds, booleans, null): the same text `EJSON.stringify` gives at a fraction of its
 * cost. `undefined` for any other value.
 */
function plainEjson(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (typeof value === 'number') return isInt32(value) ? `{"$numberInt":"${value}"}` : undefined;
  if (value instanceof ObjectId) return `{"$oid":"${value.toHexString()}"}`;
  return undefined;
}

/** `{ k: keys, v: values }` in canonical Extended JSON. */
function cursorText(keys: [string, 1 | -1][], values: unknown[]): string {
  const parts = values.map(plainEjson);
  if (parts.some((part) => part === undefined))
    return EJSON.stringify({ k: keys, v: values }, { relaxed: false });
  const k = keys.map(([path, direction]) => `[${JSON.stringify(path)},{"$numberInt":"${direction}"}]`);
  return `{"k":[${k.join(',')}],"v":[${parts.join(',')}]}`;
}

/**
 * The `$after` cursor that resumes after `document` under `sort`: its sort-key values (and the
 * keys, so a cursor is refused under another sort) in canonical Extended JSON, base64url-encoded,
 * so every BSON type survives. `undefined` when a sort key holds a value no keyset can follow
 * (an array, a MinKey): the page then carries no cursor.
 */
export function encodeCursor(sort: SortSpec, document: Document): string | undefined {
  const values: unknown[] = [];
  for (const path of Object.keys(sort)) {
    const value = valueAt(document, path);
    if (valueKind(value) === undefined) return undefined;
    values.push(ownBson(value));
  }
  const text = cursorText(Object.entries(sort), values);
  if (text.length * 4 > LIMITS.cursorLength * 3) return undefined;
  return Buffer.from(text, 'utf8').toString('base64url');
}

const invalid = (why: string): never =>
  fail('invalid_cursor', PARAMETER, `${PARAMETER}: ${why}; start again from the first page`);

/** A cursor value: a scalar BSON value, or a plain object of such values without `$` keys. */
function checkValue(value: unknown, depth: number): void {
  const kind = valueKind(value);
  if (kind === undefined || depth > MAX_DEPTH) invalid('the cursor holds a value no sort produces');
  if (kind !== 'object') return;
  for (const [key, inner] of Object.entries(value as Document)) {
    if (key.startsWith('$') || key.includes('\0') || key === '__proto__')
      invalid('the cursor holds an operator');
    checkValue(inner, depth + 1);
  }
}

function sameSort(keys: unknown, sort: SortSpec): boolean {
  const expected = Object.entries(sort);
  return (
    Array.isArray(keys) &&
    keys.length === expected.length &&
    keys.every(
      (pair, i) =>
        Array.isArray(pair) &&
        pair.length === 2 &&
        pair[0] === expected[i]?.[0] &&
        pair[1] === expected[i]?.[1],
    )
  );
}

/**
 * Reads an `$after` cursor made by {@link encodeCursor} for the same `sort` and returns the
 * filter of the documents after it. Anything else (not base64url, not Extended JSON, another
 * sort, a value no sort yields, an operator) is a 400 `invalid_cursor`. The filter only picks
 * where the page starts: it is ANDed with every other filter and the access rule, so a forged
 * cursor can never widen what a caller reads.
 */
export function cursorFilter(cursor: string, sort: SortSpec | undefined): Filter {
  if (sort === undefined) {
    fail('invalid_query', PARAMETER, `${PARAMETER}: a geo:near list without $sort cannot be paged by cursor`);
  }
  if (cursor.length === 0 || cursor.length > LIMITS.cursorLength || !BASE64URL.test(cursor)) {
    invalid('not a cursor this store made');
  }
  let parsed: unknown;
  try {
    parsed = EJSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'), { relaxed: true });
  } catch {
    return invalid('not a cursor this store made');
  }
  if (!isPlainObject(parsed) || Object.keys(parsed).length !== 2 || !Array.isArray(parsed.v)) {
    return invalid('not a cursor this store made');
  }
  if (!sameSort(parsed.k, sort)) invalid('the cursor was made for another $sort');
  const values = parsed.v as unknown[];
  if (values.length !== Object.keys(sort).length) invalid('the cursor was made for another $sort');
  for (const value of values) checkValue(value, 0);
  return keysetFilter(sort, values);
}
