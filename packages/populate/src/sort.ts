import { OptionError } from '@store/common';

/** Direction word accepted by `order` (like `$order`). */
export type SortOrder = 'asc' | 'desc';

const DIRECTION = { asc: 1, desc: -1 } as const satisfies Record<SortOrder, 1 | -1>;
const FIELD_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

function invalid(path: string, what: string): OptionError {
  return new OptionError(path, what);
}

function toList<T>(value: T | readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

function sortKey(path: string, raw: unknown, word: unknown): [string, 1 | -1] {
  if (typeof raw !== 'string') throw invalid(path, 'sort must be field names');
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  if (!FIELD_PATH.test(field)) throw invalid(path, 'sort has an invalid field');
  const order = word ?? 'asc';
  if (typeof order !== 'string' || !Object.hasOwn(DIRECTION, order)) {
    throw invalid(path, 'order must be asc or desc');
  }
  return [field, descending ? -1 : DIRECTION[order as SortOrder]];
}

/**
 * Compiles a constraint's `sort` / `order` into a MongoDB sort that always ends with `_id`,
 * so truncating at a limit is deterministic. `-field` is descending; `order` is one
 * direction for all keys or one per key and applies to keys without a `-`.
 */
export function compileSort(
  path: string,
  sort: string | readonly string[] | undefined,
  order: SortOrder | readonly SortOrder[] | undefined,
): Readonly<Record<string, 1 | -1>> {
  const keys = toList(sort);
  const orders = toList(order);
  if (orders.length > 1 && orders.length !== keys.length) throw invalid(path, 'order must match sort');
  const entries = keys.map((raw, i) => sortKey(path, raw, orders.length > 1 ? orders[i] : orders[0]));
  if (!entries.some(([field]) => field === '_id')) entries.push(['_id', 1]);
  return Object.freeze(Object.fromEntries(entries));
}
