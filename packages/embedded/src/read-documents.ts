/**
 * Sort, skip, limit and projection for `find` on the embedded engine: sorted in MongoDB's order
 * (`sort-documents.ts`; in slices for a large match set, `sort-in-slices.ts`), mingo's cursor
 * only for a projection.
 */

import type { Document, FindOptions } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import type { CompiledFilter } from './compile-filter';
import { asBadValue, EmbeddedDbError, toBadValue } from './errors';
import { distanceToField } from './geo-operators';
import { find as mingoFind } from './mingo';
import { SELECT_AT_MOST, sortDocuments, type ValueOrder } from './sort-documents';
import { SORT_AT_ONCE, sortDocumentsInSlices, sortInSlices } from './sort-in-slices';
import { cloneValue } from './values';
import { forEachInSlices, type Work } from './work';

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

/** {@link nearestFirst} in slices. */
async function nearestFirstInSlices(
  docs: Document[],
  near: NonNullable<CompiledFilter['near']>,
  work: Work,
): Promise<Document[]> {
  if (docs.length <= SORT_AT_ONCE) return nearestFirst(docs, near);
  const metres: number[] = [];
  await forEachInSlices(docs, work, (doc) => metres.push(distanceToField(doc, near.field, near.point)));
  const positions = Array.from({ length: docs.length }, (_, i) => i);
  const sorted = await sortInSlices(positions, (a, b) => (metres[a] as number) - (metres[b] as number), work);
  return sorted.map((i) => docs[i] as Document);
}

/** The options of a read, checked: BadValue for a sort, skip, limit or projection of the wrong shape. */
interface ReadPlan {
  sort: Record<string, 1 | -1> | undefined;
  skip: number;
  /** 0: no limit. */
  limit: number;
  projection: Document | undefined;
}

function readPlan(options: FindOptions): ReadPlan {
  const sort = checkSort(options.sort);
  const skip = checkCount('skip', options.skip) ?? 0;
  const limit = Math.abs(checkCount('limit', options.limit) ?? 0);
  if (skip < 0) throw new EmbeddedDbError('BadValue', 'skip must be non-negative');
  if (options.projection !== undefined && !isPlainObject(options.projection)) {
    throw new EmbeddedDbError('BadValue', 'projection must be an object');
  }
  const projection = options.projection;
  const projects = projection !== undefined && Object.keys(projection).length > 0;
  return { sort, skip, limit, projection: projects ? projection : undefined };
}

/** The page of `sorted` the plan asks for. */
const pageOf = (sorted: Document[], plan: ReadPlan): Document[] =>
  sorted.slice(plan.skip, plan.limit === 0 ? undefined : plan.skip + plan.limit);

/** How many documents a sort must order for the plan's page (all of them without a limit). */
const sortedCount = (plan: ReadPlan): number | undefined =>
  plan.limit === 0 ? undefined : plan.skip + plan.limit;

/** `page` as fresh copies, projected. */
const copiesOf = (page: Document[], projection: Document | undefined): Document[] =>
  projection ? projected(page, projection) : page.map(cloneValue);

/**
 * The page of `matches` that `options` asks for, as fresh copies: an explicit sort wins (by
 * `by` under a collation), otherwise a `$nearSphere` orders nearest first, otherwise natural
 * (insertion) order.
 */
export function readDocuments(
  matches: Document[],
  near: CompiledFilter['near'],
  options: FindOptions,
  by?: ValueOrder,
): Document[] {
  const plan = readPlan(options);
  return asBadValue('find options', () => {
    const sorted = plan.sort
      ? sortDocuments(matches, plan.sort, sortedCount(plan), by)
      : near
        ? nearestFirst(matches, near)
        : matches;
    return copiesOf(pageOf(sorted, plan), plan.projection);
  });
}

/**
 * How many matches in natural order make the page `options` asks for, when nothing reorders
 * them (no sort, no `$nearSphere`) and it has a limit: a scan may stop there. Undefined otherwise
 * (options of the wrong shape included: the read refuses them).
 */
export function naturalPageEnd(options: FindOptions, near: CompiledFilter['near']): number | undefined {
  const { sort, skip = 0, limit } = options;
  if (near || typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit === 0) return undefined;
  if (typeof skip !== 'number' || !Number.isSafeInteger(skip) || skip < 0) return undefined;
  if (sort !== undefined && !(isPlainObject(sort) && Object.keys(sort).length === 0)) return undefined;
  return skip + Math.abs(limit);
}

/**
 * How many documents a sorted page needs (skip + limit) when a scan can keep only those as it
 * goes ({@link FirstDocuments}): a sort of fields each 1 or -1, a limit, at most `SELECT_AT_MOST`
 * documents, no `$near` (which orders by distance).
 */
export function sortedPageEnd(options: FindOptions, near: CompiledFilter['near']): number | undefined {
  const { sort, skip = 0, limit } = options;
  if (near || !isPlainObject(sort) || typeof limit !== 'number' || !Number.isSafeInteger(limit))
    return undefined;
  if (limit === 0 || typeof skip !== 'number' || !Number.isSafeInteger(skip) || skip < 0) return undefined;
  const directions = Object.values(sort);
  if (directions.length === 0 || !directions.every((direction) => direction === 1 || direction === -1)) {
    return undefined;
  }
  const need = skip + Math.abs(limit);
  return need <= SELECT_AT_MOST ? need : undefined;
}

/** Documents copied (and projected) in one go. */
const COPY_AT_ONCE = 256;

/**
 * {@link readDocuments} in slices of `work`: the sort, and the copies of a large page. A promise
 * only for more than a few hundred matches: fewer are read at once.
 */
export function readDocumentsInSlices(
  matches: Document[],
  near: CompiledFilter['near'],
  options: FindOptions,
  work: Work,
  by?: ValueOrder,
): Document[] | Promise<Document[]> {
  if (matches.length <= COPY_AT_ONCE) return readDocuments(matches, near, options, by);
  return readManyInSlices(matches, near, options, work, by);
}

async function readManyInSlices(
  matches: Document[],
  near: CompiledFilter['near'],
  options: FindOptions,
  work: Work,
  by: ValueOrder | undefined,
): Promise<Document[]> {
  const plan = readPlan(options);
  try {
    const sorted = plan.sort
      ? await sortDocumentsInSlices(matches, plan.sort, sortedCount(plan), work, by)
      : near
        ? await nearestFirstInSlices(matches, near, work)
        : matches;
    const page = pageOf(sorted, plan);
    if (page.length <= COPY_AT_ONCE) return copiesOf(page, plan.projection);
    const copies: Document[] = [];
    for (let from = 0; from < page.length; from += COPY_AT_ONCE) {
      for (const copy of copiesOf(page.slice(from, from + COPY_AT_ONCE), plan.projection)) copies.push(copy);
      if (work.due()) await work.pause();
    }
    return copies;
  } catch (error) {
    throw toBadValue('find options', error);
  }
}
