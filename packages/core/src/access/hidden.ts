import type { Document } from '@store/common';
import { storeError } from '../http/error-codes';
import { reachedField } from './field-paths';

/** Operators whose operand is a list of whole filters. */
const LOGICAL = new Set(['$and', '$or', '$nor']);

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
 * Refuses a query that filters or sorts on a hidden field (`resources.<name>.hidden`): matching on a
 * field one cannot read would reveal it one guess at a time. 400 `invalid_query` naming the field.
 * (`$select` of a hidden field is harmless: the field is removed from every answer.)
 */
export function checkHiddenQuery(
  resource: string,
  hidden: readonly string[],
  filter: Document,
  sort: Document | undefined,
): void {
  if (hidden.length === 0) return;
  for (const path of [...filterPaths(filter), ...Object.keys(sort ?? {})]) {
    const field = reachedField(path, hidden);
    if (field !== undefined) {
      throw storeError(
        'invalid_query',
        `"${path}": the field "${field}" of "${resource}" is hidden and cannot be queried.`,
      );
    }
  }
}
