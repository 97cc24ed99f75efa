/**
 * json-server's query parameters (0.17 and v1), each read into the store's own language:
 * `_sort` (`a,b`, v1's `-a`) with `_order`, `_start`/`_end`/`_limit`, `_page` with `_limit` or
 * v1's `_per_page`, `_embed`/`_expand`, `q`. Field comparisons (`views_gte`, `title_like`) are
 * read by {@link splitSuffix}; v1's `views:gte` is the store's own syntax already.
 */
import { fail } from '../query-error';
import {
  commaItems,
  type DialectHandler,
  direction,
  relationNames,
  searchText,
  setSort,
  single,
  sortKey,
  wholeNumber,
} from './dialect-values';

/** A paging parameter: a whole number >= `min`, kept under `field` of the state. */
const paging =
  (field: 'start' | 'end' | 'limit' | 'page' | 'perPage', min: number): DialectHandler =>
  (values, state, key) => {
    state[field] = wholeNumber(single(values, key), key, min);
  };

export const JSON_SERVER_PARAMETERS = {
  _sort: (values, state, key) =>
    setSort(
      state,
      key,
      commaItems(values).map((item) => sortKey(item, key)),
    ),
  _order: (values, state, key) => {
    state.order = commaItems(values).map((value) => direction(value, key));
  },
  _start: paging('start', 0),
  _end: paging('end', 0),
  _limit: paging('limit', 1),
  _page: paging('page', 1),
  _per_page: paging('perPage', 1),
  _embed: (values, state, key) => relationNames(commaItems(values), key, state.embed),
  _expand: (values, state, key) => relationNames(commaItems(values), key, state.expand),
  q: searchText,
} as const satisfies Record<string, DialectHandler>;

/** The parameters Refine's `@refinedev/simple-rest` sends, in json-server's form. */
export const REFINE_PARAMETERS = {
  _sort: JSON_SERVER_PARAMETERS._sort,
  _order: JSON_SERVER_PARAMETERS._order,
  _start: JSON_SERVER_PARAMETERS._start,
  _end: JSON_SERVER_PARAMETERS._end,
  q: JSON_SERVER_PARAMETERS.q,
} as const satisfies Record<string, DialectHandler>;

/** Refuses a paging parameter whose companion contradicts it. */
export function conflict(parameter: string, other: string): never {
  return fail('invalid_query', parameter, `${parameter}: cannot be combined with ${other}`);
}
