/**
 * `$sort`, `$skip` / `$limit` and `$count`: their arguments checked, and how many documents a run
 * of `$skip` / `$limit` stages keeps (so a `$sort` or a scan before it orders or reads no more).
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { EmbeddedDbError } from '../errors';

import { notImplemented } from './pipeline-run';

/** A `$sort` specification, checked: fields to 1 or -1 (a `$meta` sort is refused by name). */
export function sortSpec(spec: unknown): Record<string, 1 | -1> {
  if (!isPlainObject(spec))
    throw new EmbeddedDbError('BadValue', 'the $sort key specification must be an object');
  if (Object.keys(spec).length === 0) {
    throw new EmbeddedDbError('BadValue', '$sort stage must have at least one sort key');
  }
  const sort: Record<string, 1 | -1> = {};
  for (const [field, direction] of Object.entries(spec)) {
    if (isPlainObject(direction) && Object.hasOwn(direction, '$meta')) throw notImplemented('a $meta sort');
    if (field === '' || field.startsWith('$')) {
      throw new EmbeddedDbError('BadValue', `FieldPath field names may not start with '$': ${field}`);
    }
    if (direction !== 1 && direction !== -1) {
      throw new EmbeddedDbError(
        'BadValue',
        '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
      );
    }
    sort[field] = direction;
  }
  return sort;
}

/** A `$skip` / `$limit` argument: a whole number (non-negative for `$skip`, positive for `$limit`). */
export function countArgument(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new EmbeddedDbError('BadValue', `invalid argument to ${name} stage: Expected an integer`);
  }
  if (name === '$skip' && value < 0)
    throw new EmbeddedDbError('BadValue', 'invalid argument to $skip stage: Expected a non-negative number');
  if (name === '$limit' && value <= 0)
    throw new EmbeddedDbError('BadValue', 'invalid argument to $limit stage: Expected a positive number');
  return value;
}

/** `$count`: one document holding the number of documents in `name`, none when there are none. */
export function countStage(docs: Document[], name: unknown): Document[] {
  if (typeof name !== 'string' || name === '')
    throw new EmbeddedDbError('BadValue', 'the count field must be a non-empty string');
  if (name.startsWith('$'))
    throw new EmbeddedDbError('BadValue', 'the count field cannot be a $-prefixed path');
  if (name.includes('.')) throw new EmbeddedDbError('BadValue', "the count field cannot contain '.'");
  if (docs.length === 0) return [];
  const out: Document = {};
  setOwn(out, name, docs.length);
  return [out];
}

/** How many of the documents entering stage `index + 1` a run of `$skip` / `$limit` stages there keeps at most. */
export function keptByPage(stages: Array<[string, unknown]>, from: number): number {
  const [name, spec] = stages[from] ?? [];
  const count = typeof spec === 'number' && Number.isSafeInteger(spec) ? spec : undefined;
  if (name === '$limit' && count !== undefined && count > 0)
    return Math.min(count, keptByPage(stages, from + 1));
  if (name === '$skip' && count !== undefined && count >= 0) return count + keptByPage(stages, from + 1);
  return Number.POSITIVE_INFINITY;
}

/** How many documents a `$sort` at `index` must order (the first ones a following `$limit` keeps), or all. */
export function sortedCount(stages: Array<[string, unknown]>, index: number): number | undefined {
  const kept = keptByPage(stages, index + 1);
  return Number.isFinite(kept) ? kept : undefined;
}
