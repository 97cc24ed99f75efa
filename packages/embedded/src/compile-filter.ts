/**
 * Turns a MongoDB filter into a document test for the embedded engine: mingo with the geo
 * operators added, `$text` rewritten onto the collection's text index, `$where` and other
 * scripts disabled, and the one `$nearSphere` (if any) located so results can be sorted by
 * distance.
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import type { Options } from 'mingo/types';
import { collatedOperators } from './collated-operators';
import { type Collation, holdsString } from './collation';
import { asBadValue, EmbeddedDbError } from './errors';
import { fastFilter } from './fast-filter';
import { type FieldOperator, geoIntersects, geoWithin, nearSphere, parseNearSphere } from './geo-operators';
import type { Point } from './geo-types';
import { $in, $nin, type QueryOperator } from './in-operator';
import type { CollectionIndexes } from './indexes';
import { Context, expressionOperators, Query, queryOperators } from './mingo';
import { mod } from './mod-operator';
import { COMPARISON_OPERATORS } from './query-operators';
import { REGEX_EXPRESSIONS } from './regex-expressions';
import { $all, $regex } from './regex-operators';
import { textMatcher } from './text-search';

/** Internal field-level stand-in for the top-level `$text` operator (mingo has no `$text`). */
const TEXT_OPERATOR = '$__embeddedText';
const LOGICAL = ['$and', '$or', '$nor'] as const;
type ContextOps = NonNullable<Parameters<typeof Context.init>[0]>;
type QueryOps = NonNullable<ContextOps['query']>;
type ExpressionOps = NonNullable<ContextOps['expression']>;
const NEAR_OPERATORS = ['$nearSphere', '$near'] as const;

/** Whether `filter` holds `$expr` at any depth (its expressions compare strings without a collation here). */
function usesExpr(filter: unknown): boolean {
  if (Array.isArray(filter)) return filter.some(usesExpr);
  if (!isPlainObject(filter)) return false;
  return Object.keys(filter).some((key) => key === '$expr' || usesExpr(filter[key]));
}

/** A filter ready to test documents. */
export interface CompiledFilter {
  test(doc: Document): boolean;
  /** The `$nearSphere` of the filter: results are sorted by distance from `point` when no sort is given. */
  near: { field: string; point: Point } | undefined;
  /** What mingo's updater needs to resolve positional `$` paths. */
  condition: Document;
  context: Context;
  /**
   * Compiled under a collation its strings compare by: the collection's indexes, which order
   * strings binary, cannot find its matches (they are scanned for).
   */
  collated?: boolean;
}

function rewriteText(filter: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key !== '$text') {
      const logical = (LOGICAL as readonly string[]).includes(key) && Array.isArray(value);
      setOwn(
        out,
        key,
        logical ? value.map((clause) => (isPlainObject(clause) ? rewriteText(clause) : clause)) : value,
      );
    }
  }
  if (!('$text' in filter)) return out;
  return { $and: [out, { _id: { [TEXT_OPERATOR]: filter.$text } }] };
}

type NearFound = { field: string; operand: unknown; topLevel: boolean };

function findNear(filter: Document, topLevel: boolean, found: NearFound[]): NearFound[] {
  for (const [key, value] of Object.entries(filter)) {
    if (Array.isArray(value) && key.startsWith('$')) {
      for (const clause of value)
        if (isPlainObject(clause)) findNear(clause, topLevel && key === '$and', found);
    } else if (isPlainObject(value)) {
      const near = NEAR_OPERATORS.find((operator) => operator in value);
      if (near) found.push({ field: key, operand: value[near], topLevel });
      const negated = isPlainObject(value.$not)
        ? NEAR_OPERATORS.find((operator) => operator in (value.$not as Document))
        : undefined;
      if (negated) found.push({ field: key, operand: undefined, topLevel: false });
    }
  }
  return found;
}

function locateNear(filter: Document, indexes: CollectionIndexes): CompiledFilter['near'] {
  const found = findNear(filter, true, []);
  const [first] = found;
  if (!first) return undefined;
  if (found.length > 1) throw new EmbeddedDbError('BadValue', 'Too many geoNear expressions');
  if (!first.topLevel) throw new EmbeddedDbError('BadValue', 'geoNear must be top-level expr');
  if (!indexes.hasGeoIndex(first.field)) {
    throw new EmbeddedDbError('NoQueryExecutionPlans', 'unable to find index for $geoNear query');
  }
  return { field: first.field, point: parseNearSphere(first.operand).point };
}

/** Internal operator through which mingo hands over its compute options (see `compileOptions()`). */
const CAPTURE_OPERATOR = '$__embeddedOptions';

/** What a collection's filters compile with: built once per collection (registering every operator is costly). */
interface Compiling {
  context: Context;
  options: Partial<Options>;
}
const compilings = new WeakMap<CollectionIndexes, Compiling>();
/** The same under each collation a collection's filters used, by collation key (a few per collection). */
const collatedCompilings = new WeakMap<CollectionIndexes, Map<string, Compiling>>();
const COLLATIONS_KEPT = 16;

function operatorContext(
  indexes: CollectionIndexes,
  capture: QueryOperator,
  collation: Collation | undefined,
): Context {
  const text: FieldOperator = (_field, operand) => {
    const fields = indexes.textFields();
    if (!fields) throw new EmbeddedDbError('IndexNotFound', 'text index required for $text query');
    return textMatcher(operand, fields);
  };
  const operators: Record<string, FieldOperator | QueryOperator> = {
    $geoWithin: geoWithin,
    $geoIntersects: geoIntersects,
    $nearSphere: nearSphere,
    $near: nearSphere,
    $mod: mod,
    $in,
    $nin,
    // Regexes run by RE2 in linear time, never by RegExp's backtracking (see linear-regex.ts).
    $regex,
    $all,
    [TEXT_OPERATOR]: text,
    [CAPTURE_OPERATOR]: capture,
    // MongoDB's comparison order and type rules (`$eq`, `$ne`, ranges, `$type`, `$all`), last so they win.
    ...COMPARISON_OPERATORS,
    // Under a collation, the operators that compare values compare strings by it.
    ...(collation ? collatedOperators(collation) : {}),
  };
  // Built whole rather than merged: mingo keeps the first of two same-named operators, and `$mod`, `$in`, `$nin`, `$regex`, `$all` are replaced.
  return Context.init({
    query: { ...queryOperators, ...operators } as unknown as QueryOps,
    expression: { ...expressionOperators, ...REGEX_EXPRESSIONS } as unknown as ExpressionOps,
  });
}

/**
 * The context and options of a collection's filters. Given plain options, mingo copies the
 * whole operator context into every `Query`; given its own compute-options instance, it reuses
 * it as is (`ComputeOptions.init`). That instance is what mingo passes to operators, so it is
 * caught once, by compiling a query on an internal operator that refuses any later use.
 */
function compiling(indexes: CollectionIndexes, collation?: Collation): Compiling {
  const byKey = collation && (collatedCompilings.get(indexes) ?? new Map<string, Compiling>());
  const cached = collation ? byKey?.get(collation.key) : compilings.get(indexes);
  if (cached) return cached;
  let caught: Partial<Options> | undefined;
  const capture: QueryOperator = (_field, _operand, options) => {
    if (caught) throw new EmbeddedDbError('BadValue', `unknown operator: ${CAPTURE_OPERATOR}`);
    caught = options as Partial<Options>;
    return () => true;
  };
  const context = operatorContext(indexes, capture, collation);
  new Query({ _id: { [CAPTURE_OPERATOR]: 1 } }, { context, scriptEnabled: false });
  const made = { context, options: caught ?? { context, scriptEnabled: false } };
  if (collation && byKey) {
    if (byKey.size >= COLLATIONS_KEPT) byKey.clear();
    byKey.set(collation.key, made);
    collatedCompilings.set(indexes, byKey);
  } else compilings.set(indexes, made);
  return made;
}

/**
 * Compiles `filter` against the indexes of its collection; bad filters throw a BadValue error.
 * `variables` (an operation's `let`) are what `$$name` reads in `$expr`. Under `collation`
 * (collation.ts) strings compare by it; a filter holding no string matches alike without it.
 */
export function compileFilter(
  filter: unknown,
  indexes: CollectionIndexes,
  variables?: Document,
  collation?: Collation,
): CompiledFilter {
  if (!isPlainObject(filter)) throw new EmbeddedDbError('BadValue', 'filter must be an object');
  if (collation && holdsString(filter)) return compileWithMingo(filter, indexes, variables, collation);
  if (variables !== undefined) return compileWithMingo(filter, indexes, variables);
  const { context, options } = compiling(indexes);
  const fast = fastFilter(filter, options);
  if (fast)
    return {
      // Errors become BadValue as asBadValue has it, without a closure per document tested.
      test: (doc) => {
        try {
          return fast(doc);
        } catch (error) {
          return asBadValue('filter', () => {
            throw error;
          });
        }
      },
      near: undefined,
      condition: filter,
      context,
    };
  return compileWithMingo(filter, indexes);
}

/**
 * `filter` compiled by mingo's `Query` alone, with the engine's operators: what `compileFilter`
 * does for the filters `fastFilter` leaves, and the answer its property tests hold it to.
 */
export function compileWithMingo(
  filter: unknown,
  indexes: CollectionIndexes,
  variables?: Document,
  collation?: Collation,
): CompiledFilter {
  if (!isPlainObject(filter)) throw new EmbeddedDbError('BadValue', 'filter must be an object');
  if (collation && usesExpr(filter)) {
    throw new EmbeddedDbError(
      'NotImplemented',
      '$expr with a collation is not supported by the embedded engine',
    );
  }
  const { context, options } = compiling(indexes, collation);
  const near = locateNear(filter, indexes);
  const condition = rewriteText(filter);
  // With variables, mingo copies the operator context for this one query (plain options).
  const withVariables = variables && { context, scriptEnabled: false, variables };
  const query = asBadValue('filter', () => new Query(condition, withVariables ?? options));
  const test = (doc: Document) => asBadValue('filter', () => query.test(doc));
  return { test, near, condition, context, collated: collation !== undefined };
}
