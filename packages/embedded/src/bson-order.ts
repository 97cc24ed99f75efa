/**
 * MongoDB's comparison order of BSON values, for sorting, range operators and equality:
 * MinKey, null (and missing), numbers (any numeric type, by value), strings (by UTF-8 bytes,
 * that is by code point), objects (field by field in stored order: type, then name, then
 * value), arrays (element by element), BinData, ObjectId, Boolean, Date, Timestamp, regular
 * expressions, MaxKey. Values stored by the engine are plain JS values plus the `bson` classes.
 */

import { isPlainObject } from '@store/common';
import { isObjectId } from './values';

/** A BSON value's canonical type rank (MongoDB's `canonicalizeBSONType`). */
export const RANK = {
  minKey: 0,
  /** An empty array as a sort key: below null (MongoDB's `undefined`). */
  emptyArray: 3,
  null: 5,
  number: 10,
  string: 15,
  object: 20,
  array: 25,
  binData: 30,
  objectId: 35,
  boolean: 40,
  date: 45,
  timestamp: 47,
  regex: 50,
  code: 60,
  maxKey: 127,
} as const;

/** Ranks of the `bson` classes, by `_bsontype`. */
const BSON_RANKS: Readonly<Record<string, number>> = {
  MinKey: RANK.minKey,
  MaxKey: RANK.maxKey,
  Long: RANK.number,
  Int32: RANK.number,
  Double: RANK.number,
  Decimal128: RANK.number,
  BSONSymbol: RANK.string,
  Binary: RANK.binData,
  ObjectId: RANK.objectId,
  Timestamp: RANK.timestamp,
  BSONRegExp: RANK.regex,
  Code: RANK.code,
};

/** The canonical type rank of `value` (undefined, a missing field, ranks as null). */
export function typeRank(value: unknown): number {
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return RANK.number;
    case 'string':
      return RANK.string;
    case 'boolean':
      return RANK.boolean;
    case 'undefined':
      return RANK.null;
    case 'object':
      return objectRank(value);
    default:
      return RANK.code;
  }
}

function objectRank(value: object | null): number {
  if (value === null) return RANK.null;
  if (Array.isArray(value)) return RANK.array;
  if (value instanceof Date) return RANK.date;
  if (value instanceof RegExp) return RANK.regex;
  if (value instanceof Uint8Array) return RANK.binData;
  const bsonType = (value as { _bsontype?: unknown })._bsontype;
  if (typeof bsonType === 'string') return BSON_RANKS[bsonType] ?? RANK.object;
  return RANK.object;
}

/** A numeric BSON value as a JS number (Decimal128 and 64-bit longs approximately). */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const bsonType = (value as { _bsontype?: unknown })._bsontype;
  if (bsonType === 'Decimal128') return Number((value as { toString(): string }).toString());
  if (bsonType === 'Long') return (value as { toNumber(): number }).toNumber();
  return Number((value as { valueOf(): unknown }).valueOf());
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** Numbers by value; NaN below every other number and equal to itself, as in MongoDB. */
export function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
}

/**
 * Strings by UTF-8 bytes, which is code point order: UTF-16 units order the same except that
 * surrogates (U+D800-U+DFFF, the halves of a code point above the BMP) sort above U+E000-U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return sign(a.length - b.length);
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  const length = Math.min(keysA.length, keysB.length);
  for (let i = 0; i < length; i++) {
    const keyA = keysA[i] as string;
    const keyB = keysB[i] as string;
    const byType = typeRank(a[keyA]) - typeRank(b[keyB]);
    if (byType !== 0) return sign(byType);
    const byName = compareStrings(keyA, keyB);
    if (byName !== 0) return byName;
    const byValue = compareValues(a[keyA], b[keyB]);
    if (byValue !== 0) return byValue;
  }
  return sign(keysA.length - keysB.length);
}

function compareArrays(a: readonly unknown[], b: readonly unknown[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const byValue = compareValues(a[i], b[i]);
    if (byValue !== 0) return byValue;
  }
  return sign(a.length - b.length);
}

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return (value as { buffer: Uint8Array }).buffer.subarray(0, (value as { position: number }).position);
}

function compareBinary(a: unknown, b: unknown): number {
  const [x, y] = [bytesOf(a), bytesOf(b)];
  if (x.length !== y.length) return sign(x.length - y.length);
  const bySubtype =
    ((a as { sub_type?: number }).sub_type ?? 0) - ((b as { sub_type?: number }).sub_type ?? 0);
  if (bySubtype !== 0) return sign(bySubtype);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return sign((x[i] as number) - (y[i] as number));
  return 0;
}

/** Values of one rank, compared. */
function compareSameRank(rank: number, a: unknown, b: unknown): number {
  switch (rank) {
    case RANK.number:
      return compareNumbers(numberOf(a), numberOf(b));
    case RANK.string:
      return compareStrings(String(a), String(b));
    case RANK.object:
      return isPlainObject(a) && isPlainObject(b) ? compareObjects(a, b) : 0;
    case RANK.array:
      return compareArrays(a as unknown[], b as unknown[]);
    case RANK.binData:
      return compareBinary(a, b);
    case RANK.objectId:
      return isObjectId(a) && isObjectId(b) ? compareStrings(a.toHexString(), b.toHexString()) : 0;
    case RANK.boolean:
      return a === b ? 0 : a ? 1 : -1;
    case RANK.date:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case RANK.timestamp:
      return (a as { compare(other: unknown): number }).compare(b);
    case RANK.regex:
      return compareRegex(a, b);
    default:
      return 0;
  }
}

const patternOf = (value: unknown): [string, string] =>
  value instanceof RegExp
    ? [value.source, value.flags]
    : [(value as { pattern: string }).pattern, (value as { options: string }).options];

function compareRegex(a: unknown, b: unknown): number {
  const [[sourceA, flagsA], [sourceB, flagsB]] = [patternOf(a), patternOf(b)];
  return compareStrings(sourceA, sourceB) || compareStrings(flagsA, flagsB);
}

/** MongoDB's total order of two BSON values: negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  return compareSameRank(rankA, a, b);
}

/** MongoDB's equality: numbers by value across types, sub-documents field by field in order. */
export const equalValues = (a: unknown, b: unknown): boolean => compareValues(a, b) === 0;
