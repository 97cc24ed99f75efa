/**
 * The comparison, `$type` and `$all` query operators as MongoDB evaluates them, in place of
 * mingo's: equality field-order sensitive on sub-documents and numeric across number types;
 * ranges only within one type bracket, strings by UTF-8 bytes, `$gte` / `$lte: null` matching
 * null and missing and `$gt` / `$lt: null` matching nothing; `$type` telling an int from a
 * double the way the driver stores a JS number; `$all` on a scalar field, and with regex members.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { Context } from 'mingo';
import { compareNumbers, compareStrings, compareValues, equalValues, RANK, typeRank } from './bson-order';
import { EmbeddedDbError } from './errors';
import type { QueryOperator } from './in-operator';
import { someAtPath, type ValueTest } from './paths';
import { typeTest } from './type-operator';

/** A test of one value found at a path, built once from the operand. */
type ValueOperator = (operand: unknown) => ValueTest;

/** The value itself, or (for an array) one of its elements, passes `test`. */
export const itselfOrElement =
  (test: ValueTest): ValueTest =>
  (value) => {
    if (test(value)) return true;
    if (!Array.isArray(value)) return false;
    for (const element of value) if (test(element)) return true;
    return false;
  };

const isNullish = (value: unknown): boolean => value === null || value === undefined;

/** `{ field: null }`: null, missing, or an array holding null. */
const NULL_TEST: ValueTest = itselfOrElement(isNullish);
const NEVER: ValueTest = () => false;

function equalsTest(operand: unknown): ValueTest {
  if (operand === null) return NULL_TEST;
  if (typeof operand === 'number') {
    // NaN equals NaN in MongoDB's queries.
    return itselfOrElement((value) =>
      typeof value === 'number' ? compareNumbers(value, operand) === 0 : equalValues(value, operand),
    );
  }
  if (typeof operand === 'string') return itselfOrElement((value) => value === operand);
  return itselfOrElement((value) => value !== undefined && equalValues(value, operand));
}

/** A range test: `accept` says which signs of `compare(value, operand)` match. */
function rangeTest(operand: unknown, accept: (sign: number) => boolean, nullAnswer: ValueTest): ValueTest {
  if (operand === null || operand === undefined) return nullAnswer;
  const rank = typeRank(operand);
  if (rank === RANK.minKey || rank === RANK.maxKey) {
    return itselfOrElement((value) => value !== undefined && accept(compareValues(value, operand)));
  }
  if (typeof operand === 'number') {
    return itselfOrElement((value) =>
      typeof value === 'number'
        ? accept(compareNumbers(value, operand))
        : typeRank(value) === rank && accept(compareValues(value, operand)),
    );
  }
  if (typeof operand === 'string') {
    return itselfOrElement((value) => typeof value === 'string' && accept(compareStrings(value, operand)));
  }
  return itselfOrElement(
    (value) => value !== undefined && typeRank(value) === rank && accept(compareValues(value, operand)),
  );
}

const VALUE_OPERATORS = {
  $eq: equalsTest,
  $gt: (operand) => rangeTest(operand, (sign) => sign > 0, NEVER),
  $gte: (operand) => rangeTest(operand, (sign) => sign >= 0, NULL_TEST),
  $lt: (operand) => rangeTest(operand, (sign) => sign < 0, NEVER),
  $lte: (operand) => rangeTest(operand, (sign) => sign <= 0, NULL_TEST),
  // An array matches `"array"` itself, and any other type through its elements.
  $type: (operand) => itselfOrElement(typeTest(operand)),
} as const satisfies Record<string, ValueOperator>;

const segmentsOf = (selector: string): readonly string[] => selector.split('.');

/** A mingo query operator from a value test: the document matches when some value at the path passes. */
function fieldOperator(build: ValueOperator): QueryOperator {
  return (selector, operand) => {
    const segments = segmentsOf(selector);
    const test = build(operand);
    return (doc) => someAtPath(doc, segments, test);
  };
}

/** The query operators of this module, by name, for the engine's mingo context. */
export const COMPARISON_OPERATORS: Readonly<Record<string, QueryOperator>> = {
  $eq: fieldOperator(VALUE_OPERATORS.$eq),
  $ne: (selector, operand, options) => {
    const eq = fieldOperator(VALUE_OPERATORS.$eq)(selector, operand, options);
    return (doc) => !eq(doc);
  },
  $gt: fieldOperator(VALUE_OPERATORS.$gt),
  $gte: fieldOperator(VALUE_OPERATORS.$gte),
  $lt: fieldOperator(VALUE_OPERATORS.$lt),
  $lte: fieldOperator(VALUE_OPERATORS.$lte),
  $type: fieldOperator(VALUE_OPERATORS.$type),
  $all: allOperator,
};

const contextOf = (options: unknown): Context => (options as { context: Context }).context;

/**
 * `$all`: every member matches as an equality would (so a scalar field can match, and an array
 * member matches an equal array), a regex member as `$regex` does (through the context's `$regex`,
 * so the engine's linear-time one), an `{ $elemMatch }` member as `$elemMatch`. No member: no match.
 */
function allOperator(selector: string, operand: unknown, options: unknown): (doc: Document) => boolean {
  if (!Array.isArray(operand)) throw new EmbeddedDbError('BadValue', '$all needs an array');
  if (operand.length === 0) return () => false;
  const context = contextOf(options);
  const memberOperator = (name: string): QueryOperator =>
    context.getOperator('query' as never, name) as unknown as QueryOperator;
  const tests = operand.map((member): ((doc: Document) => boolean) => {
    if (member instanceof RegExp) return memberOperator('$regex')(selector, member, options);
    if (isPlainObject(member) && Object.keys(member)[0] === '$elemMatch') {
      return memberOperator('$elemMatch')(selector, member.$elemMatch, options);
    }
    return COMPARISON_OPERATORS.$eq?.(selector, member, options) as (doc: Document) => boolean;
  });
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}
