/**
 * What bulk requests share: the filter of a `PATCH /<res>` or
 * `DELETE /<res>`, the bound on how many documents one reads, and errors that name the item.
 */
import { type Document, idToString, isStoreError, StoreError } from '@store/common';
import { requestFilter } from '../access/filters';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

/** Parameters that shape a page; a bulk change applies to every matching document, so they have no meaning there. */
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
  for (const key of new URLSearchParams(ctx.request.rawQuery).keys()) {
    if (PAGE_PARAMETERS.has(key)) {
      throw storeError(
        'invalid_query',
        `${key} does not apply to ${route}: it changes every document its filter matches.`,
      );
    }
  }
  if (Object.keys(ctx.query.filter).length === 0 && ctx.query.search === undefined) {
    throw storeError(
      'filter_required',
      `${route} changes every document its filter matches; give at least one filter ` +
        '(a field, $or, $query, $regex or $search). For every document, say so: ?_id:exists=true',
    );
  }
  return requestFilter(ctx);
}

/**
 * The documents a bulk change reads to hand to hooks or check against `schema`: at most
 * `maxBulk`, else 400 `too_many_items` before anything changes.
 */
export async function readAffected(ctx: RequestContext, filter: Document): Promise<Document[]> {
  const { maxBulk } = ctx.options;
  const documents = await ctx.collection.find(filter, { limit: maxBulk + 1 }).toArray();
  if (documents.length > maxBulk) {
    throw storeError(
      'too_many_items',
      `More than ${maxBulk} (maxBulk) documents match, and each must be read (hooks or a schema); narrow the filter.`,
    );
  }
  return documents;
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
