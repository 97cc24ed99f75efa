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
