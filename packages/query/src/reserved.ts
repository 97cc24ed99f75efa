import { assertFieldName } from './field-name';
import { parseJsonValue } from './json-value';
import { LIMITS } from './limits';
import { fail } from './query-error';
import { compileRawQuery } from './raw-query';
import { checkRegex, regexCondition } from './regex';
import { isValidResourceName } from './resource-name';
import type { Filter } from './types';

/** What the parameters of one query string add up to, before defaults are applied. */
export interface QueryState {
  /** Every filter clause, with the parameter it came from, ANDed in the end. */
  clauses: { parameter: string; filter: Filter }[];
  /** Parameters that produced a `$near`/`$nearSphere` (MongoDB allows one per query). */
  nearBy: string[];
  select: string[];
  sort: { field: string; descending: boolean }[];
  order: string[];
  page: number | undefined;
  limit: number | undefined;
  count: boolean;
  /** `$total=1`: the answer carries `X-Total-Count` and a `Link` header. */
  total: boolean;
  /** `$after`: the cursor as sent, read once the sort is known. */
  after: string | undefined;
  populate: string[];
  fill: string[];
  search: string | undefined;
}

type Handler = (values: string[], state: QueryState, key: string) => void;

function single(values: string[], key: string): string {
  if (values.length !== 1) fail('invalid_query', key, `${key}: given more than once`);
  return values[0] as string;
}

/** Every item of a repeatable parameter, commas also separating items (`$select=a,b`). */
const items = (values: string[]) =>
  values.some((v) => v.includes(',')) ? values.flatMap((v) => v.split(',')) : values;

const integer = (min: number) => (values: string[], key: string) => {
  const v = single(values, key);
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min) {
    fail('invalid_query', key, `${key}: "${v}" is not an integer >= ${min}`);
  }
  return n;
};

/** Resource names, or dotted paths of them (`employees.tasks`: one level further). */
function resourceNames(values: string[], key: string, into: string[]): void {
  for (const name of items(values)) {
    if (!name.split('.').every(isValidResourceName))
      fail('invalid_query', key, `${key}: "${name}" is not a valid resource name or path (a.b)`);
    if (!into.includes(name)) into.push(name);
  }
}

const BOOLEAN: Record<string, boolean> = { 1: true, true: true, 0: false, false: false };
function boolean(values: string[], key: string): boolean {
  const v = single(values, key);
  const value = Object.hasOwn(BOOLEAN, v) ? BOOLEAN[v] : undefined;
  if (value === undefined) fail('invalid_query', key, `${key}: "${v}" is not 1, 0, true or false`);
  return value;
}

const ORDERS = new Set(['asc', 'desc']);

/** The reserved parameters; any other `$name` (but `$$flags`) is `unknown_parameter`. */
export const RESERVED = {
  $select: (values, state, key) => {
    for (const field of items(values)) {
      if (field.startsWith('-'))
        fail('invalid_query', key, `${key}: excluding fields ("${field}") is not supported`);
      state.select.push(assertFieldName(field, key));
    }
  },
  $page: (values, state, key) => {
    state.page = integer(0)(values, key);
  },
  $limit: (values, state, key) => {
    state.limit = integer(1)(values, key);
  },
  $sort: (values, state, key) => {
    for (const item of items(values)) {
      const descending = item.startsWith('-');
      const field = assertFieldName(descending ? item.slice(1) : item, key);
      if (/^\d+$/.test(field))
        fail('invalid_query', key, `${key}: cannot sort on the integer-named field "${field}"`);
      if (state.sort.some((s) => s.field === field))
        fail('invalid_query', key, `${key}: "${field}" is given twice`);
      state.sort.push({ field, descending });
    }
  },
  $order: (values, state, key) => {
    for (const order of items(values)) {
      if (!ORDERS.has(order)) fail('invalid_query', key, `${key}: "${order}" is not asc or desc`);
      state.order.push(order);
    }
  },
  $count: (values, state, key) => {
    state.count = boolean(values, key);
  },
  $total: (values, state, key) => {
    state.total = boolean(values, key);
  },
  $after: (values, state, key) => {
    state.after = single(values, key);
  },
  $query: (values, state, key) => {
    for (const value of values) {
      const { filter, near } = compileRawQuery(value, key);
      state.clauses.push({ parameter: key, filter });
      for (let i = 0; i < near; i++) state.nearBy.push(key);
    }
  },
  $regex: (values, state, key) => {
    for (const value of values) {
      const v = parseJsonValue(value, key);
      if (!Array.isArray(v) || v.length < 2 || v.length > 3 || !v.every((x) => typeof x === 'string')) {
        fail('invalid_query', key, `${key}: expected ["field", "pattern", "flags"]`);
      }
      // No flags means case-insensitive (`i`); `""` as flags is case-sensitive.
      const [field, pattern, flags = 'i'] = v as string[];
      const condition = regexCondition(checkRegex(pattern as string, flags, key));
      state.clauses.push({ parameter: key, filter: { [assertFieldName(field as string, key)]: condition } });
    }
  },
  $populate: (values, state, key) => resourceNames(values, key, state.populate),
  $fill: (values, state, key) => resourceNames(values, key, state.fill),
  $search: (values, state, key) => {
    const v = single(values, key).trim();
    if (v.length === 0 || v.length > LIMITS.textLength) {
      fail('invalid_query', key, `${key}: must hold 1 to ${LIMITS.textLength} characters`);
    }
    state.search = v;
  },
} as const satisfies Record<string, Handler>;

export function isReservedName(key: string): key is keyof typeof RESERVED {
  return Object.hasOwn(RESERVED, key);
}
