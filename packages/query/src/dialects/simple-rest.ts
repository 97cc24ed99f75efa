/**
 * simple-rest's query parameters (react-admin's `ra-data-simple-rest`): `filter` (a JSON object:
 * equality, an array for any of its values, `q`, nested objects as dotted paths, the field
 * suffixes `_gte`/`_lte`/`_gt`/`_lt`/`_ne`/`_like`), `range=[first,last]` (inclusive, as the
 * `Range: <res>=<first>-<last>` header), `sort=["field","ASC"|"DESC"]` and `embed`. Refine's
 * `@refinedev/simple-rest` sends json-server's `_start`/`_end`/`_sort`/`_order` and suffixes
 * instead; those are read as well ({@link REFINE_PARAMETERS}).
 */
import { isPlainObject } from '@store/common';
import { LIMITS } from '../limits';
import { fail } from '../query-error';
import { type DialectState, ownPart } from './dialect-query';
import {
  type DialectHandler,
  direction,
  fieldCondition,
  jsonValue,
  relationNames,
  searchText,
  setSort,
  single,
  sortKey,
  splitSuffix,
} from './dialect-values';

/** A scalar of a `filter` as the value of a field parameter. */
function scalarText(value: unknown, parameter: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail('invalid_query', parameter, `${parameter}: expected strings, numbers or booleans in a list`);
}

function filterField(state: DialectState, path: string, value: unknown, parameter: string): void {
  const suffix = splitSuffix(path);
  const field = suffix?.field ?? path;
  const operator = suffix?.operator ?? 'eq';
  if (value === null || (Array.isArray(value) && value.length === 0)) {
    if (operator !== 'eq') fail('invalid_query', parameter, `${parameter}: "${path}" needs a value`);
    // No value to compare with: null matches null or a missing field; [] matches nothing.
    const condition = value === null ? null : { $in: [] };
    state.own.push(ownPart('$query', JSON.stringify({ [field]: condition })));
    return;
  }
  const values = Array.isArray(value)
    ? value.map((item) => scalarText(item, parameter))
    : [scalarText(value, parameter)];
  fieldCondition(state, field, operator, values, parameter);
}

function addFilter(
  state: DialectState,
  object: Record<string, unknown>,
  prefix: string,
  depth: number,
): void {
  if (depth > LIMITS.rawQueryDepth) fail('invalid_query', 'filter', 'filter: nested too deeply');
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (prefix === '' && key === 'q') {
      searchText([scalarText(value, 'filter')], state, 'filter');
    } else if (isPlainObject(value)) {
      addFilter(state, value, `${prefix}${key}.`, depth + 1);
    } else {
      filterField(state, `${prefix}${key}`, value, 'filter');
    }
  }
}

const DIRECTION_HINT = 'expected ["field", "ASC" or "DESC"]';

export const SIMPLE_REST_PARAMETERS = {
  filter: (values, state, key) => {
    const value = jsonValue(values, key);
    if (!isPlainObject(value)) fail('invalid_query', key, `${key}: expected a JSON object`);
    addFilter(state, value, '', 1);
  },
  range: (values, state, key) => {
    const value = jsonValue(values, key);
    const valid =
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) &&
      (value[1] as number) >= (value[0] as number);
    if (!valid)
      fail('invalid_query', key, `${key}: expected [first, last], whole numbers with first <= last`);
    state.range = { parameter: key, first: value[0] as number, last: value[1] as number };
  },
  sort: (values, state, key) => {
    const value = jsonValue(values, key);
    if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'string')) {
      fail('invalid_query', key, `${key}: ${DIRECTION_HINT}`);
    }
    const [field, order] = value as [string, string];
    setSort(state, key, [{ field: sortKey(field, key).field, descending: direction(order, key) === 'desc' }]);
  },
  embed: (values, state, key) => {
    const text = single(values, key);
    const value = text.startsWith('[') || text.startsWith('"') ? jsonValue(values, key) : text.split(',');
    const names = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      fail('invalid_query', key, `${key}: expected a resource name or a JSON array of them`);
    }
    relationNames(names, key, state.embed);
  },
} as const satisfies Record<string, DialectHandler>;

const RANGE_HEADER = /^\s*([A-Za-z0-9_-]+)\s*=\s*(\d+)\s*-\s*(\d+)\s*$/;

/**
 * The `Range: <res>=<first>-<last>` header react-admin sends with `range`: the same range
 * (`undefined` for a byte range, which is not the store's to answer). A malformed one is a 400.
 */
export function rangeHeader(value: string): { first: number; last: number } | undefined {
  if (/^\s*bytes\s*=/i.test(value)) return undefined;
  const match = RANGE_HEADER.exec(value);
  const first = Number(match?.[2]);
  const last = Number(match?.[3]);
  if (!match || !Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) {
    fail(
      'invalid_query',
      'Range',
      'Range: expected <resource>=<first>-<last>, whole numbers with first <= last',
    );
  }
  return { first, last };
}
