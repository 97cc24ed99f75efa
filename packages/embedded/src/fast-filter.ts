/**
 * Filters compiled once into plain predicates, with exactly the answers mingo's `Query` gives
 * with the engine's operators (compile-filter.ts), without its cost per document: no `every`
 * over closures at each level, no array built to read a dotted path, one `typeof` before each
 * comparison. `$and` / `$or` / `$nor` nest; each field's condition is compiled by
 * `compiled-filter/field-condition.ts` (comparisons, `$in`, `$nin`, `$exists`, `$size`,
 * `$regex`, `$not` specialised; any other field operator is the engine's own, called directly).
 * Left to mingo whole (undefined here): `$text`, `$where`, `$expr` and other top-level
 * operators, `$near` / `$nearSphere`, and whatever mingo would refuse to compile.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { Options } from 'mingo/types';
import { isOrdinaryObject } from './compiled-filter/field-access';
import { allOf, fieldTests, type Scope } from './compiled-filter/field-condition';
import { type InLookup, inLookup, type QueryOperator } from './in-operator';
import { cloneDeep, isOperator, Query } from './mingo';

type Test = (doc: Document) => boolean;

const NEVER: Test = () => false;

function anyOf(tests: readonly Test[]): Test {
  const [first, second] = tests;
  if (!first) return NEVER;
  if (tests.length === 1) return first;
  if (tests.length === 2 && second) return (doc) => first(doc) || second(doc);
  return (doc) => {
    for (const test of tests) if (test(doc)) return true;
    return false;
  };
}

/** `$and` / `$or` / `$nor` of clause tests, as mingo's (an empty `$and` matches all, an empty `$or` none). */
const LOGICAL: Readonly<Record<string, (tests: Test[]) => Test>> = {
  $and: allOf,
  $or: anyOf,
  $nor: (tests) => {
    const any = anyOf(tests);
    return (doc) => !any(doc);
  },
};

function logicalTest(operator: string, clauses: unknown, scope: Scope): Test | undefined {
  if (!Array.isArray(clauses)) return undefined;
  const tests: Test[] = [];
  for (const clause of clauses) {
    const test = filterTest(clause, scope);
    if (!test) return undefined;
    tests.push(test);
  }
  return LOGICAL[operator]?.(tests);
}

function filterTest(filter: unknown, scope: Scope): Test | undefined {
  if (!isPlainObject(filter)) return undefined;
  const tests: Test[] = [];
  for (const key of Object.keys(filter)) {
    const condition = filter[key];
    if (Object.hasOwn(LOGICAL, key)) {
      const test = logicalTest(key, condition, scope);
      if (!test) return undefined;
      tests.push(test);
    } else {
      // Top-level operators other than the logical ones, and keys mingo's deep copy drops.
      if (isOperator(key) || key === '__proto__') return undefined;
      const fields = fieldTests(key, condition, scope);
      if (!fields) return undefined;
      tests.push(...fields);
    }
  }
  return allOf(tests);
}

function scopeOf(options: Partial<Options>): Scope {
  const lookups = new Map<unknown, InLookup | undefined>();
  return {
    registered(field, operator, operand) {
      if (!isOperator(operator)) return undefined;
      const registered = options.context?.getOperator('query' as never, operator);
      if (typeof registered !== 'function') return undefined;
      return (registered as unknown as QueryOperator)(field, cloneDeep(operand), options);
    },
    lookup(operand) {
      if (lookups.has(operand)) return lookups.get(operand);
      const lookup = inLookup(operand);
      if (typeof operand === 'object' && operand !== null) lookups.set(operand, lookup);
      return lookup;
    },
  };
}

/**
 * A test of `filter` answering exactly as mingo's `Query` with `options` (the engine's operator
 * context) would, or undefined for a filter left to mingo. A document that is not an ordinary
 * object (never one the engine stores, bar an own `__proto__` key) is handed to such a
 * `Query`, built when first needed.
 */
export function fastFilter(filter: Document, options: Partial<Options>): Test | undefined {
  let test: Test | undefined;
  try {
    test = filterTest(filter, scopeOf(options));
  } catch {
    return undefined; // mingo compiles it again, and reports the error
  }
  if (!test) return undefined;
  const compiled = test;
  let query: Query | undefined;
  return (doc) => {
    if (typeof doc === 'object' && doc !== null && isOrdinaryObject(doc)) return compiled(doc);
    query ??= new Query(filter, options);
    return query.test(doc);
  };
}
