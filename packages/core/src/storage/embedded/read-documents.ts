/** Sort, skip, limit and projection for `find` on the embedded engine (mingo's cursor when it has a sort or projection). */
import { find as mingoFind } from 'mingo';
import type { Document, FindOptions } from '../types';
import type { CompiledFilter } from './compile-filter';
import { asBadValue, EmbeddedDbError } from './errors';
import { distanceToField } from './geo-operators';
import { cloneValue, isPlainObject } from './values';

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
  const ordered = !sort && near ? nearestFirst(matches, near) : matches;
  const projection = options.projection;
  if (!sort && (projection === undefined || Object.keys(projection).length === 0)) {
    // Nothing for mingo's cursor to do: the page is a slice.
    return ordered.slice(skip, limit === 0 ? undefined : skip + Math.abs(limit)).map(cloneValue);
  }
  return asBadValue('find options', () => {
    const cursor = mingoFind(ordered, {}, options.projection ?? {}, { scriptEnabled: false });
    if (sort) cursor.sort(sort);
    if (skip > 0) cursor.skip(skip);
    if (limit !== 0) cursor.limit(Math.abs(limit));
    return cursor.all().map(cloneValue);
  });
}
