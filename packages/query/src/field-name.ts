import { LIMITS } from './limits';
import { fail } from './query-error';

/** Segments that would reach an object's prototype chain in JavaScript engines (and in mingo). */
const PROTOTYPE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Why `name` is not a valid field path, or `undefined` when it is: dot-separated, no
 * empty segment, no segment starting with `$`, at most 200 characters, no NUL, and no
 * `__proto__`/`constructor`/`prototype` segment.
 */
export function fieldNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > LIMITS.fieldLength) return `is longer than ${LIMITS.fieldLength} characters`;
  if (name.includes('\0')) return 'contains a NUL character';
  // One pass over the characters (no split): this runs for every field of every request.
  let start = 0;
  for (let i = 0; i <= name.length; i++) {
    if (i < name.length && name.charCodeAt(i) !== 46 /* . */) continue;
    if (i === start) return 'has an empty segment';
    if (name.charCodeAt(start) === 36 /* $ */)
      return `has a segment starting with "$" (${name.slice(start, i)})`;
    if (i - start >= 9 && i - start <= 11 && PROTOTYPE_SEGMENTS.has(name.slice(start, i))) {
      return `has a reserved segment (${name.slice(start, i)})`;
    }
    start = i + 1;
  }
  return undefined;
}

/** Throws `invalid_query` for `parameter` unless `name` is a valid field path. */
export function assertFieldName(name: string, parameter: string): string {
  const problem = fieldNameProblem(name);
  if (problem !== undefined)
    fail('invalid_query', parameter, `${parameter}: field name "${name}" ${problem}`);
  return name;
}
