import type { RequestContext } from './context';
import { findOptions, requestFilter } from './filters';
import { countableFilter } from './geo-count';
import { relationProjection, resolveRelations, wantsRelations } from './relations';
import type { RouteResult } from './respond';
import type { Document } from './storage/types';

/**
 * A list answer on `ctx.resource` (`GET /<res>` and nested routes): `{ count }` with `$count=1`
 * (the whole filter; page, limit, sort and select ignored), otherwise the page with its
 * `$populate` / `$fill` relations. `extra` filters are ANDed with the query's. Relation names
 * are checked before any query, so a bad one is a 400 even on an empty page.
 */
export async function readList(ctx: RequestContext, ...extra: Document[]): Promise<RouteResult> {
  const { projection, strip } = relationProjection(ctx);
  const filter = requestFilter(ctx, ...extra);
  if (ctx.query.count) {
    return { status: 200, data: { count: await ctx.collection.countDocuments(countableFilter(filter)) } };
  }
  const options = { ...findOptions(ctx), ...(projection === undefined ? {} : { projection }) };
  const documents = await ctx.collection.find(filter, options).toArray();
  if (!wantsRelations(ctx)) return { status: 200, data: documents };
  return { status: 200, data: await resolveRelations(ctx, { documents, strip }) };
}
