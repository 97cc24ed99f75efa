import type { Document } from '@store/common';
import { idFilter } from '@store/common';
import { childrenFilter, relationMatch } from '@store/populate';
import { andFilters } from '../access/filters';
import { authorize } from '../access/grant';
import { contextFor } from '../access/request-context';
import { documentNotFound } from '../http/not-found';
import type { RequestContext } from '../model/context';

/** The list behind `GET /<res>/<id>/<children>`: a request on the children, and the filter ANDed in. */
export interface NestedList {
  /** `ctx` with the children as its resource (its `$search` fields, its `$populate` names). */
  readonly context: RequestContext;
  /**
   * Children of `<id>` (by `<singular(res)>_id` / `<singular(res)>_ids`, and `<singular(res)>Id` /
   * `<singular(res)>Ids` when a foreign dialect is on), AND the relation's `match`.
   */
  readonly filter: Document;
}

/**
 * Under a read rule with a filter (`"owner"`, a function), the parent must be one the caller may
 * read: otherwise 404, as `GET /<res>/<id>` answers. Under an open rule the parent need not exist.
 */
async function checkParentVisible(ctx: RequestContext, id: string): Promise<void> {
  if (Object.keys(ctx.access.filter).length === 0) return;
  const parent = await ctx.collection.findOne(
    { $and: [ctx.access.filter, idFilter(id)] },
    { projection: { _id: 1 } },
  );
  if (parent === null) throw documentNotFound(ctx);
}

/**
 * Turns `GET /<res>/<id>/<children>` (with `ctx` authorized to read `<res>`) into a list request
 * on `<children>` under their own read rule: the whole query language applies, ANDed with the
 * children filter of `@store/populate` (every id kind of `<id>` joins) and the relation's
 * constraint `match`. Its `sort` and `limit` do not apply: `$sort`, `$page` and `$limit` page
 * the whole relation.
 */
export async function nestedList(ctx: RequestContext): Promise<NestedList> {
  const { id, children } = ctx.route;
  if (id === undefined || children === undefined) throw new TypeError('nestedList needs a children route');
  const parent = ctx.resource.name;
  await checkParentVisible(ctx, id);
  const context = await authorize(contextFor(ctx, children), 'read');
  const { match } = ctx.options.populate.constraint(parent, children.name);
  const matched = (await relationMatch(match, ctx, children.name)) ?? {};
  return { context, filter: andFilters(childrenFilter(parent, [id], ctx.options.populate), matched) };
}
