import { invalidOption } from '@store/common';
import { parseDuration } from './duration';

const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;
const FIELD_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;

/** A collection name (no `$`, NUL or leading dot). */
export function collectionName(name: string, value: unknown, fallback: string): string {
  const result = value ?? fallback;
  if (typeof result !== 'string' || !NAME_PATTERN.test(result)) invalidOption(name, 'not a collection name');
  return result;
}

/** A top-level field name (no dots, no `$`). */
export function fieldName(name: string, value: unknown, fallback: string): string {
  const result = value ?? fallback;
  if (typeof result !== 'string' || !FIELD_PATTERN.test(result)) invalidOption(name, 'not a field name');
  return result;
}

/** An integer within bounds. */
export function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  const result = value ?? fallback;
  if (typeof result !== 'number' || !Number.isInteger(result) || result < min || result > max) {
    invalidOption(name, `expected an integer from ${min} to ${max}`);
  }
  return result;
}

/** A duration expression, converted to milliseconds once. */
export function durationMs(name: string, value: unknown, fallback: string, now: Date): number {
  const result = parseDuration(value ?? fallback, now);
  if (result === undefined) invalidOption(name, `cannot read ${JSON.stringify(value)} as a duration`);
  return result;
}

/** A boolean. */
export function boolean(name: string, value: unknown, fallback: boolean): boolean {
  const result = value ?? fallback;
  if (typeof result !== 'boolean') invalidOption(name, 'expected true or false');
  return result;
}

/** A function or null. */
export function optionalFunction<T>(name: string, value: unknown): T | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'function') invalidOption(name, 'expected a function or null');
  return value as T;
}

/** An absolute http(s) URL, or a path, or null: used for redirects. */
export function optionalTarget(name: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value === '') invalidOption(name, 'expected an address or null');
  if (!/^https?:$/.test(URL.parse(value, 'http://localhost')?.protocol ?? '')) {
    invalidOption(name, 'only http(s) addresses and paths are allowed');
  }
  return value;
}

/** The public base address: absolute http(s), no query or fragment; returned without a trailing slash. */
export function baseUrl(name: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const url = typeof value === 'string' ? URL.parse(value) : null;
  if (url === null) return invalidOption(name, 'expected an absolute http(s) address');
  if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '') {
    invalidOption(name, 'expected an http(s) address without query, fragment or credentials');
  }
  return url.href.replace(/\/+$/, '');
}
