import { combineClauses } from './combine';
import { cursorFilter } from './cursor';
import { dict } from './dict';
import { compileFieldFilter } from './field-filter';
import { LIMITS } from './limits';
import { checkNear } from './near-rules';
import { type ResolvedQueryOptions, resolveQueryOptions } from './options';
import { compileOrGroups } from './or-groups';
import { type Param, parseParams } from './parse';
import { fail } from './query-error';
import { isReservedName, type QueryState, RESERVED } from './reserved';
import type { CompiledQuery, Projection, QueryOptions, SortSpec } from './types';
import { withStoreId } from './wire-id';

function addFlag(flags: Record<string, string | string[]>, { key, values }: Param): void {
  const name = key.slice(2);
  if (name.length === 0 || name.length > LIMITS.textLength || name.includes('\0')) {
    fail('invalid_query', key, `${key}: a flag needs a name (1 to ${LIMITS.textLength} characters)`);
  }
  const previous = flags[name];
  const all =
    previous === undefined ? values : [...(Array.isArray(previous) ? previous : [previous]), ...values];
  flags[name] = all.length === 1 ? (all[0] as string) : all;
}

/** `$sort` keys with `$order` applied position by position, then `_id` as tie-breaker. */
function sortSpec(state: QueryState): SortSpec | undefined {
  const { sort, order } = state;
  if (order.length > sort.length) {
    fail('invalid_query', '$order', `$order: ${order.length} directions for ${sort.length} $sort keys`);
  }
  if (sort.length === 0) return state.nearBy.length > 0 ? undefined : { _id: 1 };
  const spec = dict<1 | -1>();
  sort.forEach(({ field, descending }, i) => {
    const direction = order[i];
    if (descending && direction !== undefined) {
      fail('invalid_query', '$order', `$order: "-${field}" already gives a direction`);
    }
    spec[field] = descending || direction === 'desc' ? -1 : 1;
  });
  if (spec._id === undefined) spec._id = 1;
  if (Object.keys(spec).length > LIMITS.sortKeys) {
    fail(
      'invalid_query',
      '$sort',
      `$sort: at most ${LIMITS.sortKeys - 1} keys besides _id (MongoDB sorts on at most ${LIMITS.sortKeys}, and _id is added to break ties)`,
    );
  }
  return spec;
}

/** Listed fields only; `_id` only when listed; a field inside a listed field is dropped. */
function projection(select: string[]): Projection | undefined {
  if (select.length === 0) return undefined;
  const out = dict<0 | 1>();
  for (const field of select) {
    const covered = select.some((other) => field.startsWith(`${other}.`));
    if (!covered) out[field] = 1;
  }
  if (out._id === undefined) out._id = 0;
  return out;
}

function newState(): QueryState {
  return {
    clauses: [],
    nearBy: [],
    select: [],
    sort: [],
    order: [],
    page: undefined,
    limit: undefined,
    count: false,
    total: false,
    after: undefined,
    populate: [],
    fill: [],
    search: undefined,
  };
}

/**
 * Compiles a GET query string (or an already-parsed query object, treated as untrusted)
 * into a MongoDB filter (OR groups `$or[<n>][<field>]` included), projection, sort, skip and
 * limit, plus `$count`, `$total`, the `$after` keyset filter, `$populate`, `$fill`, `$search`
 * and `$$flags`. Pure: no I/O, never mutates `input`.
 *
 * @throws {QueryError} status 400 with `code` `invalid_query`, `unknown_parameter`,
 *   `unsafe_regex`, `forbidden_operator` or `invalid_cursor`.
 * @throws {OptionError} (`@store/common`, code `invalid_config`) on invalid `options` (a programming error, not a user one).
 */
export function compileQuery(input: string | Record<string, unknown>, options?: QueryOptions): CompiledQuery {
  const resolved: ResolvedQueryOptions = resolveQueryOptions(options);
  const state = newState();
  const flags = dict<string | string[]>();
  const { params, orGroups } = parseParams(input);
  for (const param of params) {
    const { key, values } = param;
    if (key.startsWith('$$')) {
      addFlag(flags, param);
    } else if (key.startsWith('$')) {
      if (!isReservedName(key)) fail('unknown_parameter', key, `${key}: unknown parameter`);
      RESERVED[key](values, state, key);
    } else {
      const { clauses, near } = compileFieldFilter(param);
      for (const filter of clauses) state.clauses.push({ parameter: key, filter });
      if (near) state.nearBy.push(key);
    }
  }
  const groups = compileOrGroups(orGroups);
  if (groups) state.clauses.push({ parameter: '$or', filter: groups });
  if (resolved.wireId === 'id') withStoreId(state);
  checkNear(state);
  if (state.after !== undefined && state.page !== undefined) {
    fail(
      'invalid_query',
      '$after',
      '$after: cannot be combined with $page (a cursor says where the page starts)',
    );
  }
  const sort = sortSpec(state);
  const limit = Math.min(state.limit ?? resolved.defaultLimit, resolved.maxLimit);
  const skip = (state.page ?? 0) * limit;
  if (!Number.isSafeInteger(skip)) fail('invalid_query', '$page', '$page: too large');
  return {
    filter: combineClauses(state.clauses.map((clause) => clause.filter)),
    projection: projection(state.select),
    sort,
    skip,
    limit,
    count: state.count,
    total: state.total,
    after: state.after === undefined ? undefined : cursorFilter(state.after, sort),
    populate: state.populate,
    fill: state.fill,
    search: state.search,
    flags,
  };
}
