/**
 * Filters of the commonest shape compiled without mingo: `$and` / `$or` of field conditions
 * that are `$in` / `$nin` lists (see `in-operator.ts`), or equality with a scalar on a top-level
 * field (mingo's `$eq` there is exactly `$in` with one member). Building a mingo `Query`
 * deep-copies the filter at every level of `$and` / `$or` and serializes it for an assertion
 * message; for a `$populate` children query with a hundred ids that was most of the compile.
 * Any other shape returns undefined, and mingo compiles the filter as before.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { resolve } from 'mingo/util';
import { type InLookup, inLookup, inMatches } from './in-operator';

type Test = (doc: Document) => boolean;
/** The `$in` lookups of one filter, by operand (`$or` clauses often share one list). */
type LookupMemo = Map<unknown, InLookup | undefined>;

function lookupOf(operand: unknown, memo: LookupMemo): InLookup | undefined {
  if (memo.has(operand)) return memo.get(operand);
  const lookup = inLookup(operand);
  if (typeof operand === 'object' && operand !== null) memo.set(operand, lookup);
  return lookup;
}

const RESOLVE = { unwrapArray: true } as const;
const ALWAYS: Test = () => true;

/** `field` tested against `lookup`, negated for `$nin`. */
function member(field: string, lookup: InLookup, negate: boolean): Test {
  return negate
    ? (doc) => !inMatches(lookup, resolve(doc as ArrayOrObject, field, RESOLVE))
    : (doc) => inMatches(lookup, resolve(doc as ArrayOrObject, field, RESOLVE));
}

/** Equality with a scalar, only on a top-level field (on a dotted path mingo's `$eq` also flattens arrays). */
function equality(field: string, value: unknown): Test | undefined {
  const lookup = field.includes('.') || value instanceof RegExp ? undefined : inLookup([value]);
  return lookup && member(field, lookup, false);
}

type OperatorTest = (field: string, operand: unknown, memo: LookupMemo) => Test | undefined;

const OPERATORS: Readonly<Record<string, OperatorTest>> = {
  $in: (field, operand, memo) => {
    const lookup = lookupOf(operand, memo);
    return lookup && member(field, lookup, false);
  },
  $nin: (field, operand, memo) => {
    const lookup = lookupOf(operand, memo);
    return lookup && member(field, lookup, true);
  },
  $eq: equality,
};

function fieldTests(field: string, condition: unknown, memo: LookupMemo): Test[] | undefined {
  const operators = isPlainObject(condition) ? Object.keys(condition) : [];
  if (!operators.some((key) => key.startsWith('$'))) {
    const test = equality(field, condition);
    return test && [test];
  }
  const tests: Test[] = [];
  for (const operator of operators) {
    const test = Object.hasOwn(OPERATORS, operator)
      ? OPERATORS[operator]?.(field, (condition as Document)[operator], memo)
      : undefined;
    if (!test) return undefined;
    tests.push(test);
  }
  return tests;
}

function clauseTests(clauses: unknown, memo: LookupMemo): Test[] | undefined {
  if (!Array.isArray(clauses)) return undefined;
  const tests: Test[] = [];
  for (const clause of clauses) {
    const test = fastFilter(clause, memo);
    if (!test) return undefined;
    tests.push(test);
  }
  return tests;
}

const all =
  (tests: Test[]): Test =>
  (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };

const any =
  (tests: Test[]): Test =>
  (doc) => {
    for (const test of tests) if (test(doc)) return true;
    return false;
  };

/** A test of `filter` matching exactly what mingo's would, or undefined for a shape it leaves to mingo. */
export function fastFilter(filter: unknown, memo: LookupMemo = new Map()): Test | undefined {
  if (!isPlainObject(filter)) return undefined;
  const tests: Test[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      const clauses = clauseTests(condition, memo);
      if (!clauses) return undefined;
      tests.push(key === '$and' ? all(clauses) : any(clauses));
    } else {
      const fields = key === '' || key.startsWith('$') ? undefined : fieldTests(key, condition, memo);
      if (!fields) return undefined;
      tests.push(...fields);
    }
  }
  if (tests.length === 0) return ALWAYS;
  return tests.length === 1 ? (tests[0] as Test) : all(tests);
}
