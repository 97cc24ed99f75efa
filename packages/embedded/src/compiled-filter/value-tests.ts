/**
 * The engine's `$eq` / `$gt` / `$gte` / `$lt` / `$lte` (query-operators.ts) as value tests
 * specialised, once per query, for an operand that is a number, a string, a boolean, null, a
 * Date or an ObjectId: the operand's type bracket is known at compile time, so each value is
 * checked with one `typeof` or `instanceof` before the comparison, and nothing is allocated.
 * The answers are those of `compareValues` in bson-order.ts: numbers across numeric types and
 * NaN below every number, strings by UTF-8 bytes, ranges only within one bracket, `null`
 * matching null and missing. Other operands return undefined (the engine's own operator runs).
 */

import { compareNumbers, compareStrings, compareValues, RANK, typeRank } from '../bson-order';
import type { ValueTest } from '../paths';
import { isObjectId } from '../values';

/** Which signs of `compare(value, operand)` each operator accepts. */
const ACCEPT = {
  $eq: (sign: number) => sign === 0,
  $gt: (sign: number) => sign > 0,
  $gte: (sign: number) => sign >= 0,
  $lt: (sign: number) => sign < 0,
  $lte: (sign: number) => sign <= 0,
} as const;

export type ComparisonName = keyof typeof ACCEPT;

const isNullish = (value: unknown): boolean => value === null || value === undefined;
const NEVER: ValueTest = () => false;

/** An array matches when one of its elements does (no scalar operand here matches an array itself). */
function orElement(test: ValueTest): ValueTest {
  return (value) => {
    if (!Array.isArray(value)) return test(value);
    for (const element of value) if (test(element)) return true;
    return false;
  };
}

/** `{ $eq: null }`, `$gte` / `$lte` null: null or missing; an array holding either. */
const NULL_TEST: ValueTest = (value) => {
  if (isNullish(value)) return true;
  if (!Array.isArray(value)) return false;
  for (const element of value) if (isNullish(element)) return true;
  return false;
};

type Accept = (sign: number) => boolean;

function numberTest(operand: number, accept: Accept): ValueTest {
  return (value) =>
    typeof value === 'number'
      ? accept(compareNumbers(value, operand))
      : typeRank(value) === RANK.number && accept(compareValues(value, operand));
}

function stringTest(operand: string, name: ComparisonName): ValueTest {
  if (name === '$eq') return (value) => value === operand;
  const accept = ACCEPT[name];
  return (value) => typeof value === 'string' && accept(compareStrings(value, operand));
}

function booleanTest(operand: boolean, accept: Accept): ValueTest {
  return (value) => typeof value === 'boolean' && accept(value === operand ? 0 : value ? 1 : -1);
}

function dateTest(operand: Date, accept: Accept): ValueTest {
  const time = operand.getTime();
  return (value) => value instanceof Date && accept(compareNumbers(value.getTime(), time));
}

/** bson 7 keeps an ObjectId as four 24-bit words, in byte order. */
interface IdWords {
  i0?: unknown;
  i1?: unknown;
  i2?: unknown;
  i3?: unknown;
}

const hasWords = (id: IdWords): id is { i0: number; i1: number; i2: number; i3: number } =>
  typeof id.i0 === 'number' &&
  typeof id.i1 === 'number' &&
  typeof id.i2 === 'number' &&
  typeof id.i3 === 'number';

const wordSign = (a: number, b: number): number => (a < b ? -1 : a > b ? 1 : 0);

/** ObjectIds by their bytes (as bson-order.ts compares their hex strings), without building strings when both hold words. */
function objectIdTest(operand: unknown, accept: Accept): ValueTest | undefined {
  if (!isObjectId(operand)) return undefined;
  const hex = operand.toHexString();
  const words = operand as unknown as IdWords;
  return (value) => {
    if (typeRank(value) !== RANK.objectId) return false;
    const theirs = value as IdWords;
    if (!hasWords(words) || !hasWords(theirs)) {
      return accept(compareStrings((value as typeof operand).toHexString(), hex));
    }
    return accept(
      wordSign(theirs.i0, words.i0) ||
        wordSign(theirs.i1, words.i1) ||
        wordSign(theirs.i2, words.i2) ||
        wordSign(theirs.i3, words.i3),
    );
  };
}

function scalarTest(name: ComparisonName, operand: unknown): ValueTest | undefined {
  const accept = ACCEPT[name];
  if (typeof operand === 'number') return numberTest(operand, accept);
  if (typeof operand === 'string') return stringTest(operand, name);
  if (typeof operand === 'boolean') return booleanTest(operand, accept);
  if (operand instanceof Date) return dateTest(operand, accept);
  if (typeRank(operand) === RANK.objectId) return objectIdTest(operand, accept);
  return undefined;
}

/**
 * The value test of `{ [name]: operand }`, arrays matching through their elements, or
 * undefined for an operand not specialised here (sub-documents, arrays, other BSON types).
 */
export function comparisonTest(name: ComparisonName, operand: unknown): ValueTest | undefined {
  if (operand === null) return name === '$gt' || name === '$lt' ? NEVER : NULL_TEST;
  const test = scalarTest(name, operand);
  return test && orElement(test);
}
