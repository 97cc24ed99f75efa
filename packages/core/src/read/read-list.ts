import type { Document } from '@store/common';
import type { RequestContext, RouteResult } from '../model/context';
import { findOptions, requestFilter } from './filters';
import { countableFilter } from './geo-count';
import { present } from './present';
import { relationProjection, resolveRelations, wantsRelations } from './relations';

/**
 * A list answer on `ctx.resource` (`GET /<res>` and nested routes): `{ count }` with `$count=1`
 * (the whole filter; page, limit, sort and select ignored), otherwise the page with its
 * `$populate` / `$fill` relations, as {@link present} shows them. `extra` filters are ANDed with the query's. Relation names
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
  const related = wantsRelations(ctx) ? await resolveRelations(ctx, { documents, strip }) : documents;
  return { status: 200, data: await present(ctx, related) };
}
