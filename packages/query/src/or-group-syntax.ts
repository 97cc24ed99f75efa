import { isPlainObject } from '@store/common';
import { LIMITS } from './limits';
import { fail } from './query-error';

/**
 * The field filters of the `$or[<n>][<field>[:<modifiers>]]=<v>` parameters, by group index
 * (as sent, in the order groups first appear), each field key with all its values.
 */
export type OrGroups = Map<string, Map<string, string[]>>;

const PARAMETER = '$or';
const SYNTAX = '$or[<n>][<field>[:<op>]]=<value>';
/** `$or[<index>][<key>]`, the key possibly ending in `[]` (`$or[0][tags:in][]` or `$or[0][tags:in[]]`). */
const GROUP_KEY = /^\$or\[([^[\]]*)\]\[([^[\]]*)(?:\[\])?\](?:\[\])?$/;
const INDEX = /^(?:0|[1-9]\d{0,5})$/;

/** True for a raw (decoded) key that belongs to an OR group: `$or` or `$or[...`. */
export function isOrKey(key: string): boolean {
  return key === PARAMETER || key.startsWith(`${PARAMETER}[`);
}

function addValue(groups: OrGroups, index: string, key: string, values: readonly string[]): void {
  if (!INDEX.test(index)) {
    fail('invalid_query', PARAMETER, `$or[${index}]: the group index must be an integer >= 0 (${SYNTAX})`);
  }
  if (key.length === 0) fail('invalid_query', PARAMETER, `$or[${index}]: a group needs a field (${SYNTAX})`);
  if (key.startsWith('$')) {
    fail(
      'invalid_query',
      PARAMETER,
      `$or[${index}][${key}]: an OR group holds field filters only; groups do not nest (use $query for more)`,
    );
  }
  let group = groups.get(index);
  if (group === undefined) {
    if (groups.size === LIMITS.orGroups) {
      fail('invalid_query', PARAMETER, `$or: at most ${LIMITS.orGroups} groups (use $query for more)`);
    }
    group = new Map();
    groups.set(index, group);
  }
  const previous = group.get(key);
  const all = previous === undefined ? [...values] : [...previous, ...values];
  if (all.length > LIMITS.arrayValues) {
    fail('invalid_query', PARAMETER, `$or[${index}][${key}]: more than ${LIMITS.arrayValues} values`);
  }
  group.set(key, all);
}

/** Adds one raw (decoded) `$or...` key of a query string and its value to `groups`. */
export function addOrParameter(groups: OrGroups, rawKey: string, value: string): void {
  const match = GROUP_KEY.exec(rawKey);
  if (match === null) {
    fail('invalid_query', PARAMETER, `${rawKey}: OR groups are written ${SYNTAX} (use $query for more)`);
  }
  addValue(groups, match[1] as string, match[2] as string, [value]);
}

function stringValues(key: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return fail('invalid_query', PARAMETER, `${key}: a group's values must be strings (groups do not nest)`);
}

/** Reads `$or` from an already-parsed query object (`{ $or: [{ name: 'a' }, { 'age:gt': '3' }] }`). */
export function orGroupsFromValue(value: unknown): OrGroups {
  const groups: OrGroups = new Map();
  if (!Array.isArray(value) && !isPlainObject(value)) {
    fail('invalid_query', PARAMETER, `$or: OR groups are written ${SYNTAX} (use $query for more)`);
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [index, group] of entries) {
    if (!isPlainObject(group))
      fail('invalid_query', PARAMETER, `$or[${index}]: a group needs a field (${SYNTAX})`);
    const keys = Object.keys(group);
    if (keys.length === 0)
      fail('invalid_query', PARAMETER, `$or[${index}]: a group needs a field (${SYNTAX})`);
    for (const raw of keys) {
      const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
      addValue(groups, index, key, stringValues(`$or[${index}][${key}]`, group[raw]));
    }
  }
  return groups;
}
