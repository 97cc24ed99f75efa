import type { RequestContext } from '../context';
import { requestFilter } from '../filters';
import { idFilter } from '../ids';
import { resolveRelations, wantsRelations } from '../relations';
import type { RouteResult } from '../respond';
import { documentNotFound } from './not-found';

/**
 * `GET /<res>/<id>`: the document, with `$select` applied; 404 when no document has the id
 * (or the one that has it does not match the query's filters).
 */
export async function getDocument(ctx: RequestContext): Promise<RouteResult> {
  const { projection } = ctx.query;
  const filter = requestFilter(ctx, idFilter(ctx.route.id as string));
  const document = await ctx.collection.findOne(filter, projection === undefined ? {} : { projection });
  if (!document) throw documentNotFound(ctx);
  if (!wantsRelations(ctx)) return { status: 200, data: document };
  const [attached] = await resolveRelations(ctx, { kind: 'attach', documents: [document] });
  return { status: 200, data: attached };
}
