/**
 * Sort, skip, limit and projection for `find` on the embedded engine: mingo's cursor only for
 * what needs it (a projection, or a sort {@link sortSimply} leaves to mingo).
 */

import type { Document, FindOptions } from '@store/common';
import { isPlainObject } from '@store/common';
import { find as mingoFind } from 'mingo';
import type { CompiledFilter } from './compile-filter';
import { asBadValue, EmbeddedDbError } from './errors';
import { distanceToField } from './geo-operators';
import { sortSimply } from './sort-documents';
import { cloneValue } from './values';

function checkCount(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new EmbeddedDbError('BadValue', `${name} must be an integer`);
}

function checkSort(sort: unknown): Record<string, 1 | -1> | undefined {
  if (sort === undefined) return undefined;
  if (!isPlainObject(sort) || Object.values(sort).some((direction) => direction !== 1 && direction !== -1)) {
    throw new EmbeddedDbError('BadValue', 'sort must map field names to 1 or -1');
  }
  return Object.keys(sort).length > 0 ? (sort as Record<string, 1 | -1>) : undefined;
}

/** What the page asks of mingo's cursor. */
interface CursorSteps {
  sort?: Record<string, 1 | -1> | undefined;
  skip?: number;
  limit?: number;
  projection: Document | undefined;
}

/** mingo's cursor: sort, then skip, then limit, then projection, whatever the order of the calls. */
function throughCursor(docs: Document[], { sort, skip = 0, limit = 0, projection }: CursorSteps): Document[] {
  const cursor = mingoFind(docs, {}, projection ?? {}, { scriptEnabled: false });
  if (sort) cursor.sort(sort);
  if (skip > 0) cursor.skip(skip);
  if (limit !== 0) cursor.limit(Math.abs(limit));
  return cursor.all().map(cloneValue);
}

function nearestFirst(docs: Document[], near: NonNullable<CompiledFilter['near']>): Document[] {
  return docs
    .map((doc) => ({ doc, metres: distanceToField(doc, near.field, near.point) }))
    .sort((a, b) => a.metres - b.metres)
    .map(({ doc }) => doc);
}

/**
 * The page of `matches` that `options` asks for, as fresh copies: an explicit sort wins,
 * otherwise a `$nearSphere` orders nearest first, otherwise natural (insertion) order.
 */
export function readDocuments(
  matches: Document[],
  near: CompiledFilter['near'],
  options: FindOptions,
): Document[] {
  const sort = checkSort(options.sort);
  const skip = checkCount('skip', options.skip) ?? 0;
  const limit = checkCount('limit', options.limit) ?? 0;
  if (skip < 0) throw new EmbeddedDbError('BadValue', 'skip must be non-negative');
  if (options.projection !== undefined && !isPlainObject(options.projection)) {
    throw new EmbeddedDbError('BadValue', 'projection must be an object');
  }
  const projection = options.projection;
  return asBadValue('find options', () => {
    const sorted = sort
      ? sortSimply(matches, sort, limit === 0 ? undefined : skip + Math.abs(limit))
      : near
        ? nearestFirst(matches, near)
        : matches;
    if (!sorted) return throughCursor(matches, { sort, skip, limit, projection });
    const page = sorted.slice(skip, limit === 0 ? undefined : skip + Math.abs(limit));
    const projects = projection !== undefined && Object.keys(projection).length > 0;
    return projects ? throughCursor(page, { projection }) : page.map(cloneValue);
  });
}
