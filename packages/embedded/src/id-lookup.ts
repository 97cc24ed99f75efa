/**
 * Lookups by key instead of a scan. When a filter pins `_id` (`{_id: x}`, `{_id: {$eq: x}}`,
 * `{_id: {$in: [...]}}`) or, through a `FieldLookup` (the collection's single-field indexes),
 * another field, only the documents with those keys can match. Pinned conditions ANDed
 * together (side by side or in `$and`) intersect; an `$or` whose every clause is pinned is the
 * union of its clauses. The full filter is still applied to the candidates, so this only ever
 * narrows the search.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { idKey, isObjectId } from './values';

/** Keys of the documents whose `field` can equal one of `values`, or undefined without an index. */
export type FieldLookup = (field: string, values: readonly unknown[]) => Set<string> | undefined;

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
function idKeysOf(values: readonly unknown[]): Set<string> | undefined {
  return values.every(hasExactKey) ? new Set(values.map(idKey)) : undefined;
}

function intersect(a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  return new Set([...a].filter((key) => b.has(key)));
}

/** Each value list a condition requires the field to equal one of (`x`, `$eq`, `$in`). */
function pinnedValues(condition: unknown): unknown[][] {
  if (!isOperatorObject(condition)) return [[condition]];
  const lists: unknown[][] = [];
  if (Object.hasOwn(condition, '$eq')) lists.push([condition.$eq]);
  if (Array.isArray(condition.$in)) lists.push(condition.$in);
  return lists;
}

function keysOfField(field: string, condition: unknown, lookup: FieldLookup | undefined) {
  const byKey = field === '_id' ? idKeysOf : lookup && ((values: unknown[]) => lookup(field, values));
  if (!byKey) return undefined;
  let keys: Set<string> | undefined;
  for (const values of pinnedValues(condition)) keys = intersect(keys, byKey(values));
  return keys;
}

function keysOfOr(clauses: unknown[], lookup: FieldLookup | undefined): Set<string> | undefined {
  const union = new Set<string>();
  for (const clause of clauses) {
    const keys = isPlainObject(clause) ? candidateKeys(clause, lookup) : undefined;
    if (!keys) return undefined;
    for (const key of keys) union.add(key);
  }
  return clauses.length > 0 ? union : undefined;
}

/** The keys of the only documents that can match `filter`, or undefined when nothing pins it. */
export function candidateKeys(filter: Document, lookup?: FieldLookup): Set<string> | undefined {
  let keys: Set<string> | undefined;
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const clause of condition)
        if (isPlainObject(clause)) keys = intersect(keys, candidateKeys(clause, lookup));
    } else if (field === '$or' && Array.isArray(condition)) {
      keys = intersect(keys, keysOfOr(condition, lookup));
    } else if (!field.startsWith('$')) {
      keys = intersect(keys, keysOfField(field, condition, lookup));
    }
  }
  return keys;
}

/** `_id` values whose key equality is exactly the filter's equality: strings and ObjectIds. */
const isKeyExactId = (value: unknown): boolean => typeof value === 'string' || isObjectId(value);

/**
 * The keys of the documents a filter on `_id` alone selects (`{_id: x}`, `{_id: {$eq: x}}`,
 * `{_id: {$in: [...]}}` of strings and ObjectIds): every document found under such a key
 * matches, so the filter needs neither compiling nor testing. Undefined for any other filter.
 */
export function exactIdKeys(filter: Document): Set<string> | undefined {
  const fields = Object.keys(filter);
  if (fields.length !== 1 || fields[0] !== '_id') return undefined;
  const condition = filter._id;
  const pinsOnly =
    !isOperatorObject(condition) || Object.keys(condition).every((op) => op === '$eq' || op === '$in');
  if (!pinsOnly || !pinnedValues(condition).every((values) => values.every(isKeyExactId))) return undefined;
  return keysOfField('_id', condition, undefined);
}
