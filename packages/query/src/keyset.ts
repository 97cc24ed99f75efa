import type { Filter, SortSpec } from './types';

/**
 * The kinds of values a sort key can hold, in MongoDB's sort order (null and missing sort
 * together, first), each with the `$type` aliases that select it. `$gt` / `$lt` compare only
 * within one kind (MongoDB's type brackets, which the embedded engine keeps), so a keyset
 * reaches the other kinds with `$type`. Arrays are left out: a sort on an array field orders
 * by one of its elements, which no keyset filter can follow.
 */
const VALUE_KINDS = [
  'null',
  'number',
  'string',
  'object',
  'binData',
  'objectId',
  'bool',
  'date',
  'timestamp',
  'regex',
] as const;

type ValueKind = (typeof VALUE_KINDS)[number];

const TYPE_ALIASES: Record<Exclude<ValueKind, 'null'>, string[]> = {
  number: ['number'],
  string: ['string', 'symbol'],
  object: ['object'],
  binData: ['binData'],
  objectId: ['objectId'],
  bool: ['bool'],
  date: ['date'],
  timestamp: ['timestamp'],
  regex: ['regex'],
};

const BSON_KINDS: Readonly<Record<string, ValueKind>> = {
  Long: 'number',
  Int32: 'number',
  Double: 'number',
  Decimal128: 'number',
  Binary: 'binData',
  ObjectId: 'objectId',
  Timestamp: 'timestamp',
  BSONRegExp: 'regex',
  BSONSymbol: 'string',
};

/** The kind of a value as a sort sees it, or `undefined` for one a keyset cannot follow (an array, a MinKey). */
export function valueKind(value: unknown): ValueKind | undefined {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (Array.isArray(value)) return undefined;
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  if (value instanceof Uint8Array) return 'binData';
  const bsonType = (value as { _bsontype?: unknown })._bsontype;
  if (typeof bsonType === 'string')
    return Object.hasOwn(BSON_KINDS, bsonType) ? BSON_KINDS[bsonType] : undefined;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? 'object' : undefined;
}

function field(name: string, condition: unknown): Filter {
  const out: Filter = Object.create(null);
  out[name] = condition;
  return out;
}

function anyOf(filters: Filter[]): Filter | undefined {
  if (filters.length === 0) return undefined;
  return filters.length === 1 ? (filters[0] as Filter) : { $or: filters };
}

/** Documents whose `name` sorts equal to `value` (null matches null and missing, as the sort has it). */
function equalTo(name: string, value: unknown, kind: ValueKind): Filter {
  return field(name, kind === 'null' ? null : { $eq: value });
}

/** Documents whose `name` sorts strictly after `value` in `direction`; `undefined` when none can. */
function after(name: string, value: unknown, kind: ValueKind, direction: 1 | -1): Filter | undefined {
  const rank = VALUE_KINDS.indexOf(kind);
  const others = direction === 1 ? VALUE_KINDS.slice(rank + 1) : VALUE_KINDS.slice(1, rank);
  const aliases = others.flatMap((other) => TYPE_ALIASES[other as Exclude<ValueKind, 'null'>]);
  const branches: Filter[] = [];
  if (kind === 'null') return direction === 1 ? field(name, { $ne: null }) : undefined;
  branches.push(field(name, direction === 1 ? { $gt: value } : { $lt: value }));
  if (direction === -1) branches.push(field(name, null));
  if (aliases.length > 0) branches.push(field(name, { $type: aliases }));
  return anyOf(branches);
}

/**
 * The documents that come after the one whose sort-key values are `values` (in the order of
 * `sort`, which ends with `_id`): the `$or`, key by key, of "every earlier key equal and this
 * one after", in the BSON order of MongoDB and the embedded engine, descending keys and
 * null/missing values included. Matches nothing when nothing can come after.
 */
export function keysetFilter(sort: SortSpec, values: readonly unknown[]): Filter {
  const keys = Object.entries(sort);
  const branches: Filter[] = [];
  const equal: Filter[] = [];
  keys.forEach(([name, direction], i) => {
    const value = values[i];
    const kind = valueKind(value) as ValueKind;
    const next = after(name, value, kind, direction);
    if (next !== undefined) branches.push(equal.length === 0 ? next : { $and: [...equal, next] });
    equal.push(equalTo(name, value, kind));
  });
  return anyOf(branches) ?? { _id: { $in: [] } };
}
