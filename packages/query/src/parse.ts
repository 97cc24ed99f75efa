import { isPlainObject } from '@store/common';
import qs from 'qs';
import { LIMITS } from './limits';
import { addOrParameter, isOrKey, type OrGroups, orGroupsFromValue } from './or-group-syntax';
import { fail } from './query-error';

/** One query parameter: its name (without a trailing `[]`) and every value, in order. */
export interface Param {
  key: string;
  values: string[];
}

const QS_OPTIONS: qs.IParseOptions = {
  ignoreQueryPrefix: true,
  depth: 1,
  arrayLimit: LIMITS.arrayValues,
  parameterLimit: LIMITS.parameters,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  plainObjects: true,
  allowDots: false,
  duplicates: 'combine',
};

function values(key: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    if (value.length > LIMITS.arrayValues) {
      fail('invalid_query', key, `${key}: more than ${LIMITS.arrayValues} values`);
    }
    const out: string[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string') fail('invalid_query', key, `${key}: nested parameters are not allowed`);
      out.push(item);
    }
    return out;
  }
  return fail('invalid_query', key, `${key}: nested parameters (such as ${key}[$ne]) are not allowed`);
}

/**
 * The `&`-separated parts of a query string (a leading `?` left out), at most
 * `LIMITS.parameters` of them: past that, 400 `invalid_query`.
 */
export function queryParts(input: string): string[] {
  const text = input.charCodeAt(0) === 63 /* ? */ ? input.slice(1) : input;
  const parts = text.length === 0 ? [] : text.split('&');
  if (parts.length > LIMITS.parameters) {
    fail('invalid_query', '', `the query has more than ${LIMITS.parameters} parameters`);
  }
  return parts;
}

/** The parameters of a query, and its OR groups (`$or[<n>][<field>]=<v>`). */
export interface ParsedParams {
  params: Param[];
  orGroups: OrGroups;
}

function fromRecord(record: Record<string, unknown>, orGroups: OrGroups = new Map()): ParsedParams {
  const keys = Object.keys(record);
  if (keys.length > LIMITS.parameters) {
    fail('invalid_query', '', `the query has more than ${LIMITS.parameters} parameters`);
  }
  const params: Param[] = [];
  for (const raw of keys) {
    // `tags:in[]` as a key: what Express 5's and Koa's simple parsers hand over.
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    if (key === '$or') {
      for (const [index, group] of orGroupsFromValue(record[raw])) orGroups.set(index, group);
    } else {
      params.push({ key, values: values(key, record[raw]) });
    }
  }
  return { params, orGroups };
}

/** A query-string component decoded as qs does (`+` is a space; a malformed escape stays as it is). */
export function decode(text: string): string {
  const plus = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus; // qs keeps malformed escapes as they are
  }
}

const ENCODED_BRACKET = /%5[bd]/i;

/**
 * Adds the values of one raw key (`a` or `a[]`) to `out` as qs merges them: the first raw key
 * of a name sets it; the other appends, except a single empty value, which qs's merge drops
 * (`a[]=&a=` is `[""]`, not two).
 */
function mergeGroup(out: Record<string, unknown>, raw: string, group: string[]): void {
  const array = raw.endsWith('[]');
  const key = array ? raw.slice(0, -2) : raw;
  if (key === '__proto__') return;
  const value = array || group.length > 1 ? group : (group[0] as string);
  const previous = out[key];
  if (previous === undefined) out[key] = value;
  else if (value !== '') out[key] = ([] as unknown[]).concat(previous, value);
}

/**
 * The same result as `qs.parse(input, QS_OPTIONS)` (checked against qs by a property test)
 * for a string whose only brackets are a trailing `[]` on keys, about three times faster;
 * `undefined` for anything else, which then goes to qs. Like qs, it first combines the values
 * of each raw key (`a` and `a[]` apart), in the order keys first appear, then merges the raw
 * keys of one name: `a[]=1&a=2&a[]=3` is `["1","3","2"]`.
 */
export function parseFlat(input: string): Record<string, unknown> | undefined {
  if (ENCODED_BRACKET.test(input)) return undefined; // qs turns every %5B/%5D into a bracket first
  const parts = queryParts(input);
  const groups = new Map<string, string[]>();
  for (const part of parts) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const bracketEq = part.indexOf(']=');
    if (bracketEq !== -1 && bracketEq + 1 !== eq) return undefined; // qs splits such a part at "]="
    const raw = decode(eq === -1 ? part : part.slice(0, eq));
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    if ((key !== raw && key.length === 0) || key.includes('[') || key.includes(']')) return undefined;
    if (key.length === 0) continue;
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    const group = groups.get(raw);
    if (group === undefined) groups.set(raw, [value]);
    else group.push(value);
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const [raw, group] of groups) mergeGroup(out, raw, group);
  return out;
}

const MAY_HOLD_OR = /\$or|%24or/i;

/**
 * Takes the `$or...` parameters out of a query string (they are read by `or-groups.ts`, not qs,
 * whose depth stays 1): the rest of the string, and the groups.
 */
function takeOrGroups(input: string): { rest: string; orGroups: OrGroups } {
  const orGroups: OrGroups = new Map();
  if (!MAY_HOLD_OR.test(input)) return { rest: input, orGroups };
  const parts = queryParts(input);
  const rest: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    if (isOrKey(key)) addOrParameter(orGroups, key, eq === -1 ? '' : decode(part.slice(eq + 1)));
    else rest.push(part);
  }
  return { rest: rest.join('&'), orGroups };
}

function parseString(input: string): Record<string, unknown> {
  const flat = parseFlat(input);
  if (flat) return flat;
  try {
    return qs.parse(input, QS_OPTIONS) as Record<string, unknown>;
  } catch (error) {
    // qs throws RangeError past parameterLimit / arrayLimit.
    const why = error instanceof Error ? error.message : 'unparsable';
    return fail('invalid_query', '', `the query string is rejected: ${why}`);
  }
}

/**
 * Reads a raw query string (with or without `?`) or an already-parsed object into a list
 * of parameters whose values are all strings, and the OR groups. Anything else (objects as values, non-string
 * items, too many parameters or values) is an `invalid_query`. Never mutates `input`.
 */
export function parseParams(input: unknown): ParsedParams {
  if (typeof input === 'string') {
    const { rest, orGroups } = takeOrGroups(input);
    return fromRecord(parseString(rest), orGroups);
  }
  if (isPlainObject(input)) return fromRecord(input);
  return fail('invalid_query', '', 'the query must be a string or a plain object');
}
