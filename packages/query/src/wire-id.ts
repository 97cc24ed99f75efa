/**
 * `wireId: 'id'`: clients name the primary key `id`, the database `_id`. Before a query's sort,
 * projection and cursor are made, every place a field is named at the top of a filter (field
 * parameters, `$or` groups, `$query`, `$regex`), in `$sort` and in `$select`, `id` is read as
 * `_id`; a field inside a document (`author.id`) keeps its name.
 */
import { isPlainObject } from '@store/common';
import { dict } from './dict';
import { fail } from './query-error';
import type { QueryState } from './reserved';
import type { Filter } from './types';

/** The name the primary key has on the wire when it is not `_id`. */
const WIRE_ID = 'id';

/** Operators whose value is a list of filters at the same level as the top of a filter. */
const LOGICAL = new Set(['$and', '$or', '$nor']);

/** `filter` with its top-level `id` (and those of its `$and`/`$or`/`$nor` filters) read as `_id`. */
function filterWithStoreId(filter: Filter): Filter {
  let renamed = false;
  for (const key of Object.keys(filter)) {
    if (key === WIRE_ID || LOGICAL.has(key)) {
      renamed = true;
      break;
    }
  }
  if (!renamed) return filter;
  const out = dict();
  let wireCondition: { value: unknown } | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === WIRE_ID) wireCondition = { value };
    else if (LOGICAL.has(key) && Array.isArray(value))
      out[key] = value.map((inner) => (isPlainObject(inner) ? filterWithStoreId(inner) : inner));
    else out[key] = value;
  }
  if (wireCondition === undefined) return out;
  if (!Object.hasOwn(out, '_id')) {
    out._id = wireCondition.value;
    return out;
  }
  // `{ "id": 1, "_id": 2 }`: both name the primary key, and both must hold.
  const and = Array.isArray(out.$and) ? (out.$and as unknown[]) : [];
  out.$and = [...and, { _id: wireCondition.value }];
  return out;
}

/** Applies {@link filterWithStoreId} to every clause, and reads `id` as `_id` in `$sort` and `$select`. */
export function withStoreId(state: QueryState): void {
  state.clauses = state.clauses.map(({ parameter, filter }) => ({
    parameter,
    filter: filterWithStoreId(filter),
  }));
  state.sort = state.sort.map((key) => (key.field === WIRE_ID ? { ...key, field: '_id' } : key));
  if (state.sort.filter((key) => key.field === '_id').length > 1) {
    fail('invalid_query', '$sort', '$sort: "id" and "_id" name the same field; give it once');
  }
  state.select = state.select.map((field) => (field === WIRE_ID ? '_id' : field));
}
