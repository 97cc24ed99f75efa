import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';

/** What an RFC 7396 merge patch does to one stored document, as MongoDB update operators. */
interface MergeUpdate {
  /** Dotted paths to values: a scalar, an array (arrays are replaced whole) or a new object. */
  readonly set: Document;
  /** Dotted paths the patch removes (`null` in the patch). */
  readonly unset: readonly string[];
}

/** The patch value as it lands where there was no object: the value with every `null` member left out. */
function withoutNulls(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const copy: Document = Object.create(null);
  for (const [key, item] of Object.entries(value)) if (item !== null) copy[key] = withoutNulls(item);
  return copy;
}

function walk(target: unknown, patch: Document, prefix: string, update: { set: Document; unset: string[] }) {
  for (const [key, value] of Object.entries(patch)) {
    const path = `${prefix}${key}`;
    const current = isPlainObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    if (value === null) update.unset.push(path);
    else if (isPlainObject(value) && isPlainObject(current)) walk(current, value, `${path}.`, update);
    else update.set[path] = withoutNulls(value);
  }
}

/**
 * RFC 7396 (JSON Merge Patch) against `stored`: a member set to `null` is removed; an object
 * merges into a stored object member by member, at any depth, and replaces anything else
 * (a scalar, an array, nothing) with itself minus its `null` members; any other value (arrays
 * included) replaces the member. Expressed as `$set` / `$unset` on dotted paths that never
 * overlap, so both engines apply it as one update. Neither argument is changed.
 */
export function mergePatchUpdate(stored: Document, patch: Document): MergeUpdate {
  const update = { set: Object.create(null) as Document, unset: [] as string[] };
  walk(stored, patch, '', update);
  return update;
}
