/** Readers of foreign dialect values, each failing with a 400 `invalid_query` naming the parameter. */
import { assertFieldName } from '../field-name';
import { parseJsonValue } from '../json-value';
import { LIMITS } from '../limits';
import { fail } from '../query-error';
import { checkRegex } from '../regex';
import { isValidResourceName } from '../resource-name';
import { type DialectSortKey, type DialectState, ownPart } from './dialect-query';

export type DialectHandler = (values: string[], state: DialectState, key: string) => void;

/** The one value of a parameter that may be given once. */
export function single(values: string[], key: string): string {
  if (values.length !== 1) fail('invalid_query', key, `${key}: given more than once`);
  return values[0] as string;
}

/** A whole number >= `min` (`_start`, `_page`, ...). */
export function wholeNumber(value: string, key: string, min: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    fail('invalid_query', key, `${key}: "${value}" is not an integer >= ${min}`);
  }
  return n;
}

/** Comma-separated items of every value (`_sort=a,b`, `_order=asc,desc`). */
export const commaItems = (values: string[]) => values.flatMap((v) => v.split(','));

const DIRECTIONS: Readonly<Record<string, 'asc' | 'desc'>> = { asc: 'asc', desc: 'desc' };

/** `asc` or `desc`, any case (react-admin sends `ASC`). */
export function direction(value: string, key: string): 'asc' | 'desc' {
  const found = Object.hasOwn(DIRECTIONS, value.toLowerCase()) ? DIRECTIONS[value.toLowerCase()] : undefined;
  if (found === undefined) fail('invalid_query', key, `${key}: "${value}" is not asc or desc`);
  return found;
}

/** A sort key: a field path, `-field` for descending. */
export function sortKey(item: string, key: string): DialectSortKey {
  const minus = item.startsWith('-');
  const field = assertFieldName(minus ? item.slice(1) : item, key);
  return { field, descending: minus ? true : undefined };
}

/** Sets the sort once: `_sort` and simple-rest's `sort` are one sort. */
export function setSort(state: DialectState, parameter: string, keys: DialectSortKey[]): void {
  if (state.sort !== undefined) {
    fail(
      'invalid_query',
      parameter,
      `${parameter}: the sort is given twice (${state.sort.parameter} and ${parameter})`,
    );
  }
  if (keys.length === 0) fail('invalid_query', parameter, `${parameter}: no field to sort on`);
  state.sort = { parameter, keys };
}

/** Resource names for `_embed` / `_expand`. */
export function relationNames(names: string[], key: string, into: string[]): void {
  for (const name of names) {
    if (!isValidResourceName(name)) fail('invalid_query', key, `${key}: "${name}" is not a resource name`);
    if (!into.includes(name)) into.push(name);
  }
}

/** The comparisons the dialects write as a field suffix (`views_gte`) and their operator in the store's language. */
const FIELD_SUFFIXES = {
  _gte: 'gte',
  _lte: 'lte',
  _gt: 'gt',
  _lt: 'lt',
  _ne: 'ne',
  _like: 'like',
} as const;

export type SuffixOperator = (typeof FIELD_SUFFIXES)[keyof typeof FIELD_SUFFIXES];

/** `field` and its suffix's operator, when `key` ends with one of {@link FIELD_SUFFIXES} after a field name. */
export function splitSuffix(key: string): { field: string; operator: SuffixOperator } | undefined {
  const underscore = key.lastIndexOf('_');
  if (underscore < 1) return undefined;
  const suffix = key.slice(underscore);
  if (!Object.hasOwn(FIELD_SUFFIXES, suffix)) return undefined;
  return { field: key.slice(0, underscore), operator: FIELD_SUFFIXES[suffix as keyof typeof FIELD_SUFFIXES] };
}

/**
 * A comparison on a field in the store's own parameters: `field:<op>=v`, or for `like` (a
 * regular expression, case-insensitive, as json-server reads it) a `$regex` checked by the
 * store's regex rules, naming `parameter` when refused.
 */
export function fieldCondition(
  state: DialectState,
  field: string,
  operator: SuffixOperator | 'eq',
  values: string[],
  parameter: string,
): void {
  assertFieldName(field, parameter);
  if (operator !== 'like') {
    for (const value of values)
      state.own.push(ownPart(operator === 'eq' ? field : `${field}:${operator}`, value));
    return;
  }
  for (const pattern of values) {
    if (pattern === '') fail('invalid_query', parameter, `${parameter}: the pattern is empty`);
    checkRegex(pattern, 'i', parameter);
    state.own.push(ownPart('$regex', JSON.stringify([field, pattern, 'i'])));
  }
}

/** `q`: the text every answer's document holds in one of its string fields. */
export function searchText(values: string[], state: DialectState, key: string): void {
  const text = single(values, key);
  if (text.length > LIMITS.textLength) {
    fail('invalid_query', key, `${key}: longer than ${LIMITS.textLength} characters`);
  }
  state.search = text.length === 0 ? state.search : text;
}

/** A JSON parameter's value (`filter`, `range`, `sort`), bounded in length. */
export const jsonValue = (values: string[], key: string): unknown => parseJsonValue(single(values, key), key);
