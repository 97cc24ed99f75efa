/**
 * What a list or document answer looks like to the foreign client dialects a store has on
 * (`dialects`): parents asked for by `_expand` as one object, json-server v1's paging envelope,
 * simple-rest's `Content-Range`.
 */
import type { Document } from '@store/common';
import type { RequestContext } from '../model/context';

/**
 * The documents with each parent asked for as one object (`_expand=post`): the `$fill` array
 * (`posts: [...]`) replaced by its first document under the singular (`post: {...}`), left out
 * when there is none, as json-server answers. New objects; the inputs are not changed.
 */
export function expandParents(ctx: RequestContext, documents: Document[]): Document[] {
  const expand = ctx.query.dialect?.expand ?? [];
  if (expand.length === 0) return documents;
  return documents.map((doc) => {
    const out: Document = { ...doc };
    for (const { fill, as } of expand) {
      const parents = doc[fill];
      delete out[fill];
      const first = Array.isArray(parents) ? parents[0] : undefined;
      if (first !== undefined) out[as] = first;
    }
    return out;
  });
}

/** json-server v1's page of `_page` / `_per_page`: page numbers from 1, `null` past either end. */
export interface PageEnvelope {
  first: number;
  prev: number | null;
  next: number | null;
  last: number;
  pages: number;
  items: number;
  data: Document[];
}

/** The list answer as json-server v1's envelope, when the request paged with `_per_page`. */
export function pageEnvelope(ctx: RequestContext, data: Document[], total: number): PageEnvelope {
  const { skip, limit } = ctx.query;
  const page = Math.floor(skip / limit) + 1;
  const pages = Math.ceil(total / limit);
  return {
    first: 1,
    prev: page > 1 ? page - 1 : null,
    next: page < pages ? page + 1 : null,
    last: pages,
    pages,
    items: total,
    data,
  };
}

/**
 * `Content-Range: <res> <first>-<last>/<total>` (positions from 0, inclusive) of a page of
 * `count` documents; for an empty page, `<res>` then an asterisk, a slash and `<total>`.
 */
export function contentRange(ctx: RequestContext, count: number, total: number): string {
  const { skip } = ctx.query;
  const name = ctx.resource.name;
  return count === 0 ? `${name} */${total}` : `${name} ${skip}-${skip + count - 1}/${total}`;
}
