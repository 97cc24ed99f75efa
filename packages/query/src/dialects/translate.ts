/**
 * Reads a query string through the foreign dialects a store has on: their parameters become
 * the store's own (`_sort=-views` -> `$sort=-views`), what the store's own language cannot say
 * is returned beside it (`q`, an offset, the answer's shape), and every other parameter passes
 * as sent, so the store's own dialect keeps working alongside. A malformed or contradictory
 * dialect parameter is a 400 `invalid_query` naming it, never an ignored one.
 */
import { LIMITS } from '../limits';
import { decode, queryParts } from '../parse';
import { fail } from '../query-error';
import {
  type DialectQuery,
  type DialectState,
  type DialectSwitches,
  type LinkStyle,
  newDialectState,
  ownPart,
} from './dialect-query';
import { type DialectHandler, fieldCondition, splitSuffix } from './dialect-values';
import { conflict, JSON_SERVER_PARAMETERS, REFINE_PARAMETERS } from './json-server';
import { rangeHeader, SIMPLE_REST_PARAMETERS } from './simple-rest';

/** What the request carries besides its query string that a dialect reads. */
export interface DialectRequest {
  /** The `Range` header (simple-rest: `<res>=<first>-<last>`). */
  readonly range?: string | undefined;
}

type Table = Readonly<Record<string, DialectHandler>>;

const TABLES: Readonly<Record<string, Table>> = {
  jsonServer: JSON_SERVER_PARAMETERS,
  simpleRest: { ...REFINE_PARAMETERS, ...SIMPLE_REST_PARAMETERS },
  both: { ...JSON_SERVER_PARAMETERS, ...SIMPLE_REST_PARAMETERS },
};

function tableOf(switches: DialectSwitches): Table {
  if (switches.jsonServer && switches.simpleRest) return TABLES.both as Table;
  if (switches.jsonServer) return TABLES.jsonServer as Table;
  if (switches.simpleRest) return TABLES.simpleRest as Table;
  return {};
}

/** The store's own paging parameters, which a dialect's paging cannot be combined with. */
const OWN_PAGING: ReadonlySet<string> = new Set(['$limit', '$page', '$after']);
/** The dialects' paging parameters, left out of `Link` URLs. */
const PAGING_KEYS = ['_start', '_end', '_limit', '_page', '_per_page', 'range'] as const;

/** `_start`/`_end`/`_limit`: a slice from `_start`, to `_end` (exclusive) or of `_limit` documents. */
function slicePaging(state: DialectState): { skip: number; limit: number | undefined } {
  const skip = state.start ?? 0;
  if (state.end === undefined) return { skip, limit: state.limit };
  if (state.limit !== undefined) conflict('_end', '_limit');
  if (state.end <= skip) fail('invalid_query', '_end', `_end: must be greater than _start (${skip})`);
  return { skip, limit: state.end - skip };
}

interface Paging {
  skip: number | undefined;
  limit: number | undefined;
  style: LinkStyle;
  envelope: boolean;
}

/** The page a request asks for in a dialect's terms; `undefined` when it names none. */
function dialectPaging(state: DialectState, header: string | undefined): Paging | undefined {
  const sliced = state.start !== undefined || state.end !== undefined;
  const paged = state.page !== undefined || state.perPage !== undefined;
  const range = state.range ?? (header === undefined ? undefined : rangeHeader(header));
  if (range !== undefined) {
    const other = PAGING_KEYS.find((key) => key !== 'range' && state.seen.has(key));
    if (other !== undefined) conflict(state.range?.parameter ?? 'Range', other);
    return { skip: range.first, limit: range.last - range.first + 1, style: 'store', envelope: false };
  }
  if (paged) {
    if (sliced) conflict('_page', state.start !== undefined ? '_start' : '_end');
    if (state.perPage !== undefined && state.limit !== undefined) conflict('_per_page', '_limit');
    const size = state.perPage ?? state.limit ?? 10;
    const envelope = state.perPage !== undefined;
    return {
      skip: ((state.page ?? 1) - 1) * size,
      limit: size,
      style: envelope ? '_per_page' : '_limit',
      envelope,
    };
  }
  if (sliced || state.limit !== undefined) return { ...slicePaging(state), style: '_limit', envelope: false };
  return undefined;
}

/** `_sort` (or `sort`) with `_order` as the store's `$sort` keys. */
function addSort(state: DialectState): void {
  const { sort, order } = state;
  if (sort === undefined) {
    if (order !== undefined) fail('invalid_query', '_order', '_order: needs _sort (the fields it orders)');
    return;
  }
  if (order !== undefined && order.length > sort.keys.length) {
    fail('invalid_query', '_order', `_order: ${order.length} directions for ${sort.keys.length} sort keys`);
  }
  sort.keys.forEach(({ field, descending }, i) => {
    const given = order?.[i];
    if (descending === true && given === 'asc') {
      fail('invalid_query', '_order', `_order: "-${field}" already sorts descending`);
    }
    state.own.push(ownPart('$sort', descending === true || given === 'desc' ? `-${field}` : field));
  });
}

/** Splits the query string: foreign parameters (grouped by name) to read, the rest kept as sent. */
function collect(
  rawQuery: string,
  table: Table,
  suffixes: boolean,
  state: DialectState,
): Map<string, string[]> {
  const parts = queryParts(rawQuery);
  const foreign = new Map<string, string[]>();
  for (const part of parts) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const raw = decode(eq === -1 ? part : part.slice(0, eq));
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    const ours =
      Object.hasOwn(table, key) ||
      (suffixes && !key.startsWith('$') && !key.includes(':') && splitSuffix(key) !== undefined);
    if (!ours) {
      if (OWN_PAGING.has(key) && !state.ownPaging.includes(key)) state.ownPaging.push(key);
      state.own.push(part);
      continue;
    }
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    const values = foreign.get(key);
    if (values === undefined) foreign.set(key, [value]);
    else if (values.length >= LIMITS.arrayValues)
      fail('invalid_query', key, `${key}: more than ${LIMITS.arrayValues} values`);
    else values.push(value);
  }
  return foreign;
}

/**
 * `rawQuery` (with or without `?`) read through the dialects `switches` turns on; with none on,
 * the query as it is. Pure: no I/O.
 *
 * @throws {QueryError} 400 `invalid_query` naming the dialect parameter that is malformed or
 *   contradicts another (`_page` with `_start`, `range` with `$limit`, ...).
 */
export function translateDialects(
  rawQuery: string,
  switches: DialectSwitches,
  request: DialectRequest = {},
): DialectQuery {
  const table = tableOf(switches);
  const state = newDialectState();
  for (const [key, values] of collect(rawQuery, table, switches.jsonServer || switches.simpleRest, state)) {
    state.seen.add(key);
    const handler = Object.hasOwn(table, key) ? table[key] : undefined;
    if (handler !== undefined) {
      handler(values, state, key);
    } else {
      const { field, operator } = splitSuffix(key) as NonNullable<ReturnType<typeof splitSuffix>>;
      fieldCondition(state, field, operator, values, key);
    }
  }
  addSort(state);
  const header = switches.simpleRest && state.range === undefined ? request.range : undefined;
  const paging = dialectPaging(state, header);
  const keys = PAGING_KEYS.filter((key) => state.seen.has(key));
  if (paging !== undefined && state.ownPaging.length > 0) {
    conflict(state.ownPaging[0] as string, keys[0] ?? 'Range');
  }
  if (paging?.limit !== undefined) state.own.push(ownPart('$limit', String(paging.limit)));
  return {
    query: state.own.join('&'),
    search: state.search,
    skip: paging?.skip,
    whole: paging?.limit === undefined && state.ownPaging.length === 0,
    envelope: paging?.envelope ?? false,
    paging: { keys, style: paging?.style ?? 'store' },
    embed: state.embed,
    expand: state.expand,
  };
}
