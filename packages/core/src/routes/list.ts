import type { RequestContext } from '../context';
import { findOptions, requestFilter } from '../filters';
import { countableFilter } from '../geo-count';
import { resolveRelations, wantsRelations } from '../relations';
import type { RouteResult } from '../respond';

/**
 * `GET /<res>`: the page of documents the query selects, or `{ count }` with `$count=1`
 * (the whole filter; page, limit, sort and select ignored).
 */
export async function listDocuments(ctx: RequestContext): Promise<RouteResult> {
  const filter = requestFilter(ctx);
  if (ctx.query.count) {
    return { status: 200, data: { count: await ctx.collection.countDocuments(countableFilter(filter)) } };
  }
  const documents = await ctx.collection.find(filter, findOptions(ctx)).toArray();
  if (!wantsRelations(ctx)) return { status: 200, data: documents };
  return { status: 200, data: await resolveRelations(ctx, { kind: 'attach', documents }) };
}
