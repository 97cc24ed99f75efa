import { childrenFilter, PopulateError } from '@store/populate';
import type { RequestContext } from './context';
import { andFilters } from './filters';
import type { Document } from './storage/types';

/** The list behind `GET /<res>/<id>/<children>`: a request on the children, and the filter ANDed in. */
export interface NestedList {
  /** `ctx` with the children as its resource (its `$search` fields, its `$populate` names). */
  readonly context: RequestContext;
  /** Children of `<id>` (by `<singular(res)>_id` / `<singular(res)>_ids`), AND the relation's `match`. */
  readonly filter: Document;
}

/** The `match` of `resources.<parent>.population.<children>`, evaluated for this request. */
async function relationMatch(ctx: RequestContext, parent: string, children: string): Promise<Document> {
  const { match } = ctx.options.populate.constraint(parent, children);
  if (match === undefined) return {};
  const filter = typeof match === 'function' ? await match(ctx) : match;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new PopulateError('invalid_constraint', 'a population match must give a filter object', {
      relation: children,
    });
  }
  return filter;
}

/**
 * Turns `GET /<res>/<id>/<children>` into a list request on `<children>`: the whole query
 * language applies, ANDed with the children filter of `@store/populate` (every id kind of
 * `<id>` joins) and the relation's constraint `match`. Its `sort` and `limit` do not apply:
 * `$sort`, `$page` and `$limit` page the whole relation. The parent need not exist.
 */
export async function nestedList(ctx: RequestContext): Promise<NestedList> {
  const { id, children } = ctx.route;
  if (id === undefined || children === undefined) throw new TypeError('nestedList needs a children route');
  const parent = ctx.resource.name;
  const context: RequestContext = {
    ...ctx,
    resource: children,
    collection: ctx.db.collection(children.collection),
  };
  const match = await relationMatch(ctx, parent, children.name);
  return { context, filter: andFilters(childrenFilter(parent, [id], ctx.options.populate), match) };
}
