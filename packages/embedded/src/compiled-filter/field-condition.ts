/**
 * One field's condition compiled into document tests, as mingo's `Query` compiles it: the
 * condition normalized by mingo's own `normalize` (a scalar is `$eq`, a RegExp `$regex`,
 * `$regex` joined with `$options`), then one test per operator, in order. The operators in
 * {@link OPERATORS} get specialised tests with the engine's semantics; any other operator, an
 * operand they do not specialise, or a field they do not read directly (see `fieldPath`) is
 * compiled by the operator the engine registers under that name, exactly as mingo would call
 * it. A condition holding `$near` / `$nearSphere`, or that mingo would refuse, gives undefined.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { type InLookup, inMatches } from '../in-operator';
import { linearRegExp } from '../linear-regex';
import { normalize } from '../mingo';
import { existsAt, type FieldPath, fieldPath, resolvedAt, someAt } from './field-access';
import { type ComparisonName, comparisonTest } from './value-tests';

type Test = (doc: Document) => boolean;

/** What compiling one filter shares across its fields. */
export interface Scope {
  /** The test of the operator the engine registers as `operator`, on `field` (what mingo's `Query` calls); undefined if none. */
  registered(field: string, operator: string, operand: unknown): Test | undefined;
  /** The `$in` lookup of an operand, built once per operand (`$or` clauses often share one list). */
  lookup(operand: unknown): InLookup | undefined;
}

type Build = (path: FieldPath, operand: unknown, scope: Scope) => Test | undefined;

const comparison =
  (name: ComparisonName): Build =>
  (path, operand) => {
    const test = comparisonTest(name, operand);
    return test && someAt(path, test);
  };

const equality = comparison('$eq');

/**
 * `inMatches` for a lookup of strings, numbers, booleans and null only (what the query
 * language's lists hold): one `typeof` and one set per value, where `inMatches` also looks for
 * patterns, dates and ObjectIds.
 */
function scalarMembers(lookup: InLookup): ((resolved: unknown) => boolean) | undefined {
  const { strings, numbers, booleans, objectIds, unfiledObjectIds, dates, patterns, hasNull } = lookup;
  if (patterns.length > 0 || dates.size > 0 || objectIds.size > 0 || unfiledObjectIds.length > 0)
    return undefined;
  const matches = (value: unknown): boolean => {
    if (typeof value === 'string') return strings.has(value);
    if (typeof value === 'number') return numbers.has(value);
    if (typeof value === 'boolean') return booleans.has(value);
    return value === null && hasNull;
  };
  return (resolved) => {
    if (resolved === null || resolved === undefined) return hasNull;
    if (!Array.isArray(resolved)) return matches(resolved);
    for (const value of resolved) if (matches(value)) return true;
    return false;
  };
}

const member =
  (negate: boolean): Build =>
  (path, operand, scope) => {
    const lookup = scope.lookup(operand);
    if (!lookup) return undefined;
    const matches = scalarMembers(lookup) ?? ((resolved: unknown) => inMatches(lookup, resolved));
    const read = resolvedAt(path);
    return negate ? (doc) => !matches(read(doc)) : (doc) => matches(read(doc));
  };

/** The engine's `$regex` (regex-operators.ts): a string at the path, or in one or two array levels there. */
const regex: Build = (path, operand) => {
  if (!(operand instanceof RegExp)) return undefined;
  const pattern = linearRegExp(operand);
  const matches = (value: unknown): boolean => typeof value === 'string' && pattern.test(value);
  const read = resolvedAt(path);
  return (doc) => {
    const found = read(doc);
    if (!Array.isArray(found)) return matches(found);
    for (const value of found) if (matches(value)) return true;
    for (const value of found) {
      if (Array.isArray(value)) for (const inner of value) if (matches(inner)) return true;
    }
    return false;
  };
};

const OPERATORS: Readonly<Record<string, Build>> = {
  $eq: equality,
  $gt: comparison('$gt'),
  $gte: comparison('$gte'),
  $lt: comparison('$lt'),
  $lte: comparison('$lte'),
  $ne: (path, operand, scope) => {
    const equal = equality(path, operand, scope);
    return equal && ((doc) => !equal(doc));
  },
  $in: member(false),
  $nin: member(true),
  $exists: (path, operand, scope) => {
    const crossing = scope.registered(path.name, '$exists', operand);
    return crossing && existsAt(path, Boolean(operand), crossing);
  },
  // mingo's `$size`: the value resolved at the path is an array of exactly that length.
  $size: (path, operand) => {
    const read = resolvedAt(path);
    return (doc) => {
      const value = read(doc);
      return Array.isArray(value) && value.length === operand;
    };
  },
  $regex: regex,
  // mingo's `$not`: the operand compiled as the field's whole condition, negated.
  $not: (path, operand, scope) => {
    const tests = fieldTests(path.name, operand, scope);
    if (!tests) return undefined;
    const all = allOf(tests);
    return (doc) => !all(doc);
  },
};

const NEAR_OPERATORS = ['$near', '$nearSphere'];
const holdsNear = (value: unknown): boolean =>
  isPlainObject(value) && NEAR_OPERATORS.some((operator) => operator in value);

/**
 * Conditions left to mingo whole: a `$near` (compile-filter.ts locates it for sorting), and an
 * own `__proto__` key (mingo's deep copy of the filter drops it).
 */
const leftToMingo = (condition: unknown): boolean =>
  isPlainObject(condition) &&
  (holdsNear(condition) || holdsNear(condition.$not) || Object.hasOwn(condition, '__proto__'));

/** The tests of `{ [field]: condition }`, in mingo's order, or undefined when the filter is left to mingo. */
export function fieldTests(field: string, condition: unknown, scope: Scope): Test[] | undefined {
  if (leftToMingo(condition)) return undefined;
  const normalized = normalize(condition) as Document;
  const path = fieldPath(field);
  const tests: Test[] = [];
  for (const operator of Object.keys(normalized)) {
    const operand = normalized[operator];
    const build = path && Object.hasOwn(OPERATORS, operator) ? OPERATORS[operator] : undefined;
    const test = (path && build?.(path, operand, scope)) || scope.registered(field, operator, operand);
    if (!test) return undefined;
    tests.push(test);
  }
  return tests;
}

const ALWAYS: Test = () => true;

/** The conjunction of `tests`, evaluated in order. */
export function allOf(tests: readonly Test[]): Test {
  const [first, second] = tests;
  if (!first) return ALWAYS;
  if (tests.length === 1) return first;
  if (tests.length === 2 && second) return (doc) => first(doc) && second(doc);
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}
