/** Reading dotted paths the way MongoDB indexes and geo/text operators do. */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';

const INDEX_SEGMENT = /^(0|[1-9]\d*)$/;

function descend(value: unknown, segments: readonly string[], flattenLeaf: boolean, out: unknown[]): void {
  if (segments.length === 0) {
    if (value === undefined) return;
    if (flattenLeaf && Array.isArray(value)) out.push(...value);
    else out.push(value);
    return;
  }
  const [head = '', ...rest] = segments;
  if (Array.isArray(value)) {
    if (INDEX_SEGMENT.test(head)) descend(value[Number(head)], rest, flattenLeaf, out);
    for (const element of value) if (isPlainObject(element)) descend(element, segments, flattenLeaf, out);
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, head)) descend(value[head], rest, flattenLeaf, out);
}

/**
 * Every value found at `path` in `doc`, walking into arrays of sub-documents on the way.
 * With `flattenLeaf`, an array found at the end contributes its elements (index keys, text);
 * without it the array is kept whole (a legacy `[lng, lat]` pair stays a pair).
 */
export function valuesAtPath(doc: Document, path: string, flattenLeaf: boolean): unknown[] {
  const out: unknown[] = [];
  descend(doc, path.split('.'), flattenLeaf, out);
  return out;
}

/** A test of one value found at a path (`undefined`: the path is missing on that branch). */
export type ValueTest = (value: unknown) => boolean;

const isIndexSegment = (segment: string): boolean => INDEX_SEGMENT.test(segment);

function someFrom(
  value: unknown,
  segments: readonly string[],
  at: number,
  test: ValueTest,
  inArray: boolean,
): boolean {
  // Like mingo's resolve: a branch missing inside an array is skipped, not tested as missing.
  if (value === undefined && inArray) return false;
  if (at === segments.length) return test(value);
  const head = segments[at] as string;
  if (Array.isArray(value)) {
    if (isIndexSegment(head)) {
      // A position past the end is a missing field (`{ 'a.0': { $exists: false } }` finds empty arrays).
      const element = value[Number(head)];
      if (
        element === undefined ? !inArray && test(undefined) : someFrom(element, segments, at + 1, test, true)
      )
        return true;
    }
    for (const element of value) {
      const descends = isPlainObject(element) || (Array.isArray(element) && !isIndexSegment(head));
      if (descends && someFrom(element, segments, at, test, true)) return true;
    }
    return false;
  }
  if (isPlainObject(value)) {
    return someFrom(Object.hasOwn(value, head) ? value[head] : undefined, segments, at + 1, test, inArray);
  }
  return !inArray && test(undefined);
}

/**
 * True when `test` holds for some value MongoDB reaches at the path `segments` of `doc`,
 * walking into arrays of sub-documents (and numeric segments as positions) on the way; an
 * array found at the end is handed over whole (the test looks at its elements itself). A path
 * missing outside any array is tested as `undefined` (inside one, as mingo does, it is skipped).
 * Allocates nothing.
 */
export function someAtPath(doc: Document, segments: readonly string[], test: ValueTest): boolean {
  return someFrom(doc, segments, 0, test, false);
}
