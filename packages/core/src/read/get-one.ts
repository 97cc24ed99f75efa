import type { Document } from '@store/common';
import { idFilter } from '@store/common';
import { withJoinKeys } from '@store/populate';
import { requestFilter } from '../access/filters';
import { documentNotFound } from '../http/not-found';
import type { RequestContext, RouteResult } from '../model/context';
import { REVISION_FIELD, revisionOf } from '../model/revision';
import { presentOne } from './present';
import { relationProjection, resolveRelations, wantsRelations } from './relations';

/**
 * `GET /<res>/<id>`: the document, with `$select` applied and its `$populate` / `$fill`
 * relations; 404 when no document has the id (or the one that has it does not match the
 * query's filters). Its revision is read whatever `$select` says: the strong `ETag` names it.
 */
export async function getDocument(ctx: RequestContext): Promise<RouteResult> {
  const { projection: selected, strip } = relationProjection(ctx);
  const { projection } = withJoinKeys(selected as Record<string, 0 | 1> | undefined, [REVISION_FIELD]);
  const filter = requestFilter(ctx, idFilter(ctx.route.id as string));
  const document = await ctx.collection.findOne(filter, projection === undefined ? {} : { projection });
  if (!document) throw documentNotFound(ctx);
  const revision = revisionOf(document);
  const [related] = wantsRelations(ctx)
    ? await resolveRelations(ctx, { documents: [document], strip })
    : [document];
  return { status: 200, data: await presentOne(ctx, related as Document), revision };
}
