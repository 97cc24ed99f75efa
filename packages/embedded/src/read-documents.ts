/**
 * Sort, skip, limit and projection for `find` on the embedded engine: sorted in MongoDB's order
 * (`sort-documents.ts`), mingo's cursor only for a projection.
 */

import type { Document, FindOptions } from '@store/common';
import { isPlainObject } from '@store/common';
import { find as mingoFind } from 'mingo';
import type { CompiledFilter } from './compile-filter';
import { asBadValue, EmbeddedDbError } from './errors';
import { distanceToField } from './geo-operators';
import { sortDocuments } from './sort-documents';
import { cloneValue, setOwn } from './values';

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

/** `out` with the keys it shares with `stored` in their stored order (MongoDB's projections keep it), the rest after. */
function inStoredOrder(out: unknown, stored: unknown): unknown {
  if (Array.isArray(out)) {
    const same = Array.isArray(stored) && stored.length === out.length;
    return same ? out.map((value, i) => inStoredOrder(value, stored[i])) : out;
  }
  if (!isPlainObject(out) || !isPlainObject(stored)) return out;
  const ordered: Document = {};
  for (const key of Object.keys(stored))
    if (Object.hasOwn(out, key)) setOwn(ordered, key, inStoredOrder(out[key], stored[key]));
  for (const key of Object.keys(out)) if (!Object.hasOwn(ordered, key)) setOwn(ordered, key, out[key]);
  return ordered;
}

const FLAGS = new Set<unknown>([0, 1, true, false]);

/**
 * `projection` as the top-level fields a document keeps (`keep`) or loses (`drop`), with whether
 * `_id` stays; `undefined` for anything else (dotted paths, operators, expressions, a mix).
 */
function topLevelProjection(
  projection: Document,
): { keep: boolean; fields: Set<string>; id: boolean } | undefined {
  let keep: boolean | undefined;
  let id = true;
  const fields = new Set<string>();
  for (const [key, value] of Object.entries(projection)) {
    if (!FLAGS.has(value) || key.includes('.') || key.startsWith('$')) return undefined;
    const wanted = value === 1 || value === true;
    if (key === '_id') {
      id = wanted;
      continue;
    }
    if (keep !== undefined && keep !== wanted) return undefined;
    keep = wanted;
    fields.add(key);
  }
  // Only `_id` named: `{ _id: 1 }` keeps only it, `{ _id: 0 }` drops only it.
  return { keep: keep ?? id, fields, id };
}

/**
 * The page projected on top-level fields without mingo (which builds an operator context per
 * call): fresh copies, fields in stored order, as MongoDB returns them.
 */
function projectedTopLevel(
  docs: Document[],
  plan: { keep: boolean; fields: Set<string>; id: boolean },
): Document[] {
  return docs.map((doc) => {
    const out: Document = {};
    for (const key of Object.keys(doc)) {
      const listed = key === '_id' ? plan.id : plan.keep === plan.fields.has(key);
      if (listed) setOwn(out, key, cloneValue(doc[key]));
    }
    return out;
  });
}

/** The page projected by mingo's cursor, fields in stored order. */
function projected(docs: Document[], projection: Document): Document[] {
  const plan = topLevelProjection(projection);
  if (plan !== undefined) return projectedTopLevel(docs, plan);
  const out = mingoFind(docs, {}, projection, { scriptEnabled: false }).all();
  return out.map((doc, i) => cloneValue(inStoredOrder(doc, docs[i]) as Document));
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
      ? sortDocuments(matches, sort, limit === 0 ? undefined : skip + Math.abs(limit))
      : near
        ? nearestFirst(matches, near)
        : matches;
    const page = sorted.slice(skip, limit === 0 ? undefined : skip + Math.abs(limit));
    const projects = projection !== undefined && Object.keys(projection).length > 0;
    return projects ? projected(page, projection) : page.map(cloneValue);
  });
}
