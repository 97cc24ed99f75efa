import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { EJSON, ObjectId } from 'bson';
import { storeError } from '../model/error-codes';

/** Deepest nesting of objects and arrays a body may have. */
export const MAX_BODY_DEPTH = 32;

/** Longest dotted path a PATCH key may be (as a field name in the query language). */
const MAX_PATH_LENGTH = 200;

/** Keys refused anywhere in a body: they name prototypes in JavaScript, never data. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The relaxed Extended JSON wrappers a body may use, and the type each must produce. */
const EXTENDED_JSON = {
  $date: (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime()),
  $oid: (value: unknown) => value instanceof ObjectId,
} satisfies Record<string, (value: unknown) => boolean>;

function invalid(path: string, problem: string) {
  return storeError('invalid_body', `${path}: ${problem}.`);
}

function describeKey(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}...` : key);
}

function childPath(path: string, key: string): string {
  return `${path}.${key.length > 40 ? `${key.slice(0, 40)}...` : key}`;
}

/** The key rules: no `$` prefix, no NUL, no prototype names, no dots (nest objects instead). */
function checkKey(key: string, path: string): void {
  const problem = key.startsWith('$')
    ? 'starts with "$" (only {"$date": ...} and {"$oid": ...} are accepted)'
    : key.includes('\0')
      ? 'contains a NUL character'
      : FORBIDDEN_KEYS.has(key)
        ? 'is reserved'
        : key.includes('.')
          ? 'contains "." (nest objects instead)'
          : undefined;
  if (problem) throw invalid(path, `the key ${describeKey(key)} ${problem}`);
}

function fromExtendedJson(value: Record<string, unknown>, key: keyof typeof EXTENDED_JSON, path: string) {
  let result: unknown;
  try {
    result = EJSON.deserialize({ [key]: value[key] }, { relaxed: true });
  } catch {
    result = undefined;
  }
  if (!EXTENDED_JSON[key](result)) throw invalid(path, `invalid ${key} value`);
  return result;
}

function sanitizeObject(value: Record<string, unknown>, path: string, depth: number) {
  const keys = Object.keys(value);
  const only = keys.length === 1 ? keys[0] : undefined;
  if (only !== undefined && Object.hasOwn(EXTENDED_JSON, only)) {
    return fromExtendedJson(value, only as keyof typeof EXTENDED_JSON, path);
  }
  const copy: Document = Object.create(null);
  for (const key of keys) {
    checkKey(key, path);
    copy[key] = sanitizeValue(value[key], childPath(path, key), depth + 1);
  }
  return copy;
}

/** A prototype-free deep copy of a JSON value, with every key rule and Extended JSON applied. */
function sanitizeValue(value: unknown, path: string, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(path, 'numbers must be finite');
    return value;
  }
  if (depth >= MAX_BODY_DEPTH) throw invalid(path, `nested deeper than ${MAX_BODY_DEPTH} levels`);
  if (Array.isArray(value))
    return Array.from(value, (item, i) => sanitizeValue(item, `${path}[${i}]`, depth + 1));
  if (isPlainObject(value)) return sanitizeObject(value, path, depth);
  throw invalid(path, 'only JSON values are accepted');
}

/**
 * Turns a parsed body into a stored document: it must be a JSON object; the copy is
 * prototype-free at every level and never shares objects with `value` (which is never
 * changed). `dottedKeys` lets top-level keys be dotted paths (PATCH); every segment of such
 * a path follows the key rules.
 */
export function sanitizeDocument(value: unknown, dottedKeys = false): Document {
  if (!isPlainObject(value)) throw storeError('invalid_body', 'The request body must be a JSON object.');
  const copy: Document = Object.create(null);
  for (const key of Object.keys(value)) {
    if (dottedKeys && key.length > MAX_PATH_LENGTH) {
      throw invalid('body', `the key ${describeKey(key)} is longer than ${MAX_PATH_LENGTH} characters`);
    }
    for (const segment of dottedKeys ? key.split('.') : [key]) {
      if (segment === '') throw invalid('body', `the key ${describeKey(key)} has an empty path segment`);
      checkKey(segment, 'body');
    }
    copy[key] = sanitizeValue(value[key], childPath('body', key), 1);
  }
  return copy;
}
