/**
 * What bulk requests share: the filter of a `PATCH /<res>` or
 * `DELETE /<res>`, the bound on how many documents one changes (`maxBulk`), and errors that name
 * the item.
 */
import { type Document, idToString, isStoreError, StoreError } from '@store/common';
import { shapesPage } from '@store/query';
import { andFilters, collated, requestFilter } from '../access/filters';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

/**
 * The store's own parameters that shape a page; a bulk change applies to every matching
 * document, so they have no meaning there (nor have the foreign dialects', `shapesPage`).
 */
const PAGE_PARAMETERS = new Set([
  '$select',
  '$page',
  '$limit',
  '$sort',
  '$order',
  '$count',
  '$total',
  '$after',
  '$populate',
  '$fill',
]);

/**
 * The filter of a bulk `PATCH` / `DELETE`: the query's own (fields, `$or` groups, `$query`,
 * `$regex`, `$search`) inside the access rule's, like a read's. 400 `filter_required` without
 * any (a bare `DELETE /posts` would empty the collection), 400 `invalid_query` for a parameter
 * that shapes a page.
 */
export function bulkFilter(ctx: RequestContext): Document {
  const route = `${ctx.method} /${ctx.resource.name}`;
  const foreign = ctx.options.dialects.foreign;
  for (const key of new URLSearchParams(ctx.request.rawQuery).keys()) {
    if (PAGE_PARAMETERS.has(key) || (foreign && shapesPage(key))) {
      throw storeError(
        'invalid_query',
        `${key} does not apply to ${route}: it changes every document its filter matches.`,
      );
    }
  }
  const search = ctx.query.search ?? ctx.query.dialect?.search;
  if (Object.keys(ctx.query.filter).length === 0 && search === undefined) {
    throw storeError(
      'filter_required',
      `${route} changes every document its filter matches; give at least one filter ` +
        `(a field, $or, $query, $regex or $search). For every document, say so: ?${ctx.options.wireId}:exists=true`,
    );
  }
  return requestFilter(ctx);
}

/** The 400 of a bulk change whose filter matches more than `maxBulk` documents. */
function tooMany(ctx: RequestContext) {
  const { maxBulk } = ctx.options;
  return storeError(
    'too_many_items',
    `More than ${maxBulk} documents match; ${ctx.method} /${ctx.resource.name} changes at most ${maxBulk} ` +
      '(maxBulk) in one request, and changed none: narrow the filter.',
  );
}

/**
 * The documents a bulk change reads to hand to hooks or check against `schema`: at most
 * `maxBulk`, else 400 `too_many_items` before anything changes.
 */
export async function readAffected(ctx: RequestContext, filter: Document): Promise<Document[]> {
  const documents = await ctx.collection
    .find(filter, { limit: ctx.options.maxBulk + 1, ...collated(ctx) })
    .toArray();
  if (documents.length > ctx.options.maxBulk) throw tooMany(ctx);
  return documents;
}

/**
 * The filter a bulk change by filter writes with: `filter` narrowed to the `_id`s it matches now,
 * at most `maxBulk` of them (read with a limit of `maxBulk + 1`), else 400 `too_many_items` before
 * any write. Documents that come to match later (a concurrent create) are left out, so the
 * change never passes `maxBulk`; `null` when nothing matches.
 */
export async function cappedFilter(ctx: RequestContext, filter: Document): Promise<Document | null> {
  const { maxBulk } = ctx.options;
  const found = await ctx.collection
    .find(filter, { projection: { _id: 1 }, limit: maxBulk + 1, ...collated(ctx) })
    .toArray();
  if (found.length > maxBulk) throw tooMany(ctx);
  if (found.length === 0) return null;
  return chosen(ctx, filter, found);
}

/**
 * The filter a bulk change writes `documents` (read by `filter`) with: `filter` narrowed to their
 * `_id`s, so one changed meanwhile so that it no longer matches is left alone. Under the
 * resource's `collation`, their `_id`s alone: the write then compares nothing but ids (its own
 * "has this field changed" test compares bytes, so "Alice" to "alice" is a change).
 */
export function chosen(ctx: RequestContext, filter: Document, documents: readonly Document[]): Document {
  const ids = { _id: { $in: documents.map((document) => document._id) } };
  return ctx.resource.collation === undefined ? andFilters(filter, ids) : ids;
}

/** `error` about one item of a bulk request: its detail starts with `label`, its problem carries `extension`. */
function about(label: string, extension: Document, error: unknown): unknown {
  if (!isStoreError(error)) return error;
  return new StoreError(error.status, error.code, `${label}: ${error.detail}`, {
    headers: { ...error.headers },
    extensions: { ...error.extensions, ...extension },
    cause: error,
  });
}

/** The error of item `index` of a bulk create (`Item 3: ...`, with `index: 3`). */
export function itemError(index: number, error: unknown): unknown {
  return about(`Item ${index}`, { index }, error);
}

/** Runs `run` for item `index` of a bulk create; what it throws names the item. */
export async function forItem<T>(index: number, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw itemError(index, error);
  }
}

/** Runs `run` for one stored document of a bulk change; what it throws names its `_id`. */
export async function forDocument<T>(document: Document, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const id = idToString(document._id);
    throw about(`Document ${JSON.stringify(id)}`, { id }, error);
  }
}
