import type { Document } from '@store/common';
import { idFilter } from '@store/common';
import { requestFilter } from '../access/filters';
import { documentNotFound } from '../http/not-found';
import type { RequestContext, RouteResult } from '../model/context';
import { revisionOf } from '../model/revision';
import { expandParents } from './dialect-answer';
import { presentOne } from './present';
import { relationProjection, resolveRelations, wantsRelations } from './relations';

/**
 * `GET /<res>/<id>`: the document, with `$select` applied and its `$populate` / `$fill`
 * relations; 404 when no document has the id (or the one that has it does not match the
 * query's filters). Its `revision` only marks the answer as one document's: its `ETag` is then
 * strong, a hash of the answer (the stored token never leaves the store).
 */
export async function getDocument(ctx: RequestContext): Promise<RouteResult> {
  const { projection, strip } = relationProjection(ctx);
  const filter = requestFilter(ctx, idFilter(ctx.route.id as string));
  const document = await ctx.collection.findOne(filter, projection === undefined ? {} : { projection });
  if (!document) throw documentNotFound(ctx);
  const [related] = wantsRelations(ctx)
    ? await resolveRelations(ctx, { documents: [document], strip })
    : [document];
  return {
    status: 200,
    data: expandParents(ctx, [await presentOne(ctx, related as Document)])[0],
    revision: revisionOf(document),
  };
}
