/**
 * The query operators that compare values (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`,
 * `$nin`, `$all`) under a collation: the engine's own (query-operators.ts, in-operator.ts) with
 * strings, at any depth of the operand, compared by the collation (collation.ts). Regex
 * members of `$in` / `$all` match as without a collation: MongoDB never collates a regex.
 * Operands holding no string are compared exactly as without a collation. `$elemMatch` and
 * `$not` compile their inner conditions through these (they take the operators of the context).
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { Context } from 'mingo';
import { RANK, typeRank } from './bson-order';
import type { Collation } from './collation';
import { EmbeddedDbError } from './errors';
import type { QueryOperator } from './in-operator';
import { linearRegExp } from './linear-regex';
import { someAtPath, type ValueTest } from './paths';
import { itselfOrElement } from './query-operators';

type Test = (doc: Document) => boolean;
type Accept = (sign: number) => boolean;

const isNullish = (value: unknown): boolean => value === null || value === undefined;

const NULL_TEST: ValueTest = itselfOrElement(isNullish);
const NEVER: ValueTest = () => false;

/** The value test of `{ $eq: operand }` under `collation`. */
function equalsTest(operand: unknown, { compare }: Collation): ValueTest {
  if (operand === null) return NULL_TEST;
  return itselfOrElement((value) => value !== undefined && compare(value, operand) === 0);
}

/** A range test under `collation`: `accept` says which signs of `compare(value, operand)` match. */
function rangeTest(
  operand: unknown,
  accept: Accept,
  nullAnswer: ValueTest,
  { compare }: Collation,
): ValueTest {
  if (operand === null || operand === undefined) return nullAnswer;
  const rank = typeRank(operand);
  if (rank === RANK.minKey || rank === RANK.maxKey) {
    return itselfOrElement((value) => value !== undefined && accept(compare(value, operand)));
  }
  if (typeof operand === 'string') {
    return itselfOrElement((value) => typeof value === 'string' && accept(compare(value, operand)));
  }
  return itselfOrElement(
    (value) => value !== undefined && typeRank(value) === rank && accept(compare(value, operand)),
  );
}

const samePattern = (a: RegExp, b: RegExp): boolean => a.source === b.source && a.flags === b.flags;

/**
 * `$in`'s value test under `collation`: a value (or an element of an array value) equal to a
 * member, a string matching a regex member, null or missing for a `null` member.
 */
function membersTest(operand: unknown, collation: Collation): ValueTest {
  if (!Array.isArray(operand)) throw new EmbeddedDbError('BadValue', '$in needs an array');
  const patterns: RegExp[] = [];
  const values: unknown[] = [];
  let hasNull = false;
  for (const member of operand) {
    if (member instanceof RegExp) patterns.push(member);
    else if (member === null) hasNull = true;
    else if (isPlainObject(member) && Object.keys(member).some((key) => key.startsWith('$'))) {
      throw new EmbeddedDbError('BadValue', 'cannot nest $ under $in');
    } else values.push(member);
  }
  const linear = patterns.map((pattern) => linearRegExp(pattern));
  const { compare } = collation;
  const one: ValueTest = (value) => {
    if (value === undefined) return false;
    if (typeof value === 'string' && linear.some((pattern) => pattern.test(value))) return true;
    if (value instanceof RegExp && patterns.some((pattern) => samePattern(pattern, value))) return true;
    for (const member of values) if (compare(value, member) === 0) return true;
    return false;
  };
  return (value) => (hasNull && NULL_TEST(value)) || itselfOrElement(one)(value);
}

const segmentsOf = (selector: string): readonly string[] => selector.split('.');

/** A query operator from a value test: the document matches when some value at the path passes. */
const fieldOperator =
  (build: (operand: unknown) => ValueTest): QueryOperator =>
  (selector, operand) => {
    const segments = segmentsOf(selector);
    const test = build(operand);
    return (doc) => someAtPath(doc, segments, test);
  };

const negated =
  (operator: QueryOperator): QueryOperator =>
  (selector, operand, options) => {
    const test = operator(selector, operand, options);
    return (doc) => !test(doc);
  };

const contextOf = (options: unknown): Context => (options as { context: Context }).context;

/** `$all` under a collation: every member matches as `$eq` would, a regex member as `$regex`, an `$elemMatch` member as `$elemMatch`. */
function allOperator(eq: QueryOperator): QueryOperator {
  return (selector, operand, options) => {
    if (!Array.isArray(operand)) throw new EmbeddedDbError('BadValue', '$all needs an array');
    if (operand.length === 0) return () => false;
    const context = contextOf(options);
    const memberOperator = (name: string): QueryOperator =>
      context.getOperator('query' as never, name) as unknown as QueryOperator;
    const tests = operand.map((member): Test => {
      if (member instanceof RegExp) return memberOperator('$regex')(selector, member, options);
      if (isPlainObject(member) && Object.keys(member)[0] === '$elemMatch') {
        return memberOperator('$elemMatch')(selector, member.$elemMatch, options);
      }
      return eq(selector, member, options);
    });
    return (doc) => {
      for (const test of tests) if (!test(doc)) return false;
      return true;
    };
  };
}

/** The comparison operators under `collation`, by name, for a mingo operator context. */
export function collatedOperators(collation: Collation): Record<string, QueryOperator> {
  const range = (accept: Accept, nullAnswer: ValueTest) =>
    fieldOperator((operand) => rangeTest(operand, accept, nullAnswer, collation));
  const $eq = fieldOperator((operand) => equalsTest(operand, collation));
  const $in = fieldOperator((operand) => membersTest(operand, collation));
  return {
    $eq,
    $ne: negated($eq),
    $gt: range((sign) => sign > 0, NEVER),
    $gte: range((sign) => sign >= 0, NULL_TEST),
    $lt: range((sign) => sign < 0, NEVER),
    $lte: range((sign) => sign <= 0, NULL_TEST),
    $in,
    $nin: negated($in),
    $all: allOperator($eq),
  };
}
