import qs from 'qs';
import { isPlainObject } from './dict';
import { LIMITS } from './limits';
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

function fromRecord(record: Record<string, unknown>): Param[] {
  const keys = Object.keys(record);
  if (keys.length > LIMITS.parameters) {
    fail('invalid_query', '', `the query has more than ${LIMITS.parameters} parameters`);
  }
  const params: Param[] = [];
  for (const raw of keys) {
    // `tags:in[]` as a key: what Express 5's and Koa's simple parsers hand over.
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    params.push({ key, values: values(key, record[raw]) });
  }
  return params;
}

function parseString(input: string): Record<string, unknown> {
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
 * of parameters whose values are all strings. Anything else (objects as values, non-string
 * items, too many parameters or values) is an `invalid_query`. Never mutates `input`.
 */
export function parseParams(input: unknown): Param[] {
  if (typeof input === 'string') return fromRecord(parseString(input));
  if (isPlainObject(input)) return fromRecord(input);
  return fail('invalid_query', '', 'the query must be a string or a plain object');
}
