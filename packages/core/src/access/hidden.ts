import type { Document } from '@store/common';
import { invalidOption } from '@store/common';
import { storeError } from '../model/error-codes';
import { reachedField } from './field-paths';

/** Operators whose operand is a list of whole filters. */
const LOGICAL = new Set(['$and', '$or', '$nor']);

/**
 * `path` as a field path of the document, whatever array position it names: numeric segments
 * (`cards.0.cvv`) and positional ones (`cards.$.cvv`, `cards.$[].cvv`, `cards.$[x].cvv`) are
 * dropped, so `cards.0.cvv` reaches the hidden `cards.cvv`.
 */
function fieldPathOf(path: string): string {
  const first = path.charCodeAt(0);
  const plain = first !== 36 && !(first >= 48 && first <= 57); // neither `$` nor a digit first
  if (plain && !path.includes('.')) return path;
  return path
    .split('.')
    .filter((segment) => !/^\d+$/.test(segment) && !segment.startsWith('$'))
    .join('.');
}

/** Every field path a filter tests: top-level keys, keys under `$and`/`$or`/`$nor`, `$elemMatch` sub-fields. */
function filterPaths(filter: unknown, prefix = ''): string[] {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return [];
  const paths: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key) && Array.isArray(value)) {
      for (const part of value) paths.push(...filterPaths(part, prefix));
    } else if (!key.startsWith('$')) {
      const path = prefix + key;
      paths.push(path);
      const elemMatch = (value as { $elemMatch?: unknown } | null)?.$elemMatch;
      if (elemMatch !== undefined) paths.push(...filterPaths(elemMatch, `${path}.`));
    }
  }
  return paths;
}

/**
 * Refuses a query that filters or sorts on a hidden field (`resources.<name>.hidden`), on a path
 * inside it, on an object or array holding it, or on any of these through an array position
 * (`cards.0.cvv`, `cards.$.cvv`) or `$elemMatch`: matching on a field one cannot read would reveal
 * it one guess at a time. 400 `invalid_query` naming the field.
 * (`$select` of a hidden field is harmless: the field is removed from every answer.)
 */
export function checkHiddenQuery(
  resource: string,
  hidden: readonly string[],
  filter: Document,
  sort: Document | undefined,
): void {
  if (hidden.length === 0) return;
  const check = (path: string) => {
    const field = reachedField(fieldPathOf(path), hidden);
    if (field !== undefined) {
      throw storeError(
        'invalid_query',
        `"${path}": the field "${field}" of "${resource}" is hidden and cannot be queried.`,
      );
    }
  };
  // Every request on a resource with hidden fields comes here, most with no filter and no sort.
  for (const path of filterPaths(filter)) check(path);
  if (sort !== undefined) for (const path of Object.keys(sort)) check(path);
}

/**
 * `search` fields, checked against `hidden`: `$search` over a hidden field would tell whether a
 * word is in it, so the two may not meet (`invalid_config` naming `<option>`).
 */
export function checkSearchNotHidden(search: string[], hidden: readonly string[], option: string): string[] {
  const meeting = search.find((field) => reachedField(field, hidden) !== undefined);
  if (meeting !== undefined) invalidOption(option, `"${meeting}" is hidden; $search over it would reveal it`);
  return search;
}

/**
 * `hidden`, checked: a path with an array position (`cards.0.cvv`) is an `invalid_config`, as it
 * would hide one element's field only; `cards.cvv` hides it in every element.
 */
export function checkHiddenPaths(hidden: string[], option: string): string[] {
  hidden.forEach((path, i) => {
    if (fieldPathOf(path) !== path) {
      invalidOption(`${option}[${i}]`, `name the field without array positions ("${fieldPathOf(path)}")`);
    }
  });
  return hidden;
}
