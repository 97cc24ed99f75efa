/**
 * `_id` lookups by key instead of a scan: when a filter pins `_id` (`{_id: x}`,
 * `{_id: {$eq: x}}`, `{_id: {$in: [...]}}`, possibly ANDed with more conditions, also inside
 * `$and`), only the documents with those keys can match. The full filter is still applied
 * to them, so this only ever narrows the search.
 */
import type { Document } from '../types';
import { idKey, isObjectId, isPlainObject } from './values';

const isOperatorObject = (value: unknown): value is Document =>
  isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'));

/** Values compared by exact key: primitives, Dates, ObjectIds, sub-documents (not patterns, arrays, Longs). */
const hasExactKey = (value: unknown): boolean =>
  value === null ||
  ['string', 'number', 'boolean'].includes(typeof value) ||
  value instanceof Date ||
  isObjectId(value) ||
  (isPlainObject(value) && !isOperatorObject(value));

/** Any value matched by something other than its exact key defeats the lookup. */
function keysOf(values: readonly unknown[]): Set<string> | undefined {
  return values.every(hasExactKey) ? new Set(values.map(idKey)) : undefined;
}

function intersect(a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  return new Set([...a].filter((key) => b.has(key)));
}

function keysOfCondition(condition: unknown): Set<string> | undefined {
  if (!isOperatorObject(condition)) return keysOf([condition]);
  let keys: Set<string> | undefined;
  if ('$eq' in condition) keys = intersect(keys, keysOf([condition.$eq]));
  if (Array.isArray(condition.$in)) keys = intersect(keys, keysOf(condition.$in));
  return keys;
}

/** The keys of the only documents that can match `filter`, or undefined when it does not pin `_id`. */
export function candidateKeys(filter: Document): Set<string> | undefined {
  let keys = Object.hasOwn(filter, '_id') ? keysOfCondition(filter._id) : undefined;
  if (Array.isArray(filter.$and)) {
    for (const clause of filter.$and)
      if (isPlainObject(clause)) keys = intersect(keys, candidateKeys(clause));
  }
  return keys;
}
